import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { LIBRARY_PAGE_SIZE } from '@herald/contract';
import { perDatabase, queryRowArrays, transactionOf, type Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { containsPattern } from '../../lib/like-pattern.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import { creatorsOf, type Creator } from './creator-names.js';
import { nameTargets, type LiveAccount } from './target-names.js';
import {
  integrations,
  mediaLibraryItems,
  platforms,
  postMedia,
  posts,
  postTargetFollowUps,
  postTargets,
} from '../../db/schema.js';

export type PostRow = typeof posts.$inferSelect;

/**
 * How many of the organization's posts' targets hold a video uploaded ahead (UPLOADED) from an
 * account still connected.
 */
export async function countUploadedTargets(db: Db, organizationId: string, postIds: string[]) {
  if (postIds.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.organizationId, organizationId),
        inArray(postTargets.postId, postIds),
        eq(postTargets.status, 'UPLOADED'),
        sql`${postTargets.integrationId} is not null`,
      ),
    );
  return Number(row?.n ?? 0);
}
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
  /** Only posts without a scheduled time. */
  unscheduled?: boolean;
  /** Only posts with a target on one of these accounts (a member limited to some accounts). */
  reachable?: string[];
}

/**
 * Posts (of the outer `posts`) with a target on one of `accountIds`: what a member limited to
 * those accounts sees.
 */
export function reachablePost(organizationId: string, accountIds: readonly string[]): SQL {
  if (accountIds.length === 0) return sql`false`;
  return sql`exists (select 1 from ${postTargets} where ${and(
    eq(postTargets.postId, posts.id),
    eq(postTargets.organizationId, organizationId),
    inArray(postTargets.integrationId, [...accountIds]),
  )})`;
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
  if (filter.unscheduled) conditions.push(isNull(posts.scheduledAt));
  if (filter.reachable) conditions.push(reachablePost(organizationId, filter.reachable));
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

/** True when the filter narrows nothing: the library's first look, the most asked page. */
const isUnfiltered = (f: PostFilter) =>
  f.status === undefined &&
  !f.q &&
  !f.from &&
  !f.to &&
  !f.platformId &&
  !f.integrationId &&
  !f.unscheduled &&
  !f.reachable;

/** A target of a listed post as the statements read it: the row's own fields. */
interface StoredTarget {
  id: string;
  platformId: string;
  integrationId: string | null;
  accountName: string | null;
  accountUsername: string | null;
  status: (typeof postTargets.$inferSelect)['status'];
  externalId: string | null;
  permalink: string | null;
  error: string | null;
  /** ISO 8601 as PostgreSQL writes it in JSON (microseconds, an offset). */
  publishedAt: string | null;
  dueAt: string | null;
  /** The network settings the user chose for this account (TikTok), or null. */
  settings: Record<string, unknown> | null;
  /** When the target was made, as PostgreSQL writes it in JSON (it orders the targets; not shown). */
  createdAt: string;
}

/**
 * A target of a listed post as the page shows it: the row's fields, its network's name and its
 * connected account's current name, username, picture and status (null without one).
 */
export type ListedTarget = StoredTarget & LiveAccount & { platformName: string };

/** A file of a listed post, in its order. */
export interface ListedMedia {
  id: string;
  storageKey: string;
  thumbnailKey: string | null;
  fileName: string;
  mimeType: string;
  kind: (typeof postMedia.$inferSelect)['kind'];
  size: number;
  width: number | null;
  height: number | null;
  durationSec: number | null;
  platformIds: string[] | null;
  altText: string | null;
  /** Its place among the post's files (their order; not shown). */
  position: number;
}

/** What a post shows beside its own columns. */
export interface PostRelations {
  creator: Creator | null;
  targets: ListedTarget[];
  media: ListedMedia[];
}

export type ListedPost = PostRelations & { post: PostRow };
type StoredRelations = Omit<PostRelations, 'targets' | 'creator'> & { targets: StoredTarget[] };

/**
 * Posts' relations as read, with their creators (creator-names.ts), their targets named and
 * sorted as the library shows them (target-names.ts) and their files in order. `creatorOf` gives
 * a row's creator's id.
 */
async function withNames<T extends StoredRelations>(
  db: Db,
  organizationId: string,
  rows: T[],
  creatorOf: (row: T) => string | null,
): Promise<Array<Omit<T, 'targets'> & PostRelations>> {
  // One after the other: a transaction's connection runs one statement at a time.
  const named = await nameTargets(
    db,
    organizationId,
    rows.map((row) => row.targets),
  );
  const creators = await creatorsOf(db, rows.map(creatorOf));
  return rows.map((row, i) => {
    const creatorId = creatorOf(row);
    return {
      ...row,
      targets: named[i]!,
      media: row.media.length > 1 ? row.media.toSorted(byPosition) : row.media,
      creator: (creatorId !== null && creators.get(creatorId)) || null,
    };
  });
}
const creatorOfPost = (row: { post: PostRow }) => row.post.createdByUserId;
const byPosition = (a: ListedMedia, b: ListedMedia) => a.position - b.position;

/** json/jsonb arrive parsed from both drivers; a string is parsed here in case one does not. */
const fromJson = <T>(value: unknown): T =>
  (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * A post's targets and files as JSON, computed per row of the outer `posts` query: the page is
 * one statement instead of three. Each is an aggregate of rows whose columns carry the
 * JSON's names: PostgreSQL writes a row as JSON at about half the cost of `json_build_object`
 * with the same fields. The targets are sorted here by account name (in the database's collation),
 * creation and id, and by network in target-names.ts, which names them; the files, aggregated in
 * no order (an ordered aggregate sorts once per post), by their position in `withNames`. The
 * creator comes from creator-names.ts. The outer row is named in full ("posts"."id"): drizzle
 * writes a select list's own columns unqualified, which inside these subqueries would name the
 * inner tables' columns.
 */
const relationFields = {
  targets: sql`coalesce((select json_agg(t order by t."accountName", t."createdAt", t.id)
      from (select pt.id, pt.platform_id as "platformId", pt.integration_id as "integrationId",
          pt.account_name as "accountName", pt.account_username as "accountUsername",
          pt.status, pt.external_id as "externalId", pt.permalink, pt.error,
          pt.published_at as "publishedAt", pt.due_at as "dueAt", pt.settings,
          pt.created_at as "createdAt"
        from ${postTargets} pt
        where pt.post_id = "posts"."id" and pt.organization_id = "posts"."organization_id") t),
      '[]'::json)`.mapWith(fromJson<StoredTarget[]>),
  media: sql`coalesce((select json_agg(m)
      from (select pm.id, pm.storage_key as "storageKey", pm.thumbnail_key as "thumbnailKey",
          pm.file_name as "fileName", pm.mime_type as "mimeType", pm.kind, pm.size, pm.width,
          pm.height, pm.duration_sec as "durationSec", pm.platform_ids as "platformIds",
          pm.alt_text as "altText", pm.position
        from ${postMedia} pm
        where pm.post_id = "posts"."id" and pm.organization_id = "posts"."organization_id") m),
      '[]'::json)`.mapWith(fromJson<ListedMedia[]>),
};

/**
 * How many posts match `where`, as a scalar subquery of the page's own statement: PostgreSQL
 * computes it once (an InitPlan) and the page is one round trip instead of two. The
 * subquery's `posts` hides the outer one, so `where` (written against "posts") counts the same rows.
 */
const totalOf = (where: SQL | undefined) =>
  sql<number>`(select count(*) from ${posts} where ${where})`.mapWith(Number);

/**
 * How long an organization's total of posts (the unfiltered library's "of N") is reused. Counting
 * a large organization's posts was most of the page's database work, on every page.
 * A post created or deleted by this process forgets every total at once, and so does every
 * state-changing request once answered (app.ts); one made by another process counts within this time.
 */
export const POST_TOTAL_TTL_MS = 1000;
const postTotals = new TtlCache<string, number>(POST_TOTAL_TTL_MS, 10_000);

/** Forgets every organization's cached total of posts (after a change). */
export function forgetPostTotals() {
  postTotals.clear();
}

/**
 * A page of the organization's posts, newest first, each with its creator, targets and files,
 * and the total that matches, in one statement (each row carries the total). Only a page past
 * the end, which has no row to carry it, counts apart. The unfiltered page (the library's first
 * look, the most asked) is prepared once per database, and its total is reused for a moment.
 */
export async function listPosts(
  db: Db,
  organizationId: string,
  filter: PostFilter,
  window: { limit: number; offset: number },
): Promise<{ rows: ListedPost[]; totalCount: number }> {
  if (isUnfiltered(filter)) {
    const q = hotQueries(db);
    // A known total: the page alone. Else the page with its total, which is kept.
    const read: { rows?: Array<StoredRelations & { post: PostRow }> } = {};
    const total = await postTotals.get(
      organizationId,
      async (inBackground) => {
        // Read again while the total is still answered: the count alone (this caller reads its
        // page itself).
        if (inBackground) return (await q.count.execute({ organizationId }))[0]?.n ?? 0;
        const rows = await q.pageWithTotal(db, { organizationId, ...window });
        read.rows = rows;
        if (rows[0]) return Number(rows[0].total);
        return window.offset === 0 ? 0 : ((await q.count.execute({ organizationId }))[0]?.n ?? 0);
      },
      { scope: transactionOf(db) },
    );
    const rows = read.rows ?? (await q.page(db, { organizationId, ...window }));
    return {
      rows: await withNames(db, organizationId, rows, creatorOfPost),
      totalCount: total ?? 0,
    };
  }
  const where = filterSql(organizationId, filter);
  const rows = await db
    .select({ post: posts, ...relationFields, total: totalOf(where) })
    .from(posts)
    .where(where)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(window.limit)
    .offset(window.offset);
  let totalCount = rows[0]?.total ?? 0;
  if (rows.length === 0 && window.offset > 0) {
    const [total] = await db.select({ n: count() }).from(posts).where(where);
    totalCount = total?.n ?? 0;
  }
  return {
    rows: await withNames(db, organizationId, rows.map(withoutTotal), creatorOfPost),
    totalCount,
  };
}

const withoutTotal = <T extends { total: number }>({ total: _total, ...row }: T) => row;

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

/** The creator, targets and files of the organization's posts among `postIds`, in one statement. */
export async function loadPostRelations(
  db: Db,
  organizationId: string,
  postIds: string[],
): Promise<Map<string, PostRelations>> {
  if (postIds.length === 0) return new Map();
  const rows = await hotQueries(db).relations.execute({ organizationId, postIds });
  const named = await withNames(db, organizationId, rows, (row) => row.createdByUserId);
  return new Map(named.map(({ id, createdByUserId: _creator, ...relations }) => [id, relations]));
}

/**
 * The statements of the posts page, built once per database and prepared (named) on PostgreSQL:
 * building drizzle queries took a third of the page's CPU, and PostgreSQL parsed and planned
 * each statement again on every request (docs/performance.md#where-api-time-goes).
 */
function prepareHotQueries(db: Db) {
  const organizationId = sql.placeholder('organizationId');
  const byOrganization = eq(posts.organizationId, organizationId);
  const newestFirst = [desc(posts.createdAt), desc(posts.id)];
  const limit = sql.placeholder('limit');
  const offset = sql.placeholder('offset');
  const pageOf = (extra: { total?: SQL.Aliased<number> | SQL<number> }) =>
    db
      .select({ post: posts, ...relationFields, ...extra })
      .from(posts)
      .where(byOrganization)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset);
  return {
    page: rawPage('posts_page', pageOf({})),
    pageWithTotal: rawPage('posts_page_total', pageOf({ total: totalOf(byOrganization) })),
    count: db
      .select({ n: count() })
      .from(posts)
      .where(eq(posts.organizationId, organizationId))
      .prepare('posts_count'),
    relations: db
      .select({ id: posts.id, createdByUserId: posts.createdByUserId, ...relationFields })
      .from(posts)
      .where(
        and(
          eq(posts.organizationId, organizationId),
          sql`${posts.id} = any(${sql.placeholder('postIds')}::uuid[])`,
        ),
      )
      .prepare('posts_relations'),
  };
}
type PageWindow = { organizationId: string; limit: number; offset: number };
const postColumns = Object.entries(getTableColumns(posts));

/**
 * The pages that get statements of their own, with their limit and offset written in: the first
 * five of each page size the web app or the API's default asks for. PostgreSQL cannot estimate a
 * LIMIT or OFFSET given as a parameter: it plans such a statement for a tenth of the rows the
 * organization is expected to have, finds that plan dearer than one made for the values given,
 * and so planned the page again at every execution, which was half of the page's work in
 * PostgreSQL when one organization holds most posts (as a self-hosted Herald does). A statement
 * with its numbers written in is planned once. Other pages share the parameterized statement.
 * The sizes and pages are fixed so that each connection prepares at most 25 such statements per
 * page statement, whatever is asked.
 */
const WRITTEN_OUT_SIZES = new Set([LIBRARY_PAGE_SIZE, 10, 20, 50, 100]);
const writtenOut = ({ limit, offset }: PageWindow) =>
  WRITTEN_OUT_SIZES.has(limit) &&
  Number.isSafeInteger(offset) &&
  offset < 5 * limit &&
  offset % limit === 0;

/**
 * A page statement written by drizzle, run as rows of arrays and mapped here: drizzle's mapping
 * of each row (its checks for every field of the nested select) was a tenth of the page's CPU.
 * The select list is the post's columns in the table's order, then the relations and
 * any total; each column is decoded by its own drizzle column, as drizzle would. The statement
 * ends with its limit and offset, written out for the first pages (WRITTEN_OUT_SIZES).
 */
function rawPage(name: string, query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql: text, params } = query.toSQL();
  const names = params.map((param) => (param as { name?: string }).name);
  if (names.some((n) => n === undefined))
    throw new Error(`${name}: every parameter is a placeholder`);
  const columnList = postColumns.map(([, column]) => `"${column.name}"`).join(', ');
  if (!text.startsWith(`select ${columnList}, `))
    throw new Error(`${name}: the select list does not start with the post's columns`);
  const n = names.length;
  const tail = `limit $${n - 1} offset $${n}`;
  if (names[n - 2] !== 'limit' || names[n - 1] !== 'offset' || !text.endsWith(tail))
    throw new Error(`${name}: the statement does not end with its limit and offset`);
  const head = text.slice(0, -tail.length);
  const at = postColumns.length;
  return async (
    db: Db,
    window: PageWindow,
  ): Promise<Array<StoredRelations & { post: PostRow; total?: number }>> => {
    const values = names.map((key) => window[key as keyof PageWindow]);
    const rows = writtenOut(window)
      ? await queryRowArrays(
          db,
          `${name}_${window.limit}_${window.offset}`,
          `${head}limit ${window.limit} offset ${window.offset}`,
          values.slice(0, -2),
        )
      : await queryRowArrays(db, name, text, values);
    return rows.map((row) => {
      const post: Record<string, unknown> = {};
      for (let i = 0; i < at; i++) {
        const [key, column] = postColumns[i]!;
        const value = row[i];
        post[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return {
        post: post as PostRow,
        targets: fromJson<StoredTarget[]>(row[at]) ?? [],
        media: fromJson<ListedMedia[]>(row[at + 1]) ?? [],
        total: row[at + 2] as number | undefined,
      };
    });
  };
}
const hotQueries = perDatabase(prepareHotQueries);

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
  targets: NewTarget[],
  media: NewPostMedia[],
  library: LibraryClaim = {},
) {
  const [post] = await db.insert(posts).values(values).returning();
  if (!post) throw new Error('insert into posts returned nothing');
  forgetPostTotals();
  await insertTargets(db, post, targets);
  await insertMedia(db, post, media, library);
  return post;
}

/** One account a post goes out from, as chosen (its name kept for after a disconnect). */
export interface NewTarget {
  platformId: string;
  integrationId: string;
  accountName: string | null;
  accountUsername: string | null;
  accountExternalId: string;
  /** The network settings the user chose for this account (TikTok), or null. */
  settings?: Record<string, unknown> | null;
}

export async function insertTargets(db: Db, post: PostRow, targets: NewTarget[]) {
  if (targets.length === 0) return;
  await db.insert(postTargets).values(
    targets.map((target) => ({
      ...target,
      postId: post.id,
      organizationId: post.organizationId,
    })),
  );
}

export const LIBRARY_ITEM_GONE_MESSAGE =
  'A file chosen from the media library is no longer there. Remove it from the post and choose it again.';

/** Who added a post's files, and where the stored copies a library item made redundant go. */
export interface LibraryClaim {
  uploadedBy?: string | null;
  /** Receives the storage keys of files the library already held (to remove after commit). */
  leftovers?: string[];
  /** Counts the bytes of the files that became new items (what the storage limit weighs). */
  addedBytes?: number;
}

/**
 * Keeps each file in the organization's media library (docs/media-library.md): a file whose bytes
 * the library already holds (same SHA-256) uses the item's stored copy, and its own copy goes to
 * `leftovers`; any other becomes a new item. A file without alt text takes the item's; an item
 * without alt text takes the file's.
 */
async function claimLibraryItems(
  db: Db,
  organizationId: string,
  media: NewPostMedia[],
  claim: LibraryClaim,
): Promise<NewPostMedia[]> {
  const claimed: NewPostMedia[] = [];
  // Items are read FOR SHARE: a deletion of one (which locks it FOR UPDATE and counts the posts
  // using it) waits for this post and then refuses, or has already happened and is seen here. A
  // file that brings alt text may write it to the item: that read takes the lock the write needs
  // (FOR NO KEY UPDATE), so two posts saving it at once wait in turn instead of deadlocking.
  const itemBy = async (where: SQL | undefined, m: NewPostMedia) =>
    (
      await db
        .select()
        .from(mediaLibraryItems)
        .where(where)
        .for(m.altText ? 'no key update' : 'share')
    )[0];
  for (const m of media) {
    if (m.libraryItemId) {
      // A file chosen from the library is the item's stored copy: once the item is deleted, its
      // file is gone too, so the post cannot keep it.
      const item = await itemBy(
        and(
          eq(mediaLibraryItems.organizationId, organizationId),
          eq(mediaLibraryItems.id, m.libraryItemId),
        ),
        m,
      );
      if (!item) throw new AppError('VALIDATION_FAILED', LIBRARY_ITEM_GONE_MESSAGE);
      claimed.push(await sharedItem(db, m, item, claim));
      continue;
    }
    // An upload becomes a new item, or uses the item holding its bytes. When that item is deleted
    // between the two reads, the upload's own copy is offered as the item again.
    for (let tries = 0; ; tries++) {
      const [inserted] = await db
        .insert(mediaLibraryItems)
        .values({
          organizationId,
          storageKey: m.storageKey,
          thumbnailKey: m.thumbnailKey ?? null,
          fileName: m.fileName,
          mimeType: m.mimeType,
          kind: m.kind,
          size: m.size,
          width: m.width ?? null,
          height: m.height ?? null,
          durationSec: m.durationSec ?? null,
          sha256: m.sha256,
          altText: m.altText ?? null,
          uploadedByUserId: claim.uploadedBy ?? null,
        })
        .onConflictDoNothing({
          target: [mediaLibraryItems.organizationId, mediaLibraryItems.sha256],
        })
        .returning({ id: mediaLibraryItems.id });
      if (inserted) {
        if (claim.addedBytes !== undefined) claim.addedBytes += m.size;
        claimed.push({ ...m, libraryItemId: inserted.id });
        break;
      }
      const item = await itemBy(
        and(
          eq(mediaLibraryItems.organizationId, organizationId),
          eq(mediaLibraryItems.sha256, m.sha256),
        ),
        m,
      );
      if (item) {
        claimed.push(await sharedItem(db, m, item, claim));
        break;
      }
      if (tries >= 2) throw new Error('the media library kept losing the item for these bytes');
    }
  }
  return claimed;
}

/** A post's file as the library item holding its bytes: the item's stored copy is used. */
async function sharedItem(
  db: Db,
  m: NewPostMedia,
  item: typeof mediaLibraryItems.$inferSelect,
  claim: LibraryClaim,
): Promise<NewPostMedia> {
  for (const key of [m.storageKey, m.thumbnailKey]) {
    if (key && key !== item.storageKey && key !== item.thumbnailKey) claim.leftovers?.push(key);
  }
  if (!item.altText && m.altText) {
    await db
      .update(mediaLibraryItems)
      .set({ altText: m.altText })
      .where(eq(mediaLibraryItems.id, item.id));
  }
  return {
    ...m,
    storageKey: item.storageKey,
    thumbnailKey: item.thumbnailKey,
    altText: m.altText ?? item.altText,
    libraryItemId: item.id,
  };
}

export async function insertMedia(
  db: Db,
  post: PostRow,
  media: NewPostMedia[],
  library: LibraryClaim = {},
) {
  if (media.length === 0) return;
  const claimed = await claimLibraryItems(db, post.organizationId, media, library);
  await db
    .insert(postMedia)
    .values(claimed.map((m) => ({ ...m, postId: post.id, organizationId: post.organizationId })));
}

/** Bytes the organization's media library holds (what its plan's storage limit counts). */
export async function libraryBytes(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(${mediaLibraryItems.size})` })
    .from(mediaLibraryItems)
    .where(eq(mediaLibraryItems.organizationId, organizationId));
  return Number(row?.bytes ?? 0);
}

/** The library items named, of this organization only. */
export function libraryItemsByIds(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(mediaLibraryItems)
    .where(
      and(eq(mediaLibraryItems.organizationId, organizationId), inArray(mediaLibraryItems.id, ids)),
    );
}

/**
 * The post's targets with their networks' names and rules. With `lock`, locked for the rest of
 * the transaction: the publisher's guarded transitions wait until an edit has committed.
 */
export function targetsForEdit(db: Db, organizationId: string, postId: string, lock: boolean) {
  const query = db
    .select({
      target: postTargets,
      platformName: platforms.name,
      mediaConstraints: platforms.mediaConstraints,
    })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(and(eq(postTargets.organizationId, organizationId), eq(postTargets.postId, postId)))
    .orderBy(asc(postTargets.createdAt), asc(postTargets.id));
  return lock ? query.for('update', { of: postTargets }) : query;
}
export type TargetForEdit = Awaited<ReturnType<typeof targetsForEdit>>[number];

/** The network settings chosen for one target (an edit of a post not yet out there). */
export function updateTargetSettings(
  db: Db,
  organizationId: string,
  targetId: string,
  settings: Record<string, unknown> | null,
) {
  return db
    .update(postTargets)
    .set({ settings, updatedAt: new Date() })
    .where(and(eq(postTargets.organizationId, organizationId), eq(postTargets.id, targetId)));
}

export function deleteTargets(db: Db, organizationId: string, targetIds: string[]) {
  if (targetIds.length === 0) return Promise.resolve();
  return db
    .delete(postTargets)
    .where(and(eq(postTargets.organizationId, organizationId), inArray(postTargets.id, targetIds)));
}

/** The post's targets: each one's id, account and status (which keep their follow-ups). */
export function targetStatuses(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      id: postTargets.id,
      integrationId: postTargets.integrationId,
      status: postTargets.status,
    })
    .from(postTargets)
    .where(and(eq(postTargets.postId, postId), eq(postTargets.organizationId, organizationId)));
}

/**
 * The post's targets in `statuses`, with what the publish-time rules need: the network, its
 * media rules and the account's text limit.
 */
export function targetsToCheck(
  db: Db,
  organizationId: string,
  postId: string,
  statuses: Array<(typeof postTargets.$inferSelect)['status']>,
) {
  return db
    .select({
      id: postTargets.id,
      status: postTargets.status,
      integrationId: postTargets.integrationId,
      accountName: postTargets.accountName,
      accountUsername: postTargets.accountUsername,
      platformId: platforms.id,
      platformName: platforms.name,
      mediaConstraints: platforms.mediaConstraints,
      textLimit: integrations.textLimit,
    })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
    .where(
      and(
        eq(postTargets.organizationId, organizationId),
        eq(postTargets.postId, postId),
        inArray(postTargets.status, statuses),
      ),
    );
}

/** The thread parts and first comments of every target of the post, in their order. */
export function followUpTextsOfPost(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      targetId: postTargetFollowUps.targetId,
      kind: postTargetFollowUps.kind,
      position: postTargetFollowUps.position,
      text: postTargetFollowUps.text,
    })
    .from(postTargetFollowUps)
    .innerJoin(postTargets, eq(postTargets.id, postTargetFollowUps.targetId))
    .where(
      and(eq(postTargetFollowUps.organizationId, organizationId), eq(postTargets.postId, postId)),
    )
    .orderBy(asc(postTargetFollowUps.position));
}

/** The post's files in their order. */
export function mediaOfPost(db: Db, organizationId: string, postId: string) {
  return db
    .select()
    .from(postMedia)
    .where(and(eq(postMedia.organizationId, organizationId), eq(postMedia.postId, postId)))
    .orderBy(asc(postMedia.position));
}
export type MediaRow = Awaited<ReturnType<typeof mediaOfPost>>[number];

export async function updateMediaPlace(
  db: Db,
  organizationId: string,
  mediaId: string,
  place: { position: number; platformIds: string[] | null; altText?: string | null },
) {
  await db
    .update(postMedia)
    .set(place)
    .where(and(eq(postMedia.organizationId, organizationId), eq(postMedia.id, mediaId)));
}

/** Deletes files' rows; returns their storage keys (thumbnails included). */
export async function deleteMedia(db: Db, organizationId: string, mediaIds: string[]) {
  if (mediaIds.length === 0) return [];
  const rows = await db
    .delete(postMedia)
    .where(and(eq(postMedia.organizationId, organizationId), inArray(postMedia.id, mediaIds)))
    .returning({ storageKey: postMedia.storageKey, thumbnailKey: postMedia.thumbnailKey });
  return rows.flatMap((f) => (f.thumbnailKey ? [f.storageKey, f.thumbnailKey] : [f.storageKey]));
}

/** Of these storage keys, those no file row refers to any more (safe to delete from storage). */
export async function unusedStorageKeys(db: Db, keys: string[]) {
  if (keys.length === 0) return [];
  const used = await db
    .select({ storageKey: postMedia.storageKey, thumbnailKey: postMedia.thumbnailKey })
    .from(postMedia)
    .where(or(inArray(postMedia.storageKey, keys), inArray(postMedia.thumbnailKey, keys)));
  // The media library keeps its files after the posts that used them are gone.
  const kept = await db
    .select({
      storageKey: mediaLibraryItems.storageKey,
      thumbnailKey: mediaLibraryItems.thumbnailKey,
    })
    .from(mediaLibraryItems)
    .where(
      or(
        inArray(mediaLibraryItems.storageKey, keys),
        inArray(mediaLibraryItems.thumbnailKey, keys),
      ),
    );
  const inUse = new Set([...used, ...kept].flatMap((u) => [u.storageKey, u.thumbnailKey]));
  return keys.filter((key) => !inUse.has(key));
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
  forgetPostTotals();
  return files.flatMap((f) => (f.thumbnailKey ? [f.storageKey, f.thumbnailKey] : [f.storageKey]));
}

/** What the dashboard shows: totals, upcoming, and the newest posts. */
export async function dashboardSummary(
  db: Db,
  organizationId: string,
  now: Date,
  recent: number,
  reachable: readonly string[] | null = null,
) {
  const where = and(
    eq(posts.organizationId, organizationId),
    reachable ? reachablePost(organizationId, reachable) : undefined,
  );
  const [[totals], newest] = await Promise.all([
    db
      .select({
        total: count(),
        upcoming: sql<number>`count(*) filter (where ${posts.scheduledAt} > ${now} and ${posts.status} <> 'published')`,
      })
      .from(posts)
      .where(where),
    db.select().from(posts).where(where).orderBy(desc(posts.createdAt)).limit(recent),
  ]);
  return { total: totals?.total ?? 0, upcoming: Number(totals?.upcoming ?? 0), newest };
}

/**
 * The accounts the posts go out to, per post of the organization (a post of another
 * organization is absent): what a member limited to some accounts may reach of each.
 */
export async function targetAccountsOfPosts(db: Db, organizationId: string, postIds: string[]) {
  const found = new Map<
    string,
    Array<{
      integrationId: string | null;
      username: string | null;
      name: string | null;
      network: string;
    }>
  >();
  if (postIds.length === 0) return found;
  const rows = await db
    .select({
      postId: posts.id,
      integrationId: postTargets.integrationId,
      username: postTargets.accountUsername,
      name: postTargets.accountName,
      network: platforms.name,
    })
    .from(posts)
    .leftJoin(
      postTargets,
      and(eq(postTargets.postId, posts.id), eq(postTargets.organizationId, organizationId)),
    )
    .leftJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(and(eq(posts.organizationId, organizationId), inArray(posts.id, postIds)));
  for (const row of rows) {
    const targets = found.get(row.postId) ?? [];
    found.set(row.postId, targets);
    if (row.network !== null)
      targets.push({
        integrationId: row.integrationId,
        username: row.username,
        name: row.name,
        network: row.network,
      });
  }
  return found;
}
