import {
  AllClientsApprovalsResponseSchema,
  AllClientsCalendarResponseSchema,
  AllClientsInboxResponseSchema,
} from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiClient } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useSwitchOrganization } from '@/lib/organization';
import { toastError } from '@/lib/toast';

const allClientsKey = ['all-clients'] as const;

/** `GET /me/all-clients/calendar`: [from, to) across the user's organizations. */
export function useAllClientsCalendar(from: string, to: string) {
  return useQuery({
    queryKey: [...allClientsKey, 'calendar', from, to],
    queryFn: async ({ signal }) =>
      (
        await apiClient.get(
          `/me/all-clients/calendar?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
          { schema: AllClientsCalendarResponseSchema, signal },
        )
      ).data,
  });
}

/** `GET /me/all-clients/approvals`. */
export function useAllClientsApprovals() {
  return useQuery({
    queryKey: [...allClientsKey, 'approvals'],
    queryFn: async ({ signal }) =>
      (
        await apiClient.get('/me/all-clients/approvals', {
          schema: AllClientsApprovalsResponseSchema,
          signal,
        })
      ).data,
  });
}

/** `GET /me/all-clients/inbox`. */
export function useAllClientsInbox() {
  return useQuery({
    queryKey: [...allClientsKey, 'inbox'],
    queryFn: async ({ signal }) =>
      (
        await apiClient.get('/me/all-clients/inbox', {
          schema: AllClientsInboxResponseSchema,
          signal,
        })
      ).data,
  });
}

/**
 * Opens a page of another organization: makes it current first (the page's calls and
 * permissions are that organization's), then goes there.
 */
export function useOpenInOrganization() {
  const { currentOrgId } = useAuth();
  const switchOrganization = useSwitchOrganization();
  const navigate = useNavigate();
  return useCallback(
    (organization: { id: string; name: string }, to: string) => {
      if (organization.id === currentOrgId) {
        void navigate(to);
        return;
      }
      switchOrganization.mutate(organization.id, {
        onSuccess: () => void navigate(to),
        onError: (error) =>
          toastError(error, `Could not switch to ${organization.name}.`, 'org-switch'),
      });
    },
    [currentOrgId, navigate, switchOrganization],
  );
}
