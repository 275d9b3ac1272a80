import { defaultContent } from '@herald/contract';
import type { Db } from '../../db/client.js';
import type { DashboardPostSource } from '../dashboard/posts-source.js';
import { contentOf } from './post-dto.js';
import { dashboardSummary } from './posts.repository.js';

/** docs/product.md#constants: the dashboard shows the two most recently created posts in its activity list. */
const RECENT_POSTS = 2;

/** The dashboard's view of an organization's posts: real totals, upcoming count, newest posts. */
export function postsDashboardSource(
  db: Db,
  now: () => Date = () => new Date(),
): DashboardPostSource {
  return {
    async summary(organizationId, accountIds = null) {
      const { total, upcoming, newest } = await dashboardSummary(
        db,
        organizationId,
        now(),
        RECENT_POSTS,
        accountIds,
      );
      return {
        total,
        upcoming,
        recent: newest.map((row) => ({
          id: row.id,
          content: defaultContent(contentOf(row)) || null,
          status: row.status,
          createdAt: row.createdAt.toISOString(),
          scheduledAt: row.scheduledAt?.toISOString() ?? null,
          publishedAt: row.publishedAt?.toISOString() ?? null,
        })),
      };
    },
  };
}
