import { insertEvent } from './approvals.repository.js';

/**
 * Adds a step to a post's approval history (who submitted, approved or rejected it, and why),
 * inside the caller's transaction: for other modules whose writes are such a step (an approver
 * giving a waiting post its time approves it).
 */
export function recordApprovalEvent(...args: Parameters<typeof insertEvent>) {
  return insertEvent(...args);
}
