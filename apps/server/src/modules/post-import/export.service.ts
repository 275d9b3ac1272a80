import { and, asc, eq, gt, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { PostStatus } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { platforms, posts, postTargets } from '../../db/schema.js';
import { csvLine } from '../../lib/csv.js';

const PAGE = 500;

export const EXPORT_HEADER = [
  'post_id',
  'status',
  'title',
  'date',
  'scheduled_at',
  'published_at',
  'created_at',
  'text',
  'accounts',
  'networks',
  'account_statuses',
  'permalinks',
];

/**
 * The posts of [from, to) as CSV lines (docs/queue-and-import.md#csv-export), a page at a time
 * so memory stays flat however many there are. A post's date is when it went out, else when it
 * is scheduled, else when it was created (as on the calendar). One line per post; the accounts,
 * their networks, statuses and permalinks are listed in the same order, separated by "; ".
 */
export async function* exportPostsCsv(
  db: Db,
  organizationId: string,
  query: { from: string; to: string; status?: PostStatus[] },
): AsyncGenerator<string> {
  yield csvLine(EXPORT_HEADER);
  const date = sql<Date>`coalesce(${posts.publishedAt}, ${posts.scheduledAt}, ${posts.createdAt})`;
  let after: { date: Date; id: string } | null = null;
  for (;;) {
    const page: Array<Omit<typeof posts.$inferSelect, 'linkTracking'> & { date: Date }> = await db
      .select({
        id: posts.id,
        organizationId: posts.organizationId,
        createdByUserId: posts.createdByUserId,
        title: posts.title,
        status: posts.status,
        content: posts.content,
        contentByPlatform: posts.contentByPlatform,
        scheduledAt: posts.scheduledAt,
        publishedAt: posts.publishedAt,
        createdAt: posts.createdAt,
        updatedAt: posts.updatedAt,
        date: sql<Date>`${date}`.mapWith((v: string | Date) => new Date(v)),
      })
      .from(posts)
      .where(
        and(
          eq(posts.organizationId, organizationId),
          gte(date, new Date(query.from)),
          lt(date, new Date(query.to)),
          query.status?.length ? inArray(posts.status, query.status) : undefined,
          after
            ? or(gt(date, after.date), and(eq(date, after.date), gt(posts.id, after.id)))
            : undefined,
        ),
      )
      .orderBy(asc(date), asc(posts.id))
      .limit(PAGE);
    if (page.length === 0) return;
    const targets = await db
      .select({
        postId: postTargets.postId,
        accountName: postTargets.accountName,
        accountUsername: postTargets.accountUsername,
        network: platforms.name,
        status: postTargets.status,
        permalink: postTargets.permalink,
      })
      .from(postTargets)
      .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
      .where(
        and(
          eq(postTargets.organizationId, organizationId),
          inArray(
            postTargets.postId,
            page.map((p) => p.id),
          ),
        ),
      )
      .orderBy(asc(postTargets.postId), asc(platforms.name));
    const lines: string[] = [];
    for (const post of page) {
      const own = targets.filter((t) => t.postId === post.id);
      lines.push(
        csvLine([
          post.id,
          post.status,
          post.title,
          post.date.toISOString(),
          post.scheduledAt?.toISOString(),
          post.publishedAt?.toISOString(),
          post.createdAt.toISOString(),
          post.content,
          own
            .map((t) => (t.accountUsername ? `@${t.accountUsername}` : (t.accountName ?? '')))
            .join('; '),
          own.map((t) => t.network).join('; '),
          own.map((t) => t.status).join('; '),
          own.map((t) => t.permalink ?? '').join('; '),
        ]),
      );
    }
    yield lines.join('');
    const last = page[page.length - 1]!;
    after = { date: last.date, id: last.id };
    if (page.length < PAGE) return;
  }
}
