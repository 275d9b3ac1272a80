import type { ApprovalEvent, BulkChangedPost, Post } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordNotification } from '../notifications/notifications.service.js';
import { postLabel } from '../publishing/outcome-notifications.js';
import { toPostDtos, withReachableTargets } from '../posts/post-dto.js';
import * as postsRepo from '../posts/posts.lookups.js';
import type { PostsDeps } from '../posts/posts.service.js';
import * as repo from './approvals.repository.js';
import { recordApprovalEvent } from './approval-events.js';
import { refuseUnpublishable } from '../posts/publish-check.js';
import {
  bulkRefusal,
  changedPost,
  eachPost,
  listLabels,
  lockChosenPosts,
  type Refused,
} from '../posts/posts.bulk.js';

/** The most posts the queue lists at once (the count says how many wait in all). */
export const APPROVAL_QUEUE_CAP = 200;

export interface Approver {
  organizationId: string;
  /** The member deciding; null for a client deciding through an approval link (`guest`). */
  userId: string | null;
  /** A client without an account, as their approval link names them (approval-links.service.ts). */
  guest?: { name: string | null; email: string | null };
}

/** Who decided, as the post's approval history keeps it. */
const decidedBy = (approver: Approver) => ({
  userId: approver.userId,
  guestName: approver.guest?.name ?? null,
  guestEmail: approver.guest?.email ?? null,
});

/** How notifications name whoever decided: a client by the name their link gives. */
export async function deciderName(db: Db, approver: Approver): Promise<string> {
  if (approver.guest)
    return `${approver.guest.name ?? approver.guest.email ?? 'A client'} (client)`;
  return (approver.userId && (await repo.displayNameOf(db, approver.userId))) || 'An approver';
}

const notFound = () => new AppError('NOT_FOUND', 'This post does not exist in this organization.');

function requirePending(post: postsRepo.PostRow) {
  if (post.status !== 'pending_approval') {
    throw new AppError(
      'CONFLICT',
      `This post is not waiting for approval (it is ${post.status.replace(/_/g, ' ')}). Reload the queue.`,
    );
  }
}

/** The waiting posts a member sees: those of the accounts they reach, showing only those. */
export async function approvalQueue(
  deps: Pick<PostsDeps, 'db' | 'media'>,
  organizationId: string,
  member: { accountIds: string[] | null } = { accountIds: null },
) {
  const [rows, count] = await Promise.all([
    repo.pendingPosts(deps.db, organizationId, APPROVAL_QUEUE_CAP, member.accountIds),
    repo.countPending(deps.db, organizationId, member.accountIds),
  ]);
  const posts = await toPostDtos(deps, organizationId, rows);
  return { posts: posts.map((post) => withReachableTargets(post, member)), count };
}

export async function approvalEvents(
  db: Db,
  organizationId: string,
  postId: string,
): Promise<ApprovalEvent[]> {
  if (!(await postsRepo.findPost(db, organizationId, postId))) throw notFound();
  const rows = await repo.eventsOfPost(db, organizationId, postId);
  return rows.map(({ event, user }) => ({
    id: event.id,
    action: event.action,
    reason: event.reason,
    createdAt: event.createdAt.toISOString(),
    user: user ? { id: user.id, displayName: user.displayName } : null,
    guest:
      event.guestName || event.guestEmail
        ? { name: event.guestName, email: event.guestEmail }
        : null,
  }));
}

/**
 * Approves a pending post: it is scheduled for its time (its jobs queued in the same
 * transaction). A post whose time has passed is published now only when the approver said so
 * (`publishNow`); otherwise a 409 asks them.
 */
export async function approvePost(
  deps: PostsDeps,
  approver: Approver,
  postId: string,
  publishNow: boolean,
): Promise<Post> {
  const org = approver.organizationId;
  return deps.db.transaction(async (tx) => {
    const row = await postsRepo.lockPost(tx, org, postId);
    if (!row) throw notFound();
    const after = await approveLocked(tx, deps, approver, row, publishNow);
    const [dto] = await toPostDtos({ ...deps, db: tx }, org, [after]);
    return dto!;
  });
}

/** Whether the post's time has passed (or it has none): approving it then publishes it now. */
const timePassed = (row: postsRepo.PostRow, now: Date) =>
  !row.scheduledAt || row.scheduledAt.getTime() <= now.getTime();

/**
 * The one code of an approval, for a post locked in `tx` (one post, or each of a bulk approval):
 * it must be waiting and publishable; it is scheduled with its jobs, the decision is kept in its
 * history and its author is told. Answers the post as it ends.
 */
async function approveLocked(
  tx: Db,
  deps: Pick<PostsDeps, 'lifecycle' | 'now'>,
  approver: Approver,
  row: postsRepo.PostRow,
  publishNow: boolean,
): Promise<postsRepo.PostRow> {
  const org = approver.organizationId;
  const postId = row.id;
  requirePending(row);
  // Approving schedules it: a post a network would refuse is sent back with the reasons.
  await refuseUnpublishable(tx, org, postId);
  const now = deps.now();
  let at = row.scheduledAt;
  if (timePassed(row, now)) {
    if (!publishNow) {
      throw new AppError(
        'CONFLICT',
        'This post’s time has passed. Approve it to publish it now, or edit its time first.',
        { timePassed: true },
      );
    }
    at = now;
  }
  const updated = await postsRepo.updatePost(tx, org, postId, {
    status: 'scheduled',
    scheduledAt: at,
  });
  if (!updated) throw notFound();
  await deps.lifecycle.scheduled(tx, updated);
  await recordApprovalEvent(tx, {
    organizationId: org,
    postId,
    ...decidedBy(approver),
    action: 'approved',
  });
  if (row.createdByUserId && row.createdByUserId !== approver.userId) {
    await recordNotification(
      tx,
      org,
      { userIds: [row.createdByUserId] },
      {
        type: 'POST_APPROVED',
        priority: 'LOW',
        message: `${postLabel(row)} was approved${approver.guest ? ` by ${await deciderName(tx, approver)}` : ''} and is scheduled.`,
        postId,
      },
    );
  }
  // Scheduling may settle the post (partially published): the row as it ends.
  return (await postsRepo.findPost(tx, org, postId))!;
}

/**
 * Rejects a pending post with a reason: it goes back to draft (no time, no jobs), the rejection
 * is kept in its history and its author is notified with the reason.
 */
export async function rejectPost(
  deps: PostsDeps,
  approver: Approver,
  postId: string,
  reason: string,
): Promise<Post> {
  const org = approver.organizationId;
  return deps.db.transaction(async (tx) => {
    const row = await postsRepo.lockPost(tx, org, postId);
    if (!row) throw notFound();
    const updated = await rejectLocked(tx, deps, approver, row, reason);
    const [dto] = await toPostDtos({ ...deps, db: tx }, org, [updated]);
    return dto!;
  });
}

/**
 * The one code of a rejection, for a post locked in `tx`: back to draft without jobs, the
 * decision (and its reason, when given) in its history, its author told. One post's rejection
 * always has a reason; a bulk one may go without.
 */
async function rejectLocked(
  tx: Db,
  deps: Pick<PostsDeps, 'lifecycle'>,
  approver: Approver,
  row: postsRepo.PostRow,
  reason: string | null,
): Promise<postsRepo.PostRow> {
  const org = approver.organizationId;
  const postId = row.id;
  requirePending(row);
  const updated = await postsRepo.updatePost(tx, org, postId, {
    status: 'draft',
    scheduledAt: null,
  });
  if (!updated) throw notFound();
  await deps.lifecycle.unscheduled(tx, updated);
  await recordApprovalEvent(tx, {
    organizationId: org,
    postId,
    ...decidedBy(approver),
    action: 'rejected',
    reason,
  });
  if (row.createdByUserId) {
    const who = await deciderName(tx, approver);
    await recordNotification(
      tx,
      org,
      { userIds: [row.createdByUserId] },
      {
        type: 'POST_REJECTED',
        priority: 'HIGH',
        message: `${postLabel(row)} was rejected by ${who} and is back in drafts.${reason ? ` Reason: ${reason}` : ''}`,
        postId,
      },
    );
  }
  return updated;
}

/** Posts a bulk decision cannot take: those not waiting for approval, with what they are. */
function notWaiting(rows: postsRepo.PostRow[], decision: 'approved' | 'rejected'): Refused {
  return {
    rows: rows.filter((row) => row.status !== 'pending_approval'),
    says: (one) =>
      `${one ? 'is' : 'are'} not waiting for approval and cannot be ${decision} (reload the list to see ${one ? 'its' : 'their'} status)`,
  };
}

/**
 * Approves several pending posts, in one transaction or none: each as `approvePost` does. Posts
 * whose time has passed are named in one 409 (`details.timePassed`) unless `publishNow` says to
 * publish them now.
 */
export async function bulkApprove(
  deps: PostsDeps,
  approver: Approver,
  postIds: string[],
  publishNow: boolean,
): Promise<BulkChangedPost[]> {
  return deps.db.transaction(async (tx) => {
    const rows = await lockChosenPosts(tx, approver.organizationId, postIds);
    const refused = bulkRefusal([notWaiting(rows, 'approved')]);
    if (refused) throw refused;
    const now = deps.now();
    const late = publishNow ? [] : rows.filter((row) => timePassed(row, now));
    if (late.length > 0) {
      const one = late.length === 1;
      throw new AppError(
        'CONFLICT',
        `The time of ${listLabels(late)} has passed. Approve ${one ? 'it' : 'them'} to publish ${one ? 'it' : 'them'} now, or edit ${one ? 'its' : 'their'} time first. Nothing was changed.`,
        { timePassed: true, postIds: late.map((row) => row.id) },
      );
    }
    const approved = await eachPost(rows, (row) =>
      approveLocked(tx, deps, approver, row, publishNow),
    );
    return approved.map(changedPost);
  });
}

/** Rejects several pending posts, in one transaction or none, each as `rejectPost` does. */
export async function bulkReject(
  deps: PostsDeps,
  approver: Approver,
  postIds: string[],
  reason: string | null,
): Promise<BulkChangedPost[]> {
  return deps.db.transaction(async (tx) => {
    const rows = await lockChosenPosts(tx, approver.organizationId, postIds);
    const refused = bulkRefusal([notWaiting(rows, 'rejected')]);
    if (refused) throw refused;
    const rejected = await eachPost(rows, (row) => rejectLocked(tx, deps, approver, row, reason));
    return rejected.map(changedPost);
  });
}
