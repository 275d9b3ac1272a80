import type { Notification } from '@herald/contract';
import type { Dashboard } from '@/features/dashboard/api/dashboard';
import { ok, type FakeReply, type Handler } from './fake-server';

let sequence = 0;

/** A notification as the server sends it; by default an unread, medium-priority billing notice. */
export function createNotification(overrides: Partial<Notification> = {}): Notification {
  sequence += 1;
  return {
    id: `ntf_${sequence}`,
    type: 'SUBSCRIPTION_UPDATE',
    priority: 'MEDIUM',
    message: `Notice number ${sequence}.`,
    read: false,
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    organizationId: 'org_1',
    postId: null,
    resolvedAt: null,
    ...overrides,
  };
}

/**
 * `GET /notifications` as the server answers it: the bare list, or with `limit` a page whose
 * meta carries the unread count. `list` is read on every call, so a test may change it.
 */
export function notificationsHandler(list: () => Notification[]): Handler {
  return ({ query }) => {
    const all = list();
    if (!query.has('limit')) return { status: 200, body: all };
    const limit = Number(query.get('limit'));
    return {
      status: 200,
      body: {
        status: 'success',
        data: { notifications: all.slice(0, limit) },
        meta: {
          nextCursor: all.length > limit ? 'next' : null,
          unreadCount: all.filter((n) => !n.read).length,
        },
      },
    };
  };
}

/** The notification routes: a list that the read/unread calls really change. */
export function notificationRoutes(
  initial: Notification[] = [],
): Record<string, Handler | FakeReply> & { list: Notification[] } {
  const list = initial.map((n) => ({ ...n }));
  const routes: Record<string, Handler | FakeReply> = {
    'GET /notifications': notificationsHandler(() => list),
    'PATCH /notifications/read-all': () => {
      const unread = list.filter((n) => !n.read);
      for (const n of unread) n.read = true;
      return ok({ updated: unread.length });
    },
  };
  for (const notification of list) {
    for (const read of [true, false]) {
      routes[`PATCH /notifications/${notification.id}/${read ? 'read' : 'unread'}`] = () => {
        notification.read = read;
        return ok({ notification });
      };
    }
  }
  return Object.assign(routes, { list });
}

/** The dashboard answer of an organization with nothing in it yet. */
export function createDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    organization: { id: 'org_1', name: 'Acme Studio' },
    posts: [],
    postCounts: { total: 0, upcoming: 0 },
    integrations: [],
    memberCount: 1,
    supportedPlatformsCount: 6,
    subscription: null,
    plans: [],
    unreadNotifications: 0,
    unreadMessages: null,
    engagement: {
      value: null,
      previous: null,
      change: null,
      from: '2026-02-01',
      to: '2026-03-02',
      formula: 'interactions ÷ views (or reach)',
    },
    ...overrides,
  };
}

export function dashboardRoute(
  dashboard: Dashboard = createDashboard(),
): Record<string, FakeReply> {
  return { [`GET /organizations/${dashboard.organization.id}/dashboard`]: ok(dashboard) };
}
