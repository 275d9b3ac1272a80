import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordNotification } from '../notifications/notifications.service.js';
import { postLabel } from '../publishing/outcome-notifications.js';
import { recordApprovalEvent } from './approval-events.js';
import { approvalSetting, approverUserIds, memberRoleId } from './approvals.repository.js';

/**
 * Who is asking: whether they hold post:approve (absent counts as not holding it), and the user
 * whose role decides when approval is only for chosen roles.
 */
export interface ApprovalCaller {
  organizationId: string;
  userId?: string | null;
  canApprove?: boolean;
}

/**
 * docs/product.md#approvals: whether this caller's schedule or publish becomes a submission.
 * Approvers never submit; others do when their organization requires approval and either no
 * roles are chosen or their role is one of the chosen. A caller whose role is unknown submits.
 */
export async function mustSubmit(db: Db, caller: ApprovalCaller): Promise<boolean> {
  if (caller.canApprove) return false;
  const setting = await approvalSetting(db, caller.organizationId);
  if (!setting.required) return false;
  if (setting.roleIds.length === 0 || !caller.userId) return true;
  const roleId = await memberRoleId(db, caller.organizationId, caller.userId);
  return roleId === null || setting.roleIds.includes(roleId);
}

/**
 * "Publish now" on a post: a post waiting for approval goes out only once approved, and a member
 * who must submit cannot publish a draft directly (they schedule it, which submits it).
 */
export async function guardPublishNow(
  db: Db,
  caller: ApprovalCaller,
  post: { status: string } | null,
): Promise<void> {
  if (!post) return;
  if (post.status === 'pending_approval') {
    throw new AppError(
      'CONFLICT',
      'This post is waiting for approval. An approver publishes it by approving it on the Approvals page.',
    );
  }
  if (post.status === 'draft' && (await mustSubmit(db, caller))) {
    throw new AppError(
      'FORBIDDEN',
      'Posts in this organization need approval before they go out. Submit it for approval instead.',
    );
  }
}

/**
 * Records that a post was submitted for approval and tells the organization's approvers, in the
 * caller's transaction (the post, its history and the notifications commit together).
 */
export async function recordSubmission(
  db: Db,
  submitter: { organizationId: string; userId: string | null },
  post: {
    id: string;
    title: string | null;
    content: string;
    contentByPlatform: Record<string, string> | null;
  },
): Promise<void> {
  await recordApprovalEvent(db, {
    organizationId: submitter.organizationId,
    postId: post.id,
    userId: submitter.userId,
    action: 'submitted',
  });
  const approvers = (await approverUserIds(db, submitter.organizationId)).filter(
    (id) => id !== submitter.userId,
  );
  if (approvers.length === 0) return;
  await recordNotification(
    db,
    submitter.organizationId,
    { userIds: approvers },
    {
      type: 'POST_SUBMITTED',
      priority: 'MEDIUM',
      message: `${postLabel(post)} was submitted for approval. Review it on the Approvals page.`,
      postId: post.id,
    },
  );
}
