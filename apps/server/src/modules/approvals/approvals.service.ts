import type { ApprovalEvent, Post } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordNotification } from '../notifications/notifications.service.js';
import { postLabel } from '../publishing/outcome-notifications.js';
import { toPostDtos } from '../posts/post-dto.js';
import * as postsRepo from '../posts/posts.lookups.js';
import type { PostsDeps } from '../posts/posts.service.js';
import * as repo from './approvals.repository.js';
import { refuseUnpublishable } from '../posts/publish-check.js';

/** The most posts the queue lists at once (the count says how many wait in all). */
export const APPROVAL_QUEUE_CAP = 200;

export interface Approver {
  organizationId: string;
  userId: string;
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

export async function approvalQueue(deps: Pick<PostsDeps, 'db' | 'media'>, organizationId: string) {
  const [rows, count] = await Promise.all([
    repo.pendingPosts(deps.db, organizationId, APPROVAL_QUEUE_CAP),
    repo.countPending(deps.db, organizationId),
  ]);
  return { posts: await toPostDtos(deps, organizationId, rows), count };
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
    requirePending(row);
    // Approving schedules it: a post a network would refuse is sent back with the reasons.
    await refuseUnpublishable(tx, org, postId);
    const now = deps.now();
    let at = row.scheduledAt;
    if (!at || at.getTime() <= now.getTime()) {
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
    await repo.insertEvent(tx, {
      organizationId: org,
      postId,
      userId: approver.userId,
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
          message: `${postLabel(row)} was approved and is scheduled.`,
          postId,
        },
      );
    }
    // Scheduling may settle the post (partially published); answer with the row as it ends.
    const after = (await postsRepo.findPost(tx, org, postId))!;
    const [dto] = await toPostDtos({ ...deps, db: tx }, org, [after]);
    return dto!;
  });
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
    requirePending(row);
    const updated = await postsRepo.updatePost(tx, org, postId, {
      status: 'draft',
      scheduledAt: null,
    });
    if (!updated) throw notFound();
    await deps.lifecycle.unscheduled(tx, updated);
    await repo.insertEvent(tx, {
      organizationId: org,
      postId,
      userId: approver.userId,
      action: 'rejected',
      reason,
    });
    if (row.createdByUserId) {
      const who = (await repo.displayNameOf(tx, approver.userId)) ?? 'An approver';
      await recordNotification(
        tx,
        org,
        { userIds: [row.createdByUserId] },
        {
          type: 'POST_REJECTED',
          priority: 'HIGH',
          message: `${postLabel(row)} was rejected by ${who} and is back in drafts. Reason: ${reason}`,
          postId,
        },
      );
    }
    const [dto] = await toPostDtos({ ...deps, db: tx }, org, [updated]);
    return dto!;
  });
}
