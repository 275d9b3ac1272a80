import {
  BillingConfigResponseSchema,
  BillingGroupResponseSchema,
  MembersResponseSchema,
  PortalResponseSchema,
  SubscribeResponseSchema,
  SubscriptionResponseSchema,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';
import { quietNextNotification } from '@/lib/notifications';
import { billingKeys, orgPath } from './billing-keys';

/** `GET /billing/config`: whether payments go through Stripe or not at all ('none'). */
export function useBillingConfig() {
  return useQuery({
    queryKey: billingKeys.config,
    queryFn: async () => {
      const { data } = await apiClient.get('/billing/config', {
        schema: BillingConfigResponseSchema,
      });
      return data;
    },
    staleTime: Infinity,
  });
}

/** `GET /organizations/{orgId}/subscription`: the organization's plan, or null without one. */
export function useSubscription(orgId: string) {
  return useQuery({
    queryKey: billingKeys.subscription(orgId),
    queryFn: async () => {
      const { data } = await apiClient.get(`${orgPath(orgId)}/subscription`, {
        schema: SubscriptionResponseSchema,
      });
      return data.subscription;
    },
    enabled: Boolean(orgId),
    // Stripe and the trial clock change it behind the page's back.
    refetchOnMount: 'always',
  });
}

/** How many members the organization has (only the count: one page of one member). */
export function useMemberCount(orgId: string) {
  return useQuery({
    queryKey: billingKeys.memberCount(orgId),
    queryFn: async () => {
      const answer = await apiClient.get(`${orgPath(orgId)}/members?page=1&pageSize=1`, {
        schema: MembersResponseSchema,
      });
      return answer.meta.totalCount;
    },
    enabled: Boolean(orgId),
    // Invitations and departures happen on other screens.
    refetchOnMount: 'always',
  });
}

/**
 * After any change of plan: the subscription, and /auth/me (the server's gates read it, and so do
 * the screens that show the plan), are fetched again.
 */
export function useSubscriptionChanged(orgId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: billingKeys.org(orgId) }),
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]),
    [queryClient, orgId],
  );
}

/**
 * The page toasts the outcome of its own plan changes; the SUBSCRIPTION_UPDATE notification the
 * same change makes is added to the list without a second toast.
 */
const oneToast = {
  onMutate: () => ({ release: quietNextNotification('SUBSCRIPTION_UPDATE') }),
  onError: (_error: unknown, _variables: unknown, context: { release: () => void } | undefined) =>
    context?.release(),
};

/** `POST …/subscribe/trial`: the 7-day free trial of a plan, once per organization. */
export function useStartTrial(orgId: string) {
  const changed = useSubscriptionChanged(orgId);
  return useMutation({
    mutationFn: async (planId: string) => {
      const { data } = await apiClient.post(
        `${orgPath(orgId)}/subscribe/trial`,
        { planId },
        { schema: SubscriptionResponseSchema },
      );
      return data.subscription;
    },
    ...oneToast,
    onSuccess: changed,
  });
}

/**
 * `POST …/subscription/subscribe`: without a payment provider the plan is active at once; with
 * Stripe the answer's `checkoutUrl` is where the browser goes to pay.
 */
export function useSubscribe(orgId: string) {
  const changed = useSubscriptionChanged(orgId);
  return useMutation({
    mutationFn: async (planId: string) => {
      const { data } = await apiClient.post(
        `${orgPath(orgId)}/subscription/subscribe`,
        { planId },
        { schema: SubscribeResponseSchema },
      );
      return data;
    },
    ...oneToast,
    onSuccess: changed,
  });
}

/** `POST …/subscription/cancel`: a trial ends at once, a paid plan at the end of its period. */
export function useCancelSubscription(orgId: string) {
  const changed = useSubscriptionChanged(orgId);
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiClient.post(`${orgPath(orgId)}/subscription/cancel`, undefined, {
        schema: SubscriptionResponseSchema,
      });
      return data.subscription;
    },
    ...oneToast,
    onSuccess: changed,
  });
}

/** `POST …/billing/portal`: a Stripe page where the customer manages cards and invoices. */
export function useBillingPortal(orgId: string) {
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiClient.post(`${orgPath(orgId)}/billing/portal`, undefined, {
        schema: PortalResponseSchema,
      });
      return data.url;
    },
  });
}

/**
 * `GET …/billing/group` (billing:view): the organizations the plan covers, seen from the paying
 * organization, or who pays, seen from a covered one; null when neither.
 */
export function useBillingGroup(orgId: string, enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.group(orgId),
    queryFn: async () => {
      const { data } = await apiClient.get(`${orgPath(orgId)}/billing/group`, {
        schema: BillingGroupResponseSchema,
      });
      return data.group;
    },
    enabled: Boolean(orgId) && enabled,
    // Organizations are created, transferred and plans changed on other screens.
    refetchOnMount: 'always',
  });
}

/**
 * `PUT …/billing/group` (the subscriber): which of their organizations the plan covers first.
 * Coverage decides every covered organization's gates, so everything billing is fetched again.
 */
export function useChooseCoverage(orgId: string) {
  const queryClient = useQueryClient();
  const changed = useSubscriptionChanged(orgId);
  return useMutation({
    mutationFn: async (organizationIds: string[]) => {
      const { data } = await apiClient.put(
        `${orgPath(orgId)}/billing/group`,
        { organizationIds },
        { schema: BillingGroupResponseSchema },
      );
      return data.group;
    },
    onSuccess: async (group) => {
      queryClient.setQueryData(billingKeys.group(orgId), group);
      await Promise.all([changed(), queryClient.invalidateQueries({ queryKey: ['billing'] })]);
    },
  });
}

/**
 * The subscriber goes from a covered organization to the one that pays for it, whose billing
 * this same page then shows: the app's one organization switch.
 */
export { useSwitchOrganization as useOpenOrganization } from '@/lib/organization';
