import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { containsPattern } from '../../lib/like-pattern.js';
import {
  integrations,
  organizations,
  platforms,
  postMedia,
  posts,
  postTargets,
  users,
} from '../../db/schema.js';

export type PostRow = typeof posts.$inferSelect;
export type NewPostMedia = Omit<typeof postMedia.$inferInsert, 'id' | 'postId' | 'organizationId'>;

export interface PostFilter {
  status?: PostRow['status'];
  q?: string;
  from?: Date;
  to?: Date;
}

/** The calendar's date of a post: its scheduled time, else when it was created. */
const postDateSql = sql`coalesce(${posts.scheduledAt}, ${posts.createdAt})`;

function filterSql(organizationId: string, filter: PostFilter): SQL | undefined {
  const conditions: SQL[] = [eq(posts.organizationId, organizationId)];
  if (filter.status) conditions.push(eq(posts.status, filter.status));
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    conditions.push(
      // The title is what the composer says helps find the post again.
      or(
        ilike(posts.content, pattern),
        ilike(posts.title, pattern),
        sql`${posts.contentByPlatform}::text ilike ${pattern}`,
      )!,
    );
  }
  if (filter.from) conditions.push(gte(postDateSql, filter.from));
  if (filter.to) conditions.push(lt(postDateSql, filter.to));
  return and(...conditions);
}

export async function listPosts(
  db: Db,
  organizationId: string,
  filter: PostFilter,
  window: { limit: number; offset: number },
) {
  const where = filterSql(organizationId, filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(posts)
      .where(where)
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(posts).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function findPost(db: Db, organizationId: string, postId: string) {
  const [row] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)));
  return row ?? null;
}

/** Locks the post's row for the rest of the transaction (edits racing the publisher). */
export async function lockPost(db: Db, organizationId: string, postId: string) {
  const [row] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)))
    .for('update');
  return row ?? null;
}

/** Everything a list of posts shows beside its own columns, loaded in three queries. */
export async function loadPostRelations(db: Db, organizationId: string, postIds: string[]) {
  if (postIds.length === 0) return { targets: [], media: [], creators: new Map() };
  const [targets, media] = await Promise.all([
    db
      .select({ target: postTargets, platformName: platforms.name })
      .from(postTargets)
      .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
      .where(
        and(eq(postTargets.organizationId, organizationId), inArray(postTargets.postId, postIds)),
      )
      .orderBy(asc(platforms.name)),
    db
      .select()
      .from(postMedia)
      .where(and(eq(postMedia.organizationId, organizationId), inArray(postMedia.postId, postIds)))
      .orderBy(asc(postMedia.postId), asc(postMedia.position)),
  ]);
  const creatorRows = await db
    .select({ postId: posts.id, id: users.id, displayName: users.displayName })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.createdByUserId))
    .where(and(eq(posts.organizationId, organizationId), inArray(posts.id, postIds)));
  const creators = new Map(
    creatorRows.map((row) => [row.postId, { id: row.id, displayName: row.displayName }]),
  );
  return { targets, media, creators };
}

/** The connected account of each platform (the newest when several), with the platform's rules. */
export async function connectedPlatforms(db: Db, organizationId: string, platformIds: string[]) {
  if (platformIds.length === 0) return [];
  return db
    .selectDistinctOn([platforms.id], {
      platformId: platforms.id,
      platformName: platforms.name,
      isActive: platforms.isActive,
      mediaConstraints: platforms.mediaConstraints,
      integrationId: integrations.id,
    })
    .from(platforms)
    .innerJoin(integrations, eq(integrations.platformId, platforms.id))
    .where(
      and(
        eq(integrations.organizationId, organizationId),
        eq(integrations.status, 'CONNECTED'),
        inArray(platforms.id, platformIds),
      ),
    )
    .orderBy(platforms.id, desc(integrations.connectedAt));
}

/** Rules of the platforms a post already targets (for edits). */
export function targetPlatforms(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      platformId: platforms.id,
      platformName: platforms.name,
      mediaConstraints: platforms.mediaConstraints,
    })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(and(eq(postTargets.organizationId, organizationId), eq(postTargets.postId, postId)));
}

/** Which platforms each file of a post is for (null: all of them). */
export function mediaOwners(db: Db, organizationId: string, postId: string) {
  return db
    .select({ platformIds: postMedia.platformIds })
    .from(postMedia)
    .where(and(eq(postMedia.organizationId, organizationId), eq(postMedia.postId, postId)));
}

/** Serializes post creation per organization so the per-day limit cannot be overrun. */
export async function lockOrganization(db: Db, organizationId: string) {
  await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
}

export async function countPostsCreatedSince(db: Db, organizationId: string, since: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(posts)
    .where(and(eq(posts.organizationId, organizationId), gte(posts.createdAt, since)));
  return row?.n ?? 0;
}

export async function insertPost(
  db: Db,
  values: typeof posts.$inferInsert,
  targets: Array<{ platformId: string; integrationId: string }>,
  media: NewPostMedia[],
) {
  const [post] = await db.insert(posts).values(values).returning();
  if (!post) throw new Error('insert into posts returned nothing');
  await db.insert(postTargets).values(
    targets.map((target) => ({
      postId: post.id,
      organizationId: post.organizationId,
      platformId: target.platformId,
      integrationId: target.integrationId,
    })),
  );
  if (media.length > 0) {
    await db
      .insert(postMedia)
      .values(media.map((m) => ({ ...m, postId: post.id, organizationId: post.organizationId })));
  }
  return post;
}

export async function updatePost(
  db: Db,
  organizationId: string,
  postId: string,
  values: Partial<typeof posts.$inferInsert>,
) {
  const [row] = await db
    .update(posts)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)))
    .returning();
  return row ?? null;
}

/** Deletes the post (targets and media rows go with it); returns the storage keys to remove. */
export async function deletePost(db: Db, organizationId: string, postId: string) {
  const files = await db
    .select({ storageKey: postMedia.storageKey, thumbnailKey: postMedia.thumbnailKey })
    .from(postMedia)
    .where(and(eq(postMedia.organizationId, organizationId), eq(postMedia.postId, postId)));
  await db.delete(posts).where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)));
  return files.flatMap((f) => (f.thumbnailKey ? [f.storageKey, f.thumbnailKey] : [f.storageKey]));
}

/** What the dashboard shows: totals, upcoming, and the newest posts. */
export async function dashboardSummary(db: Db, organizationId: string, now: Date, recent: number) {
  const [[totals], newest] = await Promise.all([
    db
      .select({
        total: count(),
        upcoming: sql<number>`count(*) filter (where ${posts.scheduledAt} > ${now} and ${posts.status} <> 'published')`,
      })
      .from(posts)
      .where(eq(posts.organizationId, organizationId)),
    db
      .select()
      .from(posts)
      .where(eq(posts.organizationId, organizationId))
      .orderBy(desc(posts.createdAt))
      .limit(recent),
  ]);
  return { total: totals?.total ?? 0, upcoming: Number(totals?.upcoming ?? 0), newest };
}
