import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { BulkPostIdsSchema, PostSchema } from './posts.js';

/**
 * Post approval (docs/product.md#approvals). When an organization requires approval, a member
 * without `post:approve` who schedules or publishes a post submits it instead: it waits as
 * `pending_approval` until an approver approves it (scheduled for its time) or rejects it with a
 * reason (back to draft; the author is notified).
 */
export const APPROVAL_ACTIONS = ['submitted', 'approved', 'rejected'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** The longest rejection reason. */
export const REJECTION_REASON_MAX = 1000;

const ApprovalEventSchema = z.object({
  id: z.string(),
  action: z.enum(APPROVAL_ACTIONS),
  /** The rejection's reason; null for the other actions. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  /** Who did it; null once their account was deleted, or when a client decided (`guest`). */
  user: z.object({ id: z.string(), displayName: z.string().nullable() }).nullable(),
  /** A client who decided through an approval link (docs/product.md#client-approval-links). */
  guest: z.object({ name: z.string().nullable(), email: z.string().nullable() }).nullable(),
});
export type ApprovalEvent = z.infer<typeof ApprovalEventSchema>;

/** `GET /organizations/{orgId}/posts/{postId}/approvals`: the post's approval history, oldest first. */
export const ApprovalEventsResponseSchema = successEnvelope(
  z.object({ events: z.array(ApprovalEventSchema) }),
);

/** `GET /organizations/{orgId}/approvals` (post:approve): the posts waiting, oldest time first. */
export const ApprovalQueueResponseSchema = successEnvelope(
  z.object({ posts: z.array(PostSchema), count: z.number().int().min(0) }),
);

/**
 * `POST /organizations/{orgId}/approvals/{postId}/approve`. A post whose time has passed is
 * published now only when `publishNow` is true; without it the answer is a 409 CONFLICT with
 * `details.timePassed: true`, so the screen can ask first.
 */
export const ApprovePostRequestSchema = z.object({ publishNow: z.boolean().optional() });
export type ApprovePostRequest = z.infer<typeof ApprovePostRequestSchema>;

/** `POST /organizations/{orgId}/approvals/{postId}/reject`: the reason the author will read. */
export const RejectPostRequestSchema = z.object({
  reason: z
    .string({ error: 'Say why the post is rejected.' })
    .trim()
    .min(1, 'Say why the post is rejected.')
    .max(REJECTION_REASON_MAX, `Keep the reason under ${REJECTION_REASON_MAX} characters.`),
});
export type RejectPostRequest = z.infer<typeof RejectPostRequestSchema>;

/**
 * `POST /organizations/{orgId}/posts/bulk/approve` (post:approve): approve several pending posts,
 * all or none, each as one approval would. Posts whose time has passed go out now only with
 * `publishNow: true`; without it the answer is a 409 with `details.timePassed: true` naming them.
 */
export const BulkApproveRequestSchema = z.object({
  postIds: BulkPostIdsSchema,
  publishNow: z.boolean().optional(),
});
export type BulkApproveRequest = z.infer<typeof BulkApproveRequestSchema>;

/**
 * `POST /organizations/{orgId}/posts/bulk/reject` (post:approve): reject several pending posts,
 * all or none. The comment is optional here: every author reads the same one, and a rejection
 * without one says only that the post is back in drafts.
 */
export const BulkRejectRequestSchema = z.object({
  postIds: BulkPostIdsSchema,
  reason: z
    .string()
    .trim()
    .max(REJECTION_REASON_MAX, `Keep the comment under ${REJECTION_REASON_MAX} characters.`)
    .optional(),
});
export type BulkRejectRequest = z.infer<typeof BulkRejectRequestSchema>;
