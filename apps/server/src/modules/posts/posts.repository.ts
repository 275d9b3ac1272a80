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
  /** One status, or any of several (the library's Published tab includes partially published). */
  status?: PostRow['status'] | PostRow['status'][];
  q?: string;
  from?: Date;
  to?: Date;
  /** Posts with a target on this network. */
  platformId?: string;
  /** Posts with a target on this connected account. */
  integrationId?: string;
}

/** The calendar's date of a post: its scheduled time, else when it was created. */
const postDateSql = sql`coalesce(${posts.scheduledAt}, ${posts.createdAt})`;

function filterSql(organizationId: string, filter: PostFilter): SQL | undefined {
  const conditions: SQL[] = [eq(posts.organizationId, organizationId)];
  if (Array.isArray(filter.status)) conditions.push(inArray(posts.status, filter.status));
  else if (filter.status) conditions.push(eq(posts.status, filter.status));
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
  if (filter.platformId || filter.integrationId) {
    // Through the targets, which belong to the same organization as their post.
    const target: SQL[] = [
      eq(postTargets.postId, posts.id),
      eq(postTargets.organizationId, organizationId),
    ];
    if (filter.platformId) target.push(eq(postTargets.platformId, filter.platformId));
    if (filter.integrationId) target.push(eq(postTargets.integrationId, filter.integrationId));
    conditions.push(sql`exists (select 1 from ${postTargets} where ${and(...target)})`);
  }
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

/**
 * Locks the organization's posts among `postIds` for the rest of the transaction, in id order
 * (two bulk actions over the same posts wait for each other rather than deadlock). Ids of other
 * organizations' posts find nothing.
 */
export async function lockPosts(db: Db, organizationId: string, postIds: string[]) {
  if (postIds.length === 0) return [];
  return db
    .select()
    .from(posts)
    .where(and(eq(posts.organizationId, organizationId), inArray(posts.id, postIds)))
    .orderBy(asc(posts.id))
    .for('update');
}

/** Everything a list of posts shows beside its own columns, loaded in three queries. */
export async function loadPostRelations(db: Db, organizationId: string, postIds: string[]) {
  if (postIds.length === 0) return { targets: [], media: [], creators: new Map() };
  const [targets, media] = await Promise.all([
    db
      .select({
        target: postTargets,
        platformName: platforms.name,
        account: {
          name: integrations.name,
          username: integrations.username,
          pictureUrl: integrations.pictureUrl,
          status: integrations.status,
        },
      })
      .from(postTargets)
      .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
      .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
      .where(
        and(eq(postTargets.organizationId, organizationId), inArray(postTargets.postId, postIds)),
      )
      .orderBy(asc(platforms.name), asc(postTargets.accountName), asc(postTargets.createdAt)),
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

/** Every connected account of the organization, oldest first, with its network's rules. */
export function connectedAccounts(db: Db, organizationId: string) {
  return db
    .select({
      integrationId: integrations.id,
      platformId: platforms.id,
      platformName: platforms.name,
      isActive: platforms.isActive,
      mediaConstraints: platforms.mediaConstraints,
      textLimit: integrations.textLimit,
      name: integrations.name,
      username: integrations.username,
      platformAccountId: integrations.platformAccountId,
    })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(eq(integrations.organizationId, organizationId), eq(integrations.status, 'CONNECTED')),
    )
    .orderBy(asc(platforms.name), asc(integrations.connectedAt));
}
export type ConnectedAccount = Awaited<ReturnType<typeof connectedAccounts>>[number];

/** The accounts a post already goes to, with their networks' rules (for edits). */
export function targetPlatforms(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      integrationId: postTargets.integrationId,
      accountName: postTargets.accountName,
      platformId: platforms.id,
      platformName: platforms.name,
      mediaConstraints: platforms.mediaConstraints,
      /** The account's own text limit (X Premium); null once the account is gone. */
      textLimit: integrations.textLimit,
    })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
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
  targets: Array<{
    platformId: string;
    integrationId: string;
    accountName: string | null;
    accountUsername: string | null;
    accountExternalId: string;
  }>,
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
      accountName: target.accountName,
      accountUsername: target.accountUsername,
      accountExternalId: target.accountExternalId,
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
