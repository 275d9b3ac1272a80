import type { ApprovalAction } from '@herald/contract';
import { emitWebhookEvent } from '../outgoing-webhooks/outgoing-webhooks.events.js';
import { insertEvent } from './approvals.repository.js';

const WEBHOOK_OF_ACTION = {
  submitted: 'approval.requested',
  approved: 'approval.approved',
  rejected: 'approval.rejected',
} as const satisfies Record<ApprovalAction, string>;

/**
 * Adds a step to a post's approval history (who submitted, approved or rejected it, and why),
 * inside the caller's transaction, and tells the organization's webhooks in the same one: every
 * step goes through here, for this module and for others whose writes are such a step (an
 * approver giving a waiting post its time approves it).
 */
export async function recordApprovalEvent(...args: Parameters<typeof insertEvent>) {
  const [db, event] = args;
  await insertEvent(db, event);
  await emitWebhookEvent(db, event.organizationId, WEBHOOK_OF_ACTION[event.action], {
    postId: event.postId,
    userId: event.userId,
    ...(event.guestName ? { guestName: event.guestName } : {}),
    ...(event.reason ? { reason: event.reason } : {}),
  });
}
