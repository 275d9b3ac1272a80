import type { z } from 'zod';
import type { DashboardSchema } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { getSubscription } from '../billing/billing.service.js';
import { listIntegrations } from '../integrations/integrations.service.js';
import { countUnread } from '../notifications/notifications.service.js';
import { countUnreadConversations } from '../inbox/inbox.service.js';
import { getOrganization } from '../organizations/organizations.service.js';
import { listPlans } from '../plans/plans.service.js';
import { listPlatformRows } from '../platforms/platforms.service.js';
import { countSeats } from '../billing/entitlements.js';
import { getEngagementTrend } from '../analytics/analytics-overview.service.js';
import type { DashboardPostSource } from './posts-source.js';

/**
 * The organization dashboard: real figures only. Posts come from the posts module through
 * `DashboardPostSource`; until it exists the counts are zero, which is the truth. The engagement
 * card's days are days of `zone` (the zone that applies to the member, as on /analytics).
 */
export async function getDashboard(
  db: Db,
  posts: DashboardPostSource,
  organizationId: string,
  userId: string,
  zone: string,
  canViewAnalytics: boolean,
  canViewInbox = false,
  member: { accountIds: string[] | null } = { accountIds: null },
): Promise<z.infer<typeof DashboardSchema>> {
  const [
    organization,
    integrations,
    memberCount,
    platforms,
    subscription,
    plans,
    unread,
    recent,
    engagement,
    unreadMessages,
  ] = await Promise.all([
    getOrganization(db, organizationId),
    listIntegrations(db, organizationId, member),
    countSeats(db, organizationId),
    listPlatformRows(db, true),
    getSubscription(db, organizationId),
    listPlans(db, { isAdmin: false }),
    countUnread(db, userId, organizationId),
    posts.summary(organizationId, member.accountIds),
    // A member limited to no account at all has no analytics to show.
    canViewAnalytics && member.accountIds?.length !== 0
      ? getEngagementTrend(db, organizationId, zone, undefined, member.accountIds)
      : null,
    canViewInbox ? countUnreadConversations(db, organizationId, member.accountIds) : null,
  ]);
  return {
    organization: { id: organization.id, name: organization.name },
    posts: recent.recent,
    postCounts: { total: recent.total, upcoming: recent.upcoming },
    integrations,
    memberCount,
    supportedPlatformsCount: platforms.length,
    subscription,
    plans: plans.plans,
    unreadNotifications: unread,
    unreadMessages,
    engagement,
  };
}
