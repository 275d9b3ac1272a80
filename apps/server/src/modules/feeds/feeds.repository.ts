import { and, asc, desc, eq, lte } from 'drizzle-orm';
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

/** Feeds due for a check: not paused, their time come; the longest waiting first. */
export function dueFeeds(db: Db, now: Date, limit: number) {
  return db
    .select()
    .from(feeds)
    .where(and(eq(feeds.paused, false), lte(feeds.nextCheckAt, now)))
    .orderBy(asc(feeds.nextCheckAt))
    .limit(limit);
}

/** The guids and links the feed has already listed. */
export async function knownKeys(db: Db, feedId: string) {
  const rows = await db
    .select({ guid: feedItems.guid, link: feedItems.link })
    .from(feedItems)
    .where(eq(feedItems.feedId, feedId));
  return {
    guids: new Set(rows.map((r) => r.guid).filter((g): g is string => g !== null)),
    links: new Set(rows.map((r) => r.link).filter((l): l is string => l !== null)),
  };
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
