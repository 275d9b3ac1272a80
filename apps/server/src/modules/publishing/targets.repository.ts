import {
  and,
  eq,
  exists,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  notExists,
  or,
  sql,
  type SQLWrapper,
} from 'drizzle-orm';
import { perDatabase, type Db } from '../../db/client.js';
import {
  heraldProcesses,
  integrations,
  platforms,
  postMedia,
  posts,
  postTargetFollowUps,
  postTargets,
} from '../../db/schema.js';
import { derivePostStatus } from './post-status.js';

export type TargetRow = typeof postTargets.$inferSelect;
type PostRow = typeof posts.$inferSelect;
export type TargetStatus = TargetRow['status'];
export const FINAL: TargetStatus[] = ['PUBLISHED', 'FAILED', 'UNCERTAIN'];

/** Post statuses whose QUEUED targets still go out when due. */
export const POST_STATUSES_THAT_PUBLISH: PostRow['status'][] = [
  'scheduled',
  'publishing',
  'partially_published',
];

/**
 * The read of targets with everything publishing them needs, built once per database and
 * prepared (named) on PostgreSQL: every run of the publisher starts with it. One
 * target's, and a batch's (a job fetch brings up to 64: one statement instead of 64).
 */
function selectForPublishing(db: Db) {
  return db
    .select({
      target: postTargets,
      post: posts,
      platformName: platforms.name,
      integration: integrations,
      hasMedia: sql<boolean>`exists (select 1 from ${postMedia} m where m.post_id = ${posts.id})`,
      hasFollowUps: sql<boolean>`exists (select 1 from ${postTargetFollowUps} f
        where f.target_id = ${postTargets.id})`,
      /** The post's targets at the time of the read (1 for most: settleOnlyTarget). */
      targetCount: sql<number>`(select count(*)::int from ${postTargets} s
        where s.post_id = ${posts.id})`,
    })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId));
}
function prepareLoads(db: Db) {
  return {
    one: selectForPublishing(db)
      .where(eq(postTargets.id, sql.placeholder('targetId')))
      .prepare('publisher_load_target'),
    many: selectForPublishing(db)
      .where(sql`${postTargets.id} = any(${sql.placeholder('targetIds')}::uuid[])`)
      .prepare('publisher_load_targets'),
  };
}
const loads = perDatabase(prepareLoads);

type LoadedRow = Awaited<ReturnType<ReturnType<typeof prepareLoads>['one']['execute']>>[number];
export type LoadedTarget = Omit<LoadedRow, 'hasMedia'> & {
  media: (typeof postMedia.$inferSelect)[];
};

/**
 * A target with everything publishing it needs: one statement, and a second for the post's files
 * only when it has any (most posts are text, and the scheduler bench counts the publisher's
 * statements per target).
 */
export async function loadTarget(db: Db, targetId: string): Promise<LoadedTarget | null> {
  const [found] = await loads(db).one.execute({ targetId });
  if (!found) return null;
  return (await withMedia(db, [found]))[0] ?? null;
}

/** Targets by id (those that exist), as `loadTarget` reads each, in two statements at most. */
export async function loadTargets(db: Db, targetIds: string[]): Promise<Map<string, LoadedTarget>> {
  const found = targetIds.length ? await loads(db).many.execute({ targetIds }) : [];
  const loaded = await withMedia(db, found);
  return new Map(loaded.map((row) => [row.target.id, row]));
}

/** The rows with their posts' files, read in one statement for those that have any. */
async function withMedia(db: Db, rows: LoadedRow[]): Promise<LoadedTarget[]> {
  const postIds = [...new Set(rows.filter((row) => row.hasMedia).map((row) => row.post.id))];
  const files = postIds.length
    ? await db
        .select()
        .from(postMedia)
        .where(inArray(postMedia.postId, postIds))
        .orderBy(postMedia.postId, postMedia.position)
    : [];
  return rows.map(({ hasMedia, ...row }) => ({
    ...row,
    media: hasMedia ? files.filter((file) => file.postId === row.post.id) : [],
  }));
}

/**
 * The states a run holds a target in. A run records its process in `heldBy` when it claims the
 * target and the guarded step that ends its hold clears it: a READY target with no holder waits
 * for its job (a retry, a daily cap), one with a holder is between two steps of a run.
 */
export const HELD: TargetStatus[] = ['PREPARING', 'READY', 'PUBLISHING'];

/**
 * Moves a target from one of `from` to `to`, only if it is still there (and, for PUBLISHING, only
 * for the attempt that holds it). Returns the row when this caller made the move. The target is
 * no longer held by any process unless `values` names one (a run that goes on to its next step).
 */
export async function transition(
  db: Db,
  targetId: string,
  from: TargetStatus[],
  to: TargetStatus,
  values: Partial<TargetRow> = {},
  attemptId?: string,
) {
  const [row] = await db
    .update(postTargets)
    .set({ heldBy: null, ...values, status: to, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.id, targetId),
        inArray(postTargets.status, from),
        attemptId ? eq(postTargets.attemptId, attemptId) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Claims a target for its next step — only while its post still wants it out now: the post is
 * scheduled, publishing or partially published, and the target is due. A post sent back to draft or moved later
 * between the job's first look and this claim is left alone.
 */
export async function claimDue(
  db: Db,
  targetId: string,
  from: 'QUEUED' | 'READY',
  values: Partial<TargetRow> & { status: TargetStatus },
  dueBy: Date,
) {
  const [row] = await db
    .update(postTargets)
    .set({ ...values, updatedAt: new Date() })
    .where(claimable(db, targetId, from, dueBy))
    .returning();
  return row ?? null;
}

/** claimDue's condition: the target is still `from` and due, and its post still wants it out. */
function claimable(
  db: Db,
  targetId: string | SQLWrapper,
  from: 'QUEUED' | 'READY',
  dueBy: Date | SQLWrapper,
) {
  return and(
    eq(postTargets.id, targetId),
    eq(postTargets.status, from),
    or(isNull(postTargets.dueAt), lte(postTargets.dueAt, dueBy)),
    exists(
      db
        .select({ id: posts.id })
        .from(posts)
        .where(
          and(eq(posts.id, postTargets.postId), inArray(posts.status, POST_STATUSES_THAT_PUBLISH)),
        ),
    ),
  );
}

/**
 * A placeholder where drizzle's types want the column's value: an update's `set` wraps it with
 * the column's encoder, which the prepared statement applies to the value given at execution.
 */
const slot = <T>(name: string) => sql.placeholder(name) as unknown as T;
/**
 * A placeholder for a value that may be null, cast to `type`: the column's encoder would write a
 * null date as an error and a null JSON value as JSON `null`, so the caller encodes it instead.
 */
const nullableSlot = (name: string, type: 'jsonb' | 'timestamptz') =>
  sql`${sql.placeholder(name)}::${sql.raw(type)}`;

/**
 * The writes every text post makes on its way out, built once per database and prepared
 * (named) on PostgreSQL: building a drizzle statement cost the worker more CPU than sending it.
 * Each is the same guarded step as its general form (claimDue, transition,
 * markPostPublishing, settleOnlyTarget's update).
 */
function prepareWrites(db: Db) {
  const now = slot<Date>('now');
  return {
    claimPublishing: db
      .update(postTargets)
      .set({
        status: 'PUBLISHING',
        attempts: slot<number>('attempts'),
        attemptId: slot<string>('attemptId'),
        publishState: slot<Record<string, unknown>>('publishState'),
        heldBy: sql`${sql.placeholder('heldBy')}::uuid`,
        updatedAt: now,
      })
      .where(claimable(db, sql.placeholder('targetId'), 'QUEUED', sql.placeholder('dueBy')))
      .returning()
      .prepare('publisher_claim_publishing'),
    published: db
      .update(postTargets)
      .set({
        status: 'PUBLISHED',
        externalId: slot<string>('externalId'),
        permalink: slot<string | null>('permalink'),
        embed: nullableSlot('embed', 'jsonb'),
        error: null,
        heldBy: null,
        publishedAt: slot<Date>('publishedAt'),
        latenessMs: slot<number | null>('latenessMs'),
        updatedAt: now,
      })
      .where(
        and(
          eq(postTargets.id, sql.placeholder('targetId')),
          eq(postTargets.status, 'PUBLISHING'),
          eq(postTargets.attemptId, sql.placeholder('attemptId')),
        ),
      )
      .returning()
      .prepare('publisher_published'),
    postPublishing: db
      .update(posts)
      .set({ status: 'publishing', updatedAt: now })
      .where(
        and(
          eq(posts.id, sql.placeholder('postId')),
          inArray(posts.status, ['scheduled', 'partially_published']),
        ),
      )
      .prepare('publisher_post_publishing'),
    settleOnly: db
      .update(posts)
      .set({
        status: slot<PostRow['status']>('status'),
        publishedAt: nullableSlot('publishedAt', 'timestamptz'),
        updatedAt: now,
      })
      .where(
        and(
          eq(posts.id, sql.placeholder('postId')),
          eq(posts.status, 'publishing'),
          notExists(
            db
              .select({ id: postTargets.id })
              .from(postTargets)
              .where(
                and(
                  eq(postTargets.postId, sql.placeholder('postId')),
                  or(
                    ne(postTargets.id, sql.placeholder('targetId')),
                    ne(postTargets.status, 'PUBLISHED'),
                  ),
                ),
              ),
          ),
        ),
      )
      .returning({ id: posts.id })
      .prepare('publisher_settle_only_target'),
  };
}
const writes = perDatabase(prepareWrites);

/** claimDue from QUEUED straight to PUBLISHING with its attempt and prepared state (prepared). */
export async function claimPublishing(
  db: Db,
  targetId: string,
  values: {
    attempts: number;
    attemptId: string;
    publishState: Record<string, unknown>;
    /** The claiming run's process (Publisher's `processId`). */
    heldBy?: string | null;
  },
  dueBy: Date,
) {
  const [row] = await writes(db).claimPublishing.execute({
    ...values,
    heldBy: values.heldBy ?? null,
    targetId,
    dueBy,
    now: new Date(),
  });
  return row ?? null;
}

/** PUBLISHING → PUBLISHED for the attempt that holds the target (prepared `transition`). */
export async function markTargetPublished(
  db: Db,
  targetId: string,
  attemptId: string,
  values: {
    externalId: string;
    permalink: string | null;
    embed: Record<string, unknown> | null;
    publishedAt: Date;
    latenessMs: number | null;
  },
) {
  const [row] = await writes(db).published.execute({
    ...values,
    embed: values.embed ? JSON.stringify(values.embed) : null,
    targetId,
    attemptId,
    now: new Date(),
  });
  return row ?? null;
}

function targetsOfPost(db: Db, postId: string) {
  return db.select().from(postTargets).where(eq(postTargets.postId, postId));
}

/** Targets stuck in a working state since before `before` (a worker died or hung). */
export function stuckTargets(db: Db, statuses: TargetStatus[], before: Date, limit = 500) {
  return db
    .select({ id: postTargets.id, status: postTargets.status, attemptId: postTargets.attemptId })
    .from(postTargets)
    .where(and(inArray(postTargets.status, statuses), lt(postTargets.updatedAt, before)))
    .limit(limit);
}

/**
 * Targets a run holds whose process is not alive: its row is gone or its heartbeat is older than
 * `lapseSeconds` by the database's clock (docs/architecture.md#processes).
 */
export function orphanedTargets(db: Db, lapseSeconds: number, limit = 500) {
  return db
    .select({
      id: postTargets.id,
      status: postTargets.status,
      attemptId: postTargets.attemptId,
      heldBy: postTargets.heldBy,
    })
    .from(postTargets)
    .where(
      and(
        inArray(postTargets.status, HELD),
        isNotNull(postTargets.heldBy),
        notExists(
          db
            .select({ id: heraldProcesses.id })
            .from(heraldProcesses)
            .where(
              and(
                eq(heraldProcesses.id, postTargets.heldBy),
                gte(
                  heraldProcesses.heartbeatAt,
                  sql`now() - make_interval(secs => ${lapseSeconds})`,
                ),
              ),
            ),
        ),
      ),
    )
    .limit(limit);
}

/**
 * Takes a target over from the dead process `from` for `to`, only while it is still in `status`
 * and held by `from`: of two workers settling the same dead one's targets, one settles each. Its
 * `updatedAt` stays: it still says since when the target waits.
 */
export async function adoptTarget(
  db: Db,
  targetId: string,
  status: TargetStatus,
  from: string,
  to: string,
) {
  const [row] = await db
    .update(postTargets)
    .set({ heldBy: to })
    .where(
      and(
        eq(postTargets.id, targetId),
        eq(postTargets.status, status),
        eq(postTargets.heldBy, from),
      ),
    )
    .returning({ id: postTargets.id });
  return Boolean(row);
}

/**
 * QUEUED targets of posts that should be going out already, and UPLOADED ones whose time has
 * come (their job may be lost).
 */
export function overdueQueued(db: Db, before: Date, limit = 1000) {
  return db
    .select({ id: postTargets.id })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(
      and(
        inArray(postTargets.status, ['QUEUED', 'UPLOADED']),
        lt(postTargets.dueAt, before),
        inArray(posts.status, POST_STATUSES_THAT_PUBLISH),
      ),
    )
    .limit(limit);
}

/** Publications of one account in the window, oldest first (daily caps). */
export function publishedSince(db: Db, integrationId: string, since: Date) {
  return db
    .select({ publishedAt: postTargets.publishedAt })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.integrationId, integrationId),
        eq(postTargets.status, 'PUBLISHED'),
        gte(postTargets.publishedAt, since),
      ),
    )
    .orderBy(postTargets.publishedAt);
}

/** A post whose next target starts is publishing (one guarded UPDATE). */
export async function markPostPublishing(db: Db, postId: string) {
  await writes(db).postPublishing.execute({ postId, now: new Date() });
}

/**
 * A post whose one and only target has just been published takes the status that gives it, in one
 * statement instead of settlePostStatus's transaction of four round trips (most posts
 * go to one account). A single statement reads the targets as of its start, not as of its lock on
 * the post, which is why settlePostStatus needs two; here nothing it reads can have changed by
 * then:
 * - the post must be `publishing` (checked again on its newest row once locked), and while it is,
 *   edits and deletes are refused (posts.service.ts, refuseWhileBusy), so no target is added;
 * - a PUBLISHED target is history: retrying and publishing again move only FAILED and UNCERTAIN
 *   targets. A FAILED or UNCERTAIN outcome could be retried in that moment, so it is left to
 *   settlePostStatus.
 * False when anything else is so (another target, the target moved on, the post not publishing,
 * an outcome other than PUBLISHED): settlePostStatus is the answer then.
 */
export async function settleOnlyTarget(db: Db, target: TargetRow, now: Date): Promise<boolean> {
  if (target.status !== 'PUBLISHED') return false;
  const { status, publishedAt } = derivePostStatus([target], now);
  const rows = await writes(db).settleOnly.execute({
    postId: target.postId,
    targetId: target.id,
    status,
    publishedAt: publishedAt?.toISOString() ?? null,
    now: new Date(),
  });
  return rows.length > 0;
}

/**
 * The post's status and publishedAt from its targets (post-status.ts, the table in
 * docs/product.md#post-statuses). A draft is left alone: nothing of it goes out by itself.
 */
export async function settlePostStatus(db: Db, postId: string, now: Date = new Date()) {
  // The post's row is locked first, so two targets finishing together settle one after the
  // other and the second reads both outcomes (never a stale 'publishing' written last).
  return db.transaction(async (tx) => {
    const [post] = await tx.select().from(posts).where(eq(posts.id, postId)).for('update');
    if (!post || post.status === 'draft') return post ?? null;
    // Read after the lock, in a statement of its own: it sees every target change committed
    // before the lock was granted (one statement with the lock would read them as of its start).
    const targets = await tx
      .select({
        status: postTargets.status,
        dueAt: postTargets.dueAt,
        publishedAt: postTargets.publishedAt,
      })
      .from(postTargets)
      .where(eq(postTargets.postId, postId));
    if (targets.length === 0) return post;
    const { status, publishedAt } = derivePostStatus(targets, now);
    const [row] = await tx
      .update(posts)
      .set({ status, publishedAt, updatedAt: new Date() })
      .where(eq(posts.id, postId))
      .returning();
    return row ?? null;
  });
}

/** After a reschedule: a post with something already out stays partially published. */
export async function settleIfPartlyOut(db: Db, postId: string, now: Date) {
  const targets = await targetsOfPost(db, postId);
  if (targets.some((t) => t.status === 'PUBLISHED')) await settlePostStatus(db, postId, now);
}

/** Targets of a post that a new due time applies to: failed ones are tried again. */
export async function requeueForPost(db: Db, postId: string, dueAt: Date) {
  await db
    .update(postTargets)
    .set({ status: 'QUEUED', error: null, attempts: 0, updatedAt: new Date() })
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'FAILED')));
  return db
    .update(postTargets)
    .set({ dueAt, updatedAt: new Date() })
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'QUEUED')))
    .returning({ id: postTargets.id });
}

/**
 * The post's targets a new time or a change concerns beyond their due time: QUEUED YouTube
 * targets (which may upload ahead) and UPLOADED ones (which follow their post), with their
 * settings.
 */
export function aheadTargetsOfPost(db: Db, postId: string) {
  return db
    .select({ id: postTargets.id, status: postTargets.status, settings: postTargets.settings })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(
      and(
        eq(postTargets.postId, postId),
        or(
          eq(postTargets.status, 'UPLOADED'),
          and(eq(postTargets.status, 'QUEUED'), eq(platforms.name, 'YouTube')),
        ),
      ),
    );
}

/**
 * The targets of the organization's posts uploaded ahead and waiting at the network, with their
 * account (null: disconnected since, which leaves Herald nothing to reach the network with).
 */
export function uploadedTargetsOf(db: Db, organizationId: string, postIds: string[]) {
  if (postIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: postTargets.id,
      postId: postTargets.postId,
      integrationId: postTargets.integrationId,
    })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.organizationId, organizationId),
        inArray(postTargets.postId, postIds),
        eq(postTargets.status, 'UPLOADED'),
      ),
    );
}

/** The targets uploaded ahead from these accounts, waiting at the network. */
export function uploadedOfAccounts(db: Db, integrationIds: string[]) {
  if (integrationIds.length === 0) return Promise.resolve([]);
  return db
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(
      and(inArray(postTargets.integrationId, integrationIds), eq(postTargets.status, 'UPLOADED')),
    );
}

/** Forgets the due time of a post's waiting targets; returns their jobs to cancel. */
export async function clearDue(db: Db, postId: string) {
  const waiting = and(eq(postTargets.postId, postId), eq(postTargets.status, 'QUEUED'));
  // Read before clearing: RETURNING gives the new (null) job ids, which cancelled nothing.
  const rows = await db
    .select({ jobId: postTargets.jobId })
    .from(postTargets)
    .where(waiting)
    .for('update');
  await db
    .update(postTargets)
    .set({ dueAt: null, jobId: null, updatedAt: new Date() })
    .where(waiting);
  return rows.flatMap((r) => (r.jobId ? [r.jobId] : []));
}

export async function setJobId(db: Db, targetId: string, jobId: string | null) {
  await db.update(postTargets).set({ jobId }).where(eq(postTargets.id, targetId));
}

/** The publication `targetId` of the organization's post `postId`, or undefined. */
export async function targetOfPost(
  db: Db,
  organizationId: string,
  postId: string,
  targetId: string,
): Promise<TargetRow | undefined> {
  const [target] = await db
    .select()
    .from(postTargets)
    .where(
      and(
        eq(postTargets.id, targetId),
        eq(postTargets.postId, postId),
        eq(postTargets.organizationId, organizationId),
      ),
    );
  return target;
}

/** The organization's post `postId`, or undefined. */
export async function postOfOrganization(
  db: Db,
  organizationId: string,
  postId: string,
): Promise<PostRow | undefined> {
  const [post] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)));
  return post;
}

/** The post's targets, each with its network's name. */
export function targetsWithNetwork(db: Db, postId: string) {
  return db
    .select({ target: postTargets, network: platforms.name })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(eq(postTargets.postId, postId));
}

/** The target's network settings from now on (Publish now turns off YouTube's scheduling). */
export async function setTargetSettings(
  db: Db,
  targetId: string,
  settings: Record<string, unknown>,
) {
  await db.update(postTargets).set({ settings }).where(eq(postTargets.id, targetId));
}

/** A waiting target is due at `at` (Publish now). */
export async function setDue(db: Db, targetId: string, at: Date) {
  await db.update(postTargets).set({ dueAt: at }).where(eq(postTargets.id, targetId));
}

/** A waiting target with no time is due at `at`; false when it is no longer so. */
export async function setDueIfUnset(db: Db, targetId: string, at: Date) {
  const rows = await db
    .update(postTargets)
    .set({ dueAt: at, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.id, targetId),
        eq(postTargets.status, 'QUEUED'),
        isNull(postTargets.dueAt),
      ),
    )
    .returning({ id: postTargets.id });
  return rows.length > 0;
}

/** The post is publishing, whatever its status was (Publish now, a retry asked for). */
export async function setPostPublishing(db: Db, postId: string, now: Date) {
  await db.update(posts).set({ status: 'publishing', updatedAt: now }).where(eq(posts.id, postId));
}

/**
 * What a notification about a target names: the post's title and text, the account's current
 * name and username, and those the target kept when it was chosen (a disconnected account is
 * still named). Undefined when the organization has no such post.
 */
export async function outcomeSubject(
  db: Db,
  organizationId: string,
  postId: string,
  targetId: string,
) {
  const [row] = await db
    .select({
      title: posts.title,
      content: posts.content,
      contentByPlatform: posts.contentByPlatform,
      username: integrations.username,
      name: integrations.name,
      keptUsername: postTargets.accountUsername,
      keptName: postTargets.accountName,
    })
    .from(posts)
    .leftJoin(postTargets, and(eq(postTargets.postId, posts.id), eq(postTargets.id, targetId)))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
    .where(and(eq(posts.id, postId), eq(posts.organizationId, organizationId)))
    .limit(1);
  return row;
}

/**
 * Every publication of the post as it stands, with the account each went to, for the notice
 * that sums up the post's outcome (outcome-notifications.ts).
 */
export async function outcomeTargets(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      id: postTargets.id,
      status: postTargets.status,
      dueAt: postTargets.dueAt,
      publishedAt: postTargets.publishedAt,
      updatedAt: postTargets.updatedAt,
      error: postTargets.error,
      platformName: platforms.name,
      username: integrations.username,
      name: integrations.name,
      keptUsername: postTargets.accountUsername,
      keptName: postTargets.accountName,
      title: posts.title,
      content: posts.content,
      contentByPlatform: posts.contentByPlatform,
    })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
    .where(and(eq(postTargets.postId, postId), eq(posts.organizationId, organizationId)))
    .orderBy(postTargets.createdAt, postTargets.id);
}
