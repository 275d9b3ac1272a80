import type { PostStatus } from '@herald/contract';
import { and, asc, eq, gt, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { reachablePost } from '../posts/posts.lookups.js';
import { platforms, posts, postTargets } from '../../db/schema.js';

/** Every network, active or not, by id and name (the import matches names). */
export function allPlatformNames(db: Db) {
  return db.select({ id: platforms.id, name: platforms.name }).from(platforms);
}

/** A post's date: when it went out, else when it is scheduled, else when it was created. */
const date = sql<Date>`coalesce(${posts.publishedAt}, ${posts.scheduledAt}, ${posts.createdAt})`;

/**
 * Up to `limit` of the organization's posts whose date is in [from, to) (of these statuses when
 * given), by date then id, after the `after` post.
 */
export async function exportPage(
  db: Db,
  organizationId: string,
  query: { from: string; to: string; status?: PostStatus[] },
  after: { date: Date; id: string } | null,
  limit: number,
  reachable: readonly string[] | null = null,
): Promise<
  Array<
    Omit<
      typeof posts.$inferSelect,
      'linkTracking' | 'shortLinks' | 'createdByApiKeyId' | 'source'
    > & {
      date: Date;
    }
  >
> {
  return db
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
        reachable ? reachablePost(organizationId, reachable) : undefined,
        after
          ? or(gt(date, after.date), and(eq(date, after.date), gt(posts.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(asc(date), asc(posts.id))
    .limit(limit);
}

/** These posts' accounts, with their networks, statuses and permalinks, by post then network. */
export function targetsOfPosts(db: Db, organizationId: string, postIds: string[]) {
  return db
    .select({
      postId: postTargets.postId,
      integrationId: postTargets.integrationId,
      accountName: postTargets.accountName,
      accountUsername: postTargets.accountUsername,
      network: platforms.name,
      status: postTargets.status,
      permalink: postTargets.permalink,
    })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(
      and(eq(postTargets.organizationId, organizationId), inArray(postTargets.postId, postIds)),
    )
    .orderBy(asc(postTargets.postId), asc(platforms.name));
}
