import {
  and,
  count,
  countDistinct,
  desc,
  eq,
  ilike,
  inArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mediaLibraryItems, postMedia, users } from '../../db/schema.js';
import { containsPattern } from '../../lib/like-pattern.js';

export type LibraryItemRow = typeof mediaLibraryItems.$inferSelect;
export type NewLibraryItem = typeof mediaLibraryItems.$inferInsert;

export interface LibraryFilter {
  q?: string;
  type?: LibraryItemRow['kind'];
  unused?: boolean;
  tag?: string;
}

/** How many posts use each item (a post with the item twice counts once). */
const usedInPosts = sql<number>`(select count(distinct ${postMedia.postId}) from ${postMedia} where ${postMedia.libraryItemId} = ${mediaLibraryItems.id})`;

function filterOf(organizationId: string, filter: LibraryFilter): SQL {
  const conditions: SQL[] = [eq(mediaLibraryItems.organizationId, organizationId)];
  if (filter.type) conditions.push(eq(mediaLibraryItems.kind, filter.type));
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    conditions.push(
      or(
        ilike(mediaLibraryItems.fileName, pattern),
        ilike(mediaLibraryItems.altText, pattern),
        sql`exists (select 1 from jsonb_array_elements_text(${mediaLibraryItems.tags}) t where t ilike ${pattern})`,
      )!,
    );
  }
  if (filter.tag) {
    conditions.push(sql`${mediaLibraryItems.tags} @> ${JSON.stringify([filter.tag])}::jsonb`);
  }
  if (filter.unused !== undefined) {
    const used = sql`exists (select 1 from ${postMedia} where ${postMedia.libraryItemId} = ${mediaLibraryItems.id})`;
    conditions.push(filter.unused ? sql`not ${used}` : used);
  }
  return and(...conditions)!;
}

/** One page of the organization's library, newest first, with who uploaded and where it is used. */
export async function listItems(
  db: Db,
  organizationId: string,
  filter: LibraryFilter,
  page: { limit: number; offset: number },
) {
  const where = filterOf(organizationId, filter);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        item: mediaLibraryItems,
        uploaderName: users.displayName,
        uploaderEmail: users.email,
        usedInPosts,
      })
      .from(mediaLibraryItems)
      .leftJoin(users, eq(users.id, mediaLibraryItems.uploadedByUserId))
      .where(where)
      .orderBy(desc(mediaLibraryItems.createdAt), desc(mediaLibraryItems.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(mediaLibraryItems).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}
export type ListedItem = Awaited<ReturnType<typeof listItems>>['rows'][number];

/** One item with the same details as the list. */
export async function findListedItem(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select({
      item: mediaLibraryItems,
      uploaderName: users.displayName,
      uploaderEmail: users.email,
      usedInPosts,
    })
    .from(mediaLibraryItems)
    .leftJoin(users, eq(users.id, mediaLibraryItems.uploadedByUserId))
    .where(and(eq(mediaLibraryItems.organizationId, organizationId), eq(mediaLibraryItems.id, id)));
  return row ?? null;
}

/** The item, locked for the rest of the transaction (a post attaching it waits). */
export async function lockItem(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(mediaLibraryItems)
    .where(and(eq(mediaLibraryItems.organizationId, organizationId), eq(mediaLibraryItems.id, id)))
    .for('update');
  return row ?? null;
}

export async function updateItem(
  db: Db,
  organizationId: string,
  id: string,
  values: Partial<Pick<LibraryItemRow, 'altText' | 'tags'>>,
) {
  await db
    .update(mediaLibraryItems)
    .set(values)
    .where(and(eq(mediaLibraryItems.organizationId, organizationId), eq(mediaLibraryItems.id, id)));
}

/** How many posts use the item. */
export async function postsUsing(db: Db, organizationId: string, id: string): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(postMedia.postId) })
    .from(postMedia)
    .where(and(eq(postMedia.organizationId, organizationId), eq(postMedia.libraryItemId, id)));
  return row?.n ?? 0;
}

export async function deleteItem(db: Db, organizationId: string, id: string) {
  await db
    .delete(mediaLibraryItems)
    .where(and(eq(mediaLibraryItems.organizationId, organizationId), eq(mediaLibraryItems.id, id)));
}

/** Whether any post file still stores its bytes under one of these keys (files from before the library). */
export async function keysStillUsed(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ storageKey: postMedia.storageKey, thumbnailKey: postMedia.thumbnailKey })
    .from(postMedia)
    .where(or(inArray(postMedia.storageKey, keys), inArray(postMedia.thumbnailKey, keys)));
  return new Set(rows.flatMap((r) => [r.storageKey, r.thumbnailKey ?? '']));
}

/**
 * Adds an item unless the organization's library already holds these bytes; returns the item
 * and whether it is new.
 */
export async function insertItem(db: Db, values: NewLibraryItem) {
  const [inserted] = await db
    .insert(mediaLibraryItems)
    .values(values)
    .onConflictDoNothing({ target: [mediaLibraryItems.organizationId, mediaLibraryItems.sha256] })
    .returning();
  if (inserted) return { item: inserted, created: true };
  const [existing] = await db
    .select()
    .from(mediaLibraryItems)
    .where(
      and(
        eq(mediaLibraryItems.organizationId, values.organizationId),
        eq(mediaLibraryItems.sha256, values.sha256),
      ),
    );
  if (!existing) throw new Error('a library item vanished while it was added');
  return { item: existing, created: false };
}

/** Bytes the organization's library holds. */
export async function libraryBytes(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(${mediaLibraryItems.size})` })
    .from(mediaLibraryItems)
    .where(eq(mediaLibraryItems.organizationId, organizationId));
  return Number(row?.bytes ?? 0);
}

/** Items cropped from this one lose their link to it when it goes. */
export async function forgetOriginal(db: Db, organizationId: string, id: string) {
  await db
    .update(mediaLibraryItems)
    .set({ derivedFromId: null })
    .where(
      and(
        eq(mediaLibraryItems.organizationId, organizationId),
        eq(mediaLibraryItems.derivedFromId, id),
      ),
    );
}
