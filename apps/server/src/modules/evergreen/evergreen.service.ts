import {
  EVERGREEN_FILL_AHEAD_HOURS,
  EVERGREEN_MAX_POSTS,
  EVERGREEN_PROJECTION_MAX_DAYS,
  repeatStepMs,
  type CreateEvergreenCollectionRequestSchema,
  type EvergreenCollection,
  type EvergreenFill,
  type EvergreenPost,
  type PostRepeat,
  type PostSource,
  type PutPostRepeatRequestSchema,
  type UpdateEvergreenCollectionRequestSchema,
} from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { mustSubmit, recordSubmission } from '../approvals/approval-rule.js';
import { requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import { accountLabel } from '../posts/post-accounts.js';
import { announcePostChange } from '../posts/post-webhooks.js';
import * as posts from '../posts/posts.lookups.js';
import { startOfUtcDay, type Caller, type PostsDeps } from '../posts/posts.service.js';
import { refuseUnpublishable } from '../posts/publish-check.js';
import { slotsAndOccupancy } from '../queue/queue.service.js';
import { loadMembership } from '../team/membership.js';
import { assertReachesAccounts, reachesAccount } from '../team/account-access.js';
import { hasEnded, planFills, type PastFill, type PlannerCollection } from './evergreen-planner.js';
import * as repo from './evergreen.repository.js';

export interface EvergreenDeps extends PostsDeps {
  log: FastifyBaseLogger;
}

/** The member asking: who they are and the accounts they reach (null: every account). */
export interface EvergreenMember {
  organizationId: string;
  userId: string;
  accountIds: string[] | null;
}

const HOUR_MS = 3_600_000;
/** A fill is never placed less than a minute from now (the publisher needs the time). */
const LEAD_MS = 60_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const notFound = () =>
  new AppError('NOT_FOUND', 'This evergreen collection does not exist in this organization.');

/** A post as a list names it: its title, else the start of its text. */
export function postLabel(p: { title: string | null; content: string }) {
  const text = (p.title?.trim() || p.content.trim()).replace(/\s+/g, ' ');
  if (!text) return 'Untitled post';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const reaches = (member: Pick<EvergreenMember, 'accountIds'>, c: repo.CollectionRow) =>
  c.integrationIds.every((id) => reachesAccount(member, id));

async function findOwn(db: Db, member: EvergreenMember, collectionId: string) {
  const c = await repo.findCollection(db, member.organizationId, collectionId);
  if (!c || !reaches(member, c)) throw notFound();
  return c;
}

/** The accounts must be connected here and within the member's reach. */
async function checkAccounts(db: Db, member: EvergreenMember, integrationIds: string[]) {
  const connected = await posts.connectedAccounts(db, member.organizationId);
  const chosen = integrationIds.map((id) => connected.find((a) => a.integrationId === id));
  if (chosen.some((a) => !a)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'One of the chosen accounts is not connected to this organization.',
    );
  }
  assertReachesAccounts(
    member,
    chosen.map((a) => ({
      integrationId: a!.integrationId,
      label: accountLabel({ username: a!.username, name: a!.name, network: a!.platformName }),
    })),
  );
}

/** The posts must be posts of this organization the member may see whole. */
async function checkPosts(db: Db, member: EvergreenMember, postIds: string[]) {
  for (const postId of new Set(postIds)) {
    const post = await posts.findPost(db, member.organizationId, postId);
    if (!post) {
      throw new AppError(
        'VALIDATION_FAILED',
        'One of the chosen posts does not exist in this organization.',
      );
    }
  }
}

/** The collections with their posts and fills, as the planner reads them. */
async function plannerState(db: Db, organizationId: string, rows: repo.CollectionRow[]) {
  const ids = rows.map((r) => r.id);
  // One after the other: inside a transaction they share one connection.
  const postRows = await repo.postsOfCollections(db, organizationId, ids);
  const fillRows = await repo.fillsOf(db, organizationId, ids);
  const collections: PlannerCollection[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    integrationIds: r.integrationIds,
    minDaysBetween: r.minDaysBetween,
    endAfterCycles: r.endAfterCycles,
    endAt: r.endAt?.getTime() ?? null,
    createdAt: r.createdAt.getTime(),
    posts: postRows
      .filter((p) => p.collectionId === r.id)
      .map((p) => ({
        postId: p.postId,
        position: p.position,
        label: postLabel(p),
        publishedAt: p.publishedAt?.getTime() ?? null,
      })),
  }));
  const fills: PastFill[] = fillRows.map((f) => ({
    collectionId: f.collectionId,
    sourcePostId: f.sourcePostId,
    slotAt: f.slotAt.getTime(),
  }));
  return { collections, fills, postRows, fillRows };
}

function toCollectionDto(
  row: repo.CollectionRow,
  state: Awaited<ReturnType<typeof plannerState>>,
  now: Date,
): EvergreenCollection {
  const planned = state.collections.find((c) => c.id === row.id)!;
  const fills = state.fills.filter((f) => f.collectionId === row.id);
  const last = fills.length > 0 ? Math.max(...fills.map((f) => f.slotAt)) : null;
  return {
    id: row.id,
    name: row.name,
    integrationIds: row.integrationIds,
    minDaysBetween: row.minDaysBetween,
    endAfterCycles: row.endAfterCycles,
    endAt: iso(row.endAt),
    paused: row.paused,
    ended: hasEnded(planned, state.fills, now.getTime()),
    postCount: planned.posts.length,
    fillCount: fills.length,
    lastFillAt: last === null ? null : new Date(last).toISOString(),
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
  };
}

function postDtos(
  collectionId: string,
  state: Awaited<ReturnType<typeof plannerState>>,
): EvergreenPost[] {
  return state.postRows
    .filter((p) => p.collectionId === collectionId)
    .map((p) => {
      const used = state.fills.filter(
        (f) => f.collectionId === collectionId && f.sourcePostId === p.postId,
      );
      const last = used.length > 0 ? Math.max(...used.map((f) => f.slotAt)) : null;
      return {
        postId: p.postId,
        label: postLabel(p),
        position: p.position,
        useCount: used.length,
        lastUsedAt: last === null ? null : new Date(last).toISOString(),
        addedAt: p.addedAt.toISOString(),
      };
    });
}

export async function listCollections(deps: EvergreenDeps, member: EvergreenMember) {
  const rows = (await repo.listCollections(deps.db, member.organizationId)).filter((r) =>
    reaches(member, r),
  );
  const state = await plannerState(deps.db, member.organizationId, rows);
  return rows.map((r) => toCollectionDto(r, state, deps.now()));
}

export async function getCollection(
  deps: EvergreenDeps,
  member: EvergreenMember,
  collectionId: string,
) {
  const row = await findOwn(deps.db, member, collectionId);
  const state = await plannerState(deps.db, member.organizationId, [row]);
  return { collection: toCollectionDto(row, state, deps.now()), posts: postDtos(row.id, state) };
}

function checkEnd(deps: EvergreenDeps, endAt: string | null | undefined) {
  if (endAt && new Date(endAt).getTime() <= deps.now().getTime()) {
    throw new AppError('VALIDATION_FAILED', 'endAt has already passed: choose a later end date.');
  }
}

export async function createCollection(
  deps: EvergreenDeps,
  member: EvergreenMember,
  body: z.output<typeof CreateEvergreenCollectionRequestSchema>,
) {
  await checkAccounts(deps.db, member, body.integrationIds);
  checkEnd(deps, body.endAt);
  if (body.postIds) await checkPosts(deps.db, member, body.postIds);
  const row = await deps.db.transaction(async (tx) => {
    const created = await repo.insertCollection(tx, {
      organizationId: member.organizationId,
      createdByUserId: member.userId,
      name: body.name,
      integrationIds: body.integrationIds,
      minDaysBetween: body.minDaysBetween,
      endAfterCycles: body.endAfterCycles,
      endAt: body.endAt ? new Date(body.endAt) : null,
      paused: body.paused,
    });
    if (body.postIds) await repo.addPosts(tx, member.organizationId, created.id, body.postIds);
    return created;
  });
  return getCollection(deps, member, row.id);
}

export async function updateCollection(
  deps: EvergreenDeps,
  member: EvergreenMember,
  collectionId: string,
  body: z.output<typeof UpdateEvergreenCollectionRequestSchema>,
) {
  await findOwn(deps.db, member, collectionId);
  if (body.integrationIds) await checkAccounts(deps.db, member, body.integrationIds);
  checkEnd(deps, body.endAt);
  const updated = await repo.updateCollection(deps.db, member.organizationId, collectionId, {
    createdByUserId: member.userId,
    lastError: null,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.integrationIds ? { integrationIds: body.integrationIds } : {}),
    ...(body.minDaysBetween !== undefined ? { minDaysBetween: body.minDaysBetween } : {}),
    ...(body.endAfterCycles !== undefined ? { endAfterCycles: body.endAfterCycles } : {}),
    ...(body.endAt !== undefined ? { endAt: body.endAt ? new Date(body.endAt) : null } : {}),
    ...(body.paused !== undefined ? { paused: body.paused } : {}),
  });
  if (!updated) throw notFound();
  return getCollection(deps, member, collectionId);
}

export async function deleteCollection(
  deps: EvergreenDeps,
  member: EvergreenMember,
  collectionId: string,
) {
  await findOwn(deps.db, member, collectionId);
  await repo.deleteCollection(deps.db, member.organizationId, collectionId);
}

export async function addPosts(
  deps: EvergreenDeps,
  member: EvergreenMember,
  collectionId: string,
  postIds: string[],
) {
  await findOwn(deps.db, member, collectionId);
  await checkPosts(deps.db, member, postIds);
  const current = await repo.postsOfCollections(deps.db, member.organizationId, [collectionId]);
  const fresh = [...new Set(postIds)].filter((id) => !current.some((p) => p.postId === id));
  if (current.length + fresh.length > EVERGREEN_MAX_POSTS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `A collection holds at most ${EVERGREEN_MAX_POSTS} posts; this one has ${current.length}.`,
    );
  }
  await repo.addPosts(deps.db, member.organizationId, collectionId, fresh);
  return getCollection(deps, member, collectionId);
}

export async function removePost(
  deps: EvergreenDeps,
  member: EvergreenMember,
  collectionId: string,
  postId: string,
) {
  await findOwn(deps.db, member, collectionId);
  if (!(await repo.removePost(deps.db, member.organizationId, collectionId, postId))) {
    throw new AppError('NOT_FOUND', 'This post is not in this collection.');
  }
  return getCollection(deps, member, collectionId);
}

/**
 * The plan for [from, to) of the organization's collections not paused (of `only` when given),
 * from the slots, their occupancy and the past fills as they are now.
 */
async function planWindow(
  db: Db,
  organizationId: string,
  from: Date,
  to: Date,
  options: { skip?: ReadonlySet<string>; only?: (c: repo.CollectionRow) => boolean } = {},
) {
  const rows = (await repo.listCollections(db, organizationId)).filter(
    (r) => !r.paused && (options.only?.(r) ?? true),
  );
  if (rows.length === 0 || to.getTime() <= from.getTime()) return [];
  const state = await plannerState(db, organizationId, rows);
  const ids = [...new Set(rows.flatMap((r) => r.integrationIds))];
  const { slotTimes, occupied } = await slotsAndOccupancy(db, organizationId, ids, from, to);
  return planFills({
    collections: state.collections,
    fills: state.fills,
    slotTimes,
    occupied,
    skip: options.skip,
  });
}

/** The calendar's projection: what the job will put in the empty slots of [from, to). */
export async function projection(
  deps: EvergreenDeps,
  member: EvergreenMember,
  query: { from: string; to: string },
): Promise<EvergreenFill[]> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (to.getTime() <= from.getTime()) {
    throw new AppError('VALIDATION_FAILED', 'to must be after from.');
  }
  if (to.getTime() - from.getTime() > EVERGREEN_PROJECTION_MAX_DAYS * 24 * HOUR_MS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Ask for at most ${EVERGREEN_PROJECTION_MAX_DAYS} days of projection at a time.`,
    );
  }
  // The plan starts where the job's next run does (now), so it shows what will really happen.
  const start = new Date(Math.max(deps.now().getTime() + LEAD_MS, from.getTime()));
  const planned = await planWindow(deps.db, member.organizationId, start, to);
  return planned
    .filter(
      (p) => p.at >= from.getTime() && p.integrationIds.every((id) => reachesAccount(member, id)),
    )
    .map((p) => ({ ...p, at: new Date(p.at).toISOString() }));
}

/** The member a collection's (or a repeat's) copies are made as, with their access. */
async function callerFor(db: Db, organizationId: string, userId: string | null) {
  const member = userId ? await loadMembership(db, organizationId, userId) : null;
  if (!member || !member.permissions.includes('post:create')) return null;
  const caller: Caller = {
    organizationId,
    userId: userId!,
    canApprove: member.permissions.includes('post:approve'),
    accountIds: member.accountIds,
  };
  return caller;
}

/**
 * A copy of `sourceId` for `integrationIds` at `at`, inside `tx` (the organization locked):
 * its title, texts (per account too), link tracking, files with their alt texts, the settings
 * chosen for each account that the source had, thread parts and first comments. Scheduled, or
 * submitted for approval when the caller must submit: then it is a post like any other.
 */
async function makeCopy(
  tx: Db,
  deps: Pick<PostsDeps, 'lifecycle' | 'now'>,
  caller: Caller,
  sourceId: string,
  integrationIds: string[],
  at: Date,
  source: PostSource,
) {
  const org = caller.organizationId;
  const original = await posts.findPost(tx, org, sourceId);
  if (!original) throw new AppError('NOT_FOUND', 'The post to copy no longer exists.');
  const plan = await requireEntitlement(tx, org, 'post');
  requireCapacity(
    plan,
    'postsPerDay',
    await posts.countPostsCreatedSince(tx, org, startOfUtcDay(deps.now())),
  );
  const connected = new Map(
    (await posts.connectedAccounts(tx, org)).map((a) => [a.integrationId, a]),
  );
  const missing = integrationIds.filter((id) => !connected.has(id));
  if (missing.length > 0) {
    throw new AppError(
      'CONFLICT',
      'One of its accounts is no longer connected: reconnect it or choose other accounts.',
    );
  }
  if (caller.accountIds && !integrationIds.every((id) => caller.accountIds!.includes(id))) {
    throw new AppError(
      'FORBIDDEN',
      'The member who saved it no longer reaches all of its accounts: save it again as a member who does.',
    );
  }
  const sourceTargets = await repo.targetsOfPost(tx, org, sourceId);
  const settingsOf = new Map(sourceTargets.map((t) => [t.integrationId, t.settings]));
  const media = await posts.mediaOfPost(tx, org, sourceId);
  const submits = await mustSubmit(tx, caller);
  const row = await posts.insertPost(
    tx,
    {
      organizationId: org,
      createdByUserId: caller.userId,
      title: original.title,
      status: submits ? 'pending_approval' : 'scheduled',
      content: original.content,
      contentByPlatform: original.contentByPlatform,
      linkTracking: original.linkTracking,
      shortLinks: original.shortLinks,
      scheduledAt: at,
      source,
    },
    integrationIds.map((id) => {
      const a = connected.get(id)!;
      return {
        platformId: a.platformId,
        integrationId: a.integrationId,
        accountName: a.name,
        accountUsername: a.username,
        accountExternalId: a.platformAccountId,
        settings: settingsOf.get(id) ?? null,
      };
    }),
    media.map((m) => ({
      position: m.position,
      storageKey: m.storageKey,
      thumbnailKey: m.thumbnailKey,
      fileName: m.fileName,
      mimeType: m.mimeType,
      kind: m.kind,
      size: m.size,
      width: m.width,
      height: m.height,
      durationSec: m.durationSec,
      sha256: m.sha256,
      platformIds: m.platformIds,
      altText: m.altText,
    })),
  );
  const followUps = await repo.followUpsOfPost(tx, org, sourceId);
  if (followUps.length > 0) {
    const newTargets = await repo.targetsOfPost(tx, org, row.id);
    await repo.insertFollowUps(
      tx,
      followUps.flatMap((f) => {
        const target = newTargets.find((t) => t.integrationId === f.integrationId);
        return target
          ? [
              {
                targetId: target.id,
                organizationId: org,
                kind: f.kind,
                position: f.position,
                text: f.text,
              },
            ]
          : [];
      }),
    );
  }
  // A copy its networks would refuse is not made (the transaction undoes it).
  await refuseUnpublishable(tx, org, row.id);
  if (submits) await recordSubmission(tx, caller, row);
  else await deps.lifecycle.scheduled(tx, row);
  await announcePostChange(tx, 'post.created', row, deps.now());
  return row;
}

/**
 * The job's work for one organization: the fills the planner gives for [now, until), one
 * transaction each under the organization's lock. Each transaction plans again with what is
 * stored then, so a second worker (or a second run) finds the slots taken and makes nothing.
 * A fill that cannot be made (its networks would refuse the copy, the plan's day is full) is
 * recorded on the collection in plain words and its post is left out of this run.
 */
export async function fillOrganization(
  deps: EvergreenDeps,
  organizationId: string,
  until: Date,
): Promise<number> {
  const skip = new Set<string>();
  const refused = new Set<string>();
  let made = 0;
  // Bounded: each round makes one copy or leaves out one post or collection.
  for (let round = 0; round < 500; round++) {
    let planned: Awaited<ReturnType<typeof planWindow>>[number] | undefined;
    try {
      const done = await deps.db.transaction(async (tx) => {
        await lockOrganization(tx, organizationId);
        const from = new Date(deps.now().getTime() + LEAD_MS);
        const plan = await planWindow(tx, organizationId, from, until, {
          skip,
          only: (c) => !refused.has(c.id),
        });
        planned = plan[0];
        if (!planned) return false;
        const collection = await repo.findCollection(tx, organizationId, planned.collectionId);
        const caller = await callerFor(tx, organizationId, collection!.createdByUserId);
        if (!caller) {
          throw new AppError(
            'FORBIDDEN',
            'The member who saved this collection can no longer create posts here. Save it again to make its copies as you.',
          );
        }
        const copy = await makeCopy(
          tx,
          deps,
          caller,
          planned.postId,
          planned.integrationIds,
          new Date(planned.at),
          {
            kind: 'evergreen',
            collectionId: planned.collectionId,
            name: planned.collectionName,
            postId: planned.postId,
          },
        );
        await repo.recordFill(tx, {
          organizationId,
          collectionId: planned.collectionId,
          sourcePostId: planned.postId,
          copyPostId: copy.id,
          slotAt: new Date(planned.at),
        });
        await repo.updateCollection(tx, organizationId, planned.collectionId, { lastError: null });
        return true;
      });
      if (!done) return made;
      made++;
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500 || !planned) throw error;
      const failed = planned;
      await repo.updateCollection(deps.db, organizationId, failed.collectionId, {
        lastError: `${failed.label}: ${error.message}`,
      });
      // The plan's allowance and the member's rights hold for the whole collection.
      if (error.code === 'FORBIDDEN') refused.add(failed.collectionId);
      else skip.add(`${failed.collectionId}:${failed.postId}`);
      deps.log.info(
        { collectionId: failed.collectionId, postId: failed.postId, reason: error.message },
        'evergreen fill not made',
      );
    }
  }
  return made;
}

/** The cron's work: every organization with a collection, then the repeats that went out. */
export async function runEvergreen(deps: EvergreenDeps) {
  const until = new Date(deps.now().getTime() + EVERGREEN_FILL_AHEAD_HOURS * HOUR_MS);
  let filled = 0;
  for (const organizationId of await repo.organizationsWithActiveCollections(deps.db)) {
    try {
      filled += await fillOrganization(deps, organizationId, until);
    } catch (error) {
      deps.log.error({ err: error, organizationId }, 'evergreen fill failed');
    }
  }
  const repeated = await advanceRepeats(deps);
  return { filled, repeated };
}

// Repeats (docs/evergreen.md#repeat)

function toRepeatDto(row: repo.RepeatRow, scheduledAt: Date | null): PostRepeat {
  const step = repeatStepMs(row.every, row.unit);
  const next = scheduledAt ? scheduledAt.getTime() + step : null;
  return {
    id: row.id,
    postId: row.postId,
    every: row.every,
    unit: row.unit,
    until: row.until.toISOString(),
    occurrences: row.occurrences,
    nextAt: next !== null && next <= row.until.getTime() ? new Date(next).toISOString() : null,
  };
}

async function reachablePostOrThrow(deps: EvergreenDeps, member: EvergreenMember, postId: string) {
  const post = await posts.findPost(deps.db, member.organizationId, postId);
  if (!post) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  return post;
}

export async function getRepeat(deps: EvergreenDeps, member: EvergreenMember, postId: string) {
  const post = await reachablePostOrThrow(deps, member, postId);
  const row = await repo.repeatOfPost(deps.db, member.organizationId, postId);
  return row ? toRepeatDto(row, post.scheduledAt) : null;
}

export async function putRepeat(
  deps: EvergreenDeps,
  member: EvergreenMember,
  postId: string,
  body: z.output<typeof PutPostRepeatRequestSchema>,
) {
  const post = await reachablePostOrThrow(deps, member, postId);
  if (!['draft', 'scheduled', 'pending_approval'].includes(post.status)) {
    throw new AppError(
      'CONFLICT',
      'Only a post that has not gone out yet can be set to repeat; set it on its next occurrence.',
    );
  }
  const until = new Date(body.until);
  const from = post.scheduledAt ?? deps.now();
  if (until.getTime() < from.getTime() + repeatStepMs(body.every, body.unit)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'until comes before the first repeat: choose a later date or a shorter interval.',
    );
  }
  const row = await repo.upsertRepeat(deps.db, {
    organizationId: member.organizationId,
    postId,
    createdByUserId: member.userId,
    every: body.every,
    unit: body.unit,
    until,
  });
  return toRepeatDto(row, post.scheduledAt);
}

export async function deleteRepeat(deps: EvergreenDeps, member: EvergreenMember, postId: string) {
  await reachablePostOrThrow(deps, member, postId);
  if (!(await repo.deleteRepeat(deps.db, member.organizationId, postId))) {
    throw new AppError('NOT_FOUND', 'This post does not repeat.');
  }
}

/**
 * The repeats whose latest occurrence went out: the next occurrence is made from it (a copy,
 * so edits to the latest carry forward) at its time plus the interval — moved on by whole
 * intervals when that has passed (a worker that was stopped) — and becomes the latest. Past
 * `until`, the repeat ends. Each in its own transaction, locked so two workers make one.
 */
export async function advanceRepeats(deps: EvergreenDeps, limit = 50): Promise<number> {
  let made = 0;
  for (let i = 0; i < limit; i++) {
    let current: repo.RepeatRow | null = null;
    const outcome = await deps.db
      .transaction(async (tx) => {
        const [due] = await repo.repeatsGoneOut(tx, 1);
        if (!due) return 'none' as const;
        const { repeat } = due;
        current = repeat;
        await lockOrganization(tx, repeat.organizationId);
        const step = repeatStepMs(repeat.every, repeat.unit);
        const now = deps.now().getTime() + LEAD_MS;
        let next = (due.scheduledAt?.getTime() ?? now) + step;
        while (next < now) next += step;
        if (next > repeat.until.getTime()) {
          await repo.endRepeat(tx, repeat.id);
          return 'ended' as const;
        }
        const caller = await callerFor(tx, repeat.organizationId, repeat.createdByUserId);
        const targets = await repo.targetsOfPost(tx, repeat.organizationId, repeat.postId);
        if (!caller) {
          await repo.endRepeat(tx, repeat.id);
          return 'ended' as const;
        }
        const copy = await makeCopy(
          tx,
          deps,
          caller,
          repeat.postId,
          targets.flatMap((t) => (t.integrationId ? [t.integrationId] : [])),
          new Date(next),
          { kind: 'repeat', repeatId: repeat.id, postId: repeat.postId },
        );
        await repo.moveRepeat(tx, repeat.id, copy.id, repeat.occurrences + 1);
        return 'made' as const;
      })
      .catch(async (error: unknown) => {
        if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
        // A next occurrence its networks (or the plan) refuse stops the repeat: what went out
        // stays, and the member sets it again on a post that can go out.
        const stopped = current as repo.RepeatRow | null;
        if (stopped) await repo.endRepeat(deps.db, stopped.id);
        deps.log.info({ repeatId: stopped?.id, reason: error.message }, 'repeat stopped');
        return 'refused' as const;
      });
    if (outcome === 'none') break;
    if (outcome === 'made') made++;
  }
  return made;
}
