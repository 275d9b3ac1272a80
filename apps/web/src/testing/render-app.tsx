import { INBOX_DEFAULT_LABELS, type MeData, type Plan } from '@herald/contract';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { myOrganizationOf } from './factories';
import { fakeServer, ok, unauthenticated, type FakeReply, type Handler } from './fake-server';
import { createDashboard, dashboardRoute, notificationsHandler } from './notification-fixtures';

export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

interface ServerOptions {
  /** The signed-in session, or null for a visitor (401 on /auth/me and on refresh). */
  me?: MeData | null;
  plans?: Plan[];
  provider?: { kind: 'google' | 'oidc' | 'development'; label: string };
  routes?: Record<string, Handler | FakeReply>;
}

/** The server a browser would meet: a session (or none), public plans and the provider. */
export function mockServer({ me = null, plans = [], provider, routes: extra }: ServerOptions = {}) {
  return fakeServer({
    'GET /auth/me': me ? ok(me) : unauthenticated(),
    'POST /auth/refreshToken': unauthenticated(),
    'GET /auth/provider': ok(provider ?? { kind: 'development', label: 'Herald Dev Login' }),
    'GET /plans': ok({ plans }),
    // Onboarding's lists, consistent with the session: its membership, no invitations.
    'GET /member/organizations': ok({ organizations: me?.member ? [myOrganizationOf(me)] : [] }),
    'GET /member/pending': ok({ pendingInvites: [] }),
    // The shell's unread badge and the dashboard: nothing yet, unless a test says otherwise.
    'GET /notifications': notificationsHandler(() => []),
    // The current organization's record: no default time zone and no branding unless a test
    // says otherwise.
    ...(me?.member
      ? {
          [`GET /organizations/${me.member.organizationId}`]: ok({
            organization: {
              ...myOrganizationOf(me),
              branding: { logoUrl: null, color: null },
              isCurrent: undefined,
              memberId: undefined,
            },
          }),
          // The sidebar's approvals count: nothing waiting unless a test says otherwise.
          [`GET /organizations/${me.member.organizationId}/approvals`]: ok({ posts: [], count: 0 }),
          // A post's client approval links: none unless a test says otherwise.
          [`GET /organizations/${me.member.organizationId}/approval-links`]: ok({ links: [] }),
          // The inbox badge and the dashboard's Unread Messages: nothing unread by default.
          [`GET /organizations/${me.member.organizationId}/inbox/summary`]: ok({
            unreadCount: 0,
            accounts: [],
            labels: [...INBOX_DEFAULT_LABELS],
          }),
        }
      : {}),
    ...(me?.member
      ? dashboardRoute(
          createDashboard({
            organization: { id: me.member.organizationId, name: me.member.organization.name },
          }),
        )
      : {}),
    ...extra,
  });
}

/** Renders the real route tree at `path`, with the app's providers and a fresh cache. */
export function renderApp(
  path: string | string[] = '/',
  { queryClient = createTestQueryClient() }: { queryClient?: QueryClient } = {},
) {
  const router = createMemoryRouter(routes, {
    initialEntries: Array.isArray(path) ? path : [path],
    initialIndex: Array.isArray(path) ? path.length - 1 : 0,
  });
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user, queryClient };
}
