import {
  parseDay,
  sameTimeOnDay,
  shiftByDays,
  type BulkChangedPost,
  type BulkRescheduleRequest,
  type Post,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import { markQueued, takeQueueSlot } from '../queue/queue.service.js';
import {
  bulkRefusal,
  changedPost,
  eachPost,
  lockChosenPosts,
  withStatus,
  type Refused,
} from './posts.bulk.js';
import * as repo from './posts.repository.js';
import { changePost, getPost, type Caller, type PostsDeps } from './posts.service.js';

/*
 * Giving posts a new time in bulk (docs/product.md#bulk-actions): reschedule to a day or by days,
 * and Add to queue for posts that already exist. Each post goes through `changePost`, the code of
 * one post's new time (the PUT route's): the same rules, approval and publish jobs.
 */

type ScheduleDeps = Pick<PostsDeps, 'db' | 'lifecycle' | 'now'>;

const busy = (rows: repo.PostRow[], doing: string): Refused => ({
  rows: withStatus(rows, 'publishing'),
  says: (one) => `${one ? 'is' : 'are'} being published right now and cannot be ${doing}`,
});

/** Where each post goes: the same time of day on `date`, or `shiftDays` days away, in `zone`. */
function newTimeOf(request: BulkRescheduleRequest, zone: string) {
  const day = request.date === undefined ? null : parseDay(request.date);
  return (row: repo.PostRow): number | null => {
    if (!row.scheduledAt) return null;
    const at = row.scheduledAt.getTime();
    return day ? sameTimeOnDay(at, zone, day) : shiftByDays(at, zone, request.shiftDays ?? 0);
  };
}

/**
 * Moves several posts to a day (each keeping its time of day) or by some days, all in one
 * transaction or none: a post being published, already published or a draft (it has no time to
 * move) is refused, and so is a move into the past, each named. Scheduled, waiting, partly
 * published and failed posts move (a failed one is tried again at its new time, as when one
 * post is given a time); a waiting post stays waiting. Publish jobs move with the time.
 */
export async function bulkReschedule(
  deps: ScheduleDeps,
  caller: Caller,
  request: BulkRescheduleRequest,
  zone: string,
): Promise<BulkChangedPost[]> {
  const org = caller.organizationId;
  return deps.db.transaction(async (tx) => {
    const rows = await lockChosenPosts(tx, org, request.postIds);
    const timeOf = newTimeOf(request, zone);
    const now = deps.now().getTime();
    const movable = withStatus(
      rows,
      'scheduled',
      'pending_approval',
      'partially_published',
      'failed',
    );
    const timeless = movable.filter((row) => timeOf(row) === null);
    const intoPast = movable.filter((row) => {
      const at = timeOf(row);
      return at !== null && at <= now;
    });
    const refusal = bulkRefusal([
      busy(rows, 'rescheduled'),
      {
        rows: withStatus(rows, 'published'),
        says: (one) => `${one ? 'is' : 'are'} already published and cannot be rescheduled`,
      },
      {
        rows: withStatus(rows, 'draft'),
        says: (one) =>
          one
            ? 'is a draft, so it has no time to move: add it to the queue or give it a time first'
            : 'are drafts, so they have no time to move: add them to the queue or give them a time first',
      },
      {
        rows: timeless,
        says: (one) =>
          `${one ? 'has' : 'have'} no time to move: give ${one ? 'it' : 'them'} a time first`,
      },
      {
        rows: intoPast,
        says: (one) =>
          `would move to a time that has already passed (${one ? 'its' : 'their'} time of day on that day is over): pick a later day`,
      },
    ]);
    if (refusal) throw refusal;
    const changed = await eachPost(rows, (row) =>
      changePost(
        tx,
        deps,
        org,
        row,
        { scheduledAt: new Date(timeOf(row)!).toISOString() },
        caller,
        { keepWaiting: true },
      ),
    );
    return changed.map(changedPost);
  });
}

/** What Add to queue refuses, for one post or several: what is out, or going out now. */
function queueRefused(rows: repo.PostRow[]): Refused[] {
  return [
    busy(rows, 'added to the queue'),
    {
      rows: withStatus(rows, 'published', 'partially_published'),
      says: (one) =>
        `${one ? 'is' : 'are'} already published (to at least one account) and cannot be added to the queue`,
    },
  ];
}

/**
 * Add to queue for a post that exists, locked in `tx` under the organization's lock: the
 * earliest slot every one of its accounts has and none of them uses (as the composer's Add to
 * queue takes one for a new post), given to the post through `changePost`, and remembered as its
 * queue slot. `extra`: the posts placed in the same request and the times they were given.
 */
async function queueLocked(
  tx: Db,
  deps: ScheduleDeps,
  caller: Caller,
  row: repo.PostRow,
  extra: { exceptPostIds: string[]; taken: Map<string, Set<number>> },
): Promise<repo.PostRow> {
  const org = caller.organizationId;
  const accounts = (await repo.targetPlatforms(tx, org, row.id)).flatMap((target) =>
    target.integrationId ? [target.integrationId] : [],
  );
  if (accounts.length === 0) {
    throw new AppError(
      'CONFLICT',
      'This post goes to no connected account, so no queue slot fits it. Open it and choose an account.',
    );
  }
  const at = await takeQueueSlot(tx, org, accounts, deps.now(), extra);
  const changed = await changePost(tx, deps, org, row, { scheduledAt: at.toISOString() }, caller, {
    keepWaiting: true,
  });
  await markQueued(tx, org, row.id, at);
  return changed;
}

/** `POST …/posts/{postId}/queue`: one post into its accounts' next free queue slot. */
export async function addPostToQueue(
  deps: ScheduleDeps & Pick<PostsDeps, 'media'>,
  caller: Caller,
  postId: string,
): Promise<Post> {
  const org = caller.organizationId;
  await deps.db.transaction(async (tx) => {
    await lockOrganization(tx, org);
    const row = await repo.lockPost(tx, org, postId);
    if (!row) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
    const refused = queueRefused([row]).find((group) => group.rows.length > 0);
    if (refused) throw new AppError('CONFLICT', `This post ${refused.says(true)}.`);
    await queueLocked(tx, deps, caller, row, { exceptPostIds: [row.id], taken: new Map() });
  });
  return getPost(deps, org, postId);
}

/**
 * Add to queue for several posts, in the order asked: each takes the next slot free for all its
 * accounts after those given to the ones before it. All in one transaction under the
 * organization's lock, or none (409 naming the post for which no slot is left).
 */
export async function bulkQueue(
  deps: ScheduleDeps,
  caller: Caller,
  postIds: string[],
): Promise<BulkChangedPost[]> {
  const org = caller.organizationId;
  return deps.db.transaction(async (tx) => {
    await lockOrganization(tx, org);
    const rows = await lockChosenPosts(tx, org, postIds);
    const refusal = bulkRefusal(queueRefused(rows));
    if (refusal) throw refusal;
    // The chosen posts' own times are placed anew, in order; times given here count as taken.
    const extra = {
      exceptPostIds: rows.map((row) => row.id),
      taken: new Map<string, Set<number>>(),
    };
    const changed = await eachPost(rows, (row) => queueLocked(tx, deps, caller, row, extra));
    return changed.map(changedPost);
  });
}
