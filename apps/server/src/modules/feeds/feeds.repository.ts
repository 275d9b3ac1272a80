import { and, asc, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { feedItems, feeds, posts } from '../../db/schema.js';

export type FeedRow = typeof feeds.$inferSelect;
export type FeedItemRow = typeof feedItems.$inferSelect;

export async function insertFeed(db: Db, values: typeof feeds.$inferInsert) {
  const [row] = await db.insert(feeds).values(values).returning();
  return row!;
}

export function listFeeds(db: Db, organizationId: string) {
  return db
    .select()
    .from(feeds)
    .where(eq(feeds.organizationId, organizationId))
    .orderBy(asc(feeds.createdAt));
}

export async function findFeed(db: Db, organizationId: string, feedId: string) {
  const [row] = await db
    .select()
    .from(feeds)
    .where(and(eq(feeds.organizationId, organizationId), eq(feeds.id, feedId)));
  return row ?? null;
}

export async function updateFeed(
  db: Db,
  organizationId: string,
  feedId: string,
  values: Partial<typeof feeds.$inferInsert>,
) {
  const [row] = await db
    .update(feeds)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(feeds.organizationId, organizationId), eq(feeds.id, feedId)))
    .returning();
  return row ?? null;
}

export async function deleteFeed(db: Db, organizationId: string, feedId: string) {
  const rows = await db
    .delete(feeds)
    .where(and(eq(feeds.organizationId, organizationId), eq(feeds.id, feedId)))
    .returning({ id: feeds.id });
  return rows.length > 0;
}

/** A feed by id alone: WebSub's callback names it (its organization is the feed's own). */
export async function findFeedById(db: Db, feedId: string) {
  const [row] = await db.select().from(feeds).where(eq(feeds.id, feedId));
  return row ?? null;
}

/**
 * Feeds with a WebSub subscription asked or live: those still waiting for their hub (no lease yet)
 * first, then the soonest lease end, so many live subscriptions never crowd out a pending one.
 */
export function websubFeeds(db: Db, limit: number) {
  return db
    .select()
    .from(feeds)
    .where(inArray(feeds.websubState, ['pending', 'subscribed']))
    .orderBy(sql`${feeds.websubLeaseExpiresAt} asc nulls first`)
    .limit(limit);
}

/** Feeds due for a check: not paused, their time come; the longest waiting first. */
export function dueFeeds(db: Db, now: Date, limit: number) {
  return db
    .select()
    .from(feeds)
    .where(and(eq(feeds.paused, false), lte(feeds.nextCheckAt, now)))
    .orderBy(asc(feeds.nextCheckAt))
    .limit(limit);
}

/**
 * The guids and links the feed has already listed, and among them the failed items still to be
 * tried again (fewer than `maxAttempts` tries), by guid and by link.
 */
export async function knownKeys(db: Db, feedId: string, maxAttempts: number) {
  const rows = await db
    .select({
      id: feedItems.id,
      guid: feedItems.guid,
      link: feedItems.link,
      outcome: feedItems.outcome,
      attempts: feedItems.attempts,
    })
    .from(feedItems)
    .where(eq(feedItems.feedId, feedId));
  const retry = new Map<string, string>();
  for (const r of rows) {
    if (r.outcome !== 'failed' || r.attempts >= maxAttempts) continue;
    if (r.guid) retry.set(`guid:${r.guid}`, r.id);
    if (r.link) retry.set(`link:${r.link}`, r.id);
  }
  return {
    guids: new Set(rows.map((r) => r.guid).filter((g): g is string => g !== null)),
    links: new Set(rows.map((r) => r.link).filter((l): l is string => l !== null)),
    retry,
  };
}

/**
 * Takes a failed item for another try inside the post's transaction: the row, or null when
 * another check took it first (it is no longer failed) or it has had its tries.
 */
export async function claimRetry(db: Db, itemId: string, maxAttempts: number) {
  const [row] = await db
    .update(feedItems)
    .set({ outcome: 'posted', error: null, attempts: sql`${feedItems.attempts} + 1` })
    .where(
      and(
        eq(feedItems.id, itemId),
        eq(feedItems.outcome, 'failed'),
        lt(feedItems.attempts, maxAttempts),
      ),
    )
    .returning();
  return row ?? null;
}

/** Another try of a failed item failed too: counted, with its reason. */
export function recordRetryFailure(db: Db, itemId: string, error: string) {
  return db
    .update(feedItems)
    .set({ error, attempts: sql`${feedItems.attempts} + 1` })
    .where(and(eq(feedItems.id, itemId), eq(feedItems.outcome, 'failed')));
}

/**
 * Records an item unless the feed already has one with its guid or its link (either unique
 * index): the row, or null when it was known. Inside a transaction, a concurrent insert of the
 * same item waits for this one's commit and then finds it.
 */
export async function claimItem(db: Db, values: typeof feedItems.$inferInsert) {
  const rows = await db.insert(feedItems).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export function setItemPost(db: Db, itemId: string, postId: string) {
  return db.update(feedItems).set({ postId }).where(eq(feedItems.id, itemId));
}

export function setPostSource(
  db: Db,
  organizationId: string,
  postId: string,
  source: typeof posts.$inferInsert.source,
) {
  return db
    .update(posts)
    .set({ source })
    .where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)));
}

export function recentItems(db: Db, organizationId: string, feedId: string, limit = 50) {
  return db
    .select()
    .from(feedItems)
    .where(and(eq(feedItems.organizationId, organizationId), eq(feedItems.feedId, feedId)))
    .orderBy(desc(feedItems.createdAt), desc(feedItems.publishedAt))
    .limit(limit);
}
