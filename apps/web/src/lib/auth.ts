import type { MeData, User } from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { API_BASE, apiClient } from './api-client';
import { isApiError } from './api-error';
import { clearCurrentOrgId, setCurrentOrgId, useCurrentOrgId } from './current-org';
import { browserTimeZone } from './time-zone';

/**
 * The session is shared by every part of the app (guards, shell, landing, login), so it lives
 * in lib/ rather than in a feature: features may not import each other.
 */
export const meQueryKey = ['auth', 'me'] as const;

/** The browser goes here to sign in; the server redirects to the identity provider. */
export const signInUrl = `${API_BASE}/auth/google`;

/** Sign-in that comes back to `returnTo` (a path on this site, e.g. an invitation link). */
export function signInUrlFor(returnTo: string): string {
  return `${signInUrl}?returnTo=${encodeURIComponent(returnTo)}`;
}

export type Session = MeData | null;

// Toasts load with the first one: react-hot-toast is not part of the first download.
const toasts = () => import('./toast');

/** `GET /auth/me`: the signed-in user, or null for a visitor (401). */
export async function fetchMe(): Promise<Session> {
  try {
    const { data } = await apiClient.get('/auth/me', {
      schema: () => import('./lazy-schemas').then((m) => m.MeResponseSchema),
    });
    // The server keeps the current organization (every switch is sent to it), and `member`
    // with its permissions belongs to that organization: the stored id follows it, so org-scoped
    // calls, permission checks and the organization's name always agree.
    setCurrentOrgId(data.member?.organizationId ?? null);
    if (data.user.timezone === null)
      return { ...data, user: await adoptBrowserTimeZone(data.user) };
    return data;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    // docs/product.md#messages: on any other failure the user is cleared and told why.
    void toasts().then(({ toastError }) =>
      toastError(error, 'Authentication failed', 'auth-check'),
    );
    return null;
  }
}

/**
 * On the first sign-in the user has no time zone yet: the browser's becomes theirs (the server
 * stores it only while they have none; they change it in Settings). Failing that, nothing is lost:
 * times are in the organization's zone, else UTC, named on screen, and Settings still asks for one.
 */
async function adoptBrowserTimeZone(user: User): Promise<User> {
  const timezone = browserTimeZone();
  if (!timezone) return user;
  try {
    const { data } = await apiClient.put(
      '/users/me/default-timezone',
      { timezone },
      { schema: () => import('./lazy-schemas').then((m) => m.UserResponseSchema) },
    );
    return data.user;
  } catch {
    return user;
  }
}

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: fetchMe,
    staleTime: 60_000,
    retry: false,
  });
}

/** The pieces of auth state every screen asks about (docs/product.md#user-and-organization). */
export function useAuth() {
  const me = useMe();
  const currentOrgId = useCurrentOrgId();
  const session = me.data ?? null;
  return {
    isLoading: me.isPending,
    isAuthenticated: session !== null,
    user: session?.user ?? null,
    member: session?.member ?? null,
    currentOrgId,
  };
}

/**
 * After a call that changed the caller's current organization (create, accept, switch, leave):
 * stores the new one at once, so guards let the user in, and refetches /auth/me for the
 * membership, role and permissions in it.
 */
export function useOrganizationChanged() {
  const queryClient = useQueryClient();
  return useCallback(
    (orgId: string | null) => {
      setCurrentOrgId(orgId);
      return queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
    [queryClient],
  );
}

/** Where a signed-in user belongs: the shell with an organization, onboarding without. */
export function homePathFor(currentOrgId: string | null): string {
  return currentOrgId ? paths.dashboard : paths.onboarding;
}

/** Forgets everything about the signed-in user (logout, failed refresh). */
export function clearSession(queryClient: ReturnType<typeof useQueryClient>): void {
  queryClient.clear();
  // Set after clear so the guards see "visitor" at once instead of refetching /auth/me.
  queryClient.setQueryData<Session>(meQueryKey, null);
  clearCurrentOrgId();
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiClient.post('/auth/logout', undefined, { skipAuthRefresh: true }),
    onSuccess: () => {
      clearSession(queryClient);
      void navigate(paths.login, { replace: true });
    },
    onError: () => {
      void toasts().then(({ toast }) => toast.error('Logout failed'));
    },
  });
}
