import {
  ApprovalEventsResponseSchema,
  ApprovalQueueResponseSchema,
  ApprovePostRequestSchema,
  BulkApproveRequestSchema,
  BulkRejectRequestSchema,
  BulkScheduleResponseSchema,
  OrgParamsSchema,
  PostParamsSchema,
  PostResponseSchema,
  RejectPostRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import type { PostsDeps } from '../posts/posts.service.js';
import {
  approvalEvents,
  approvalQueue,
  approvePost,
  bulkApprove,
  bulkReject,
  rejectPost,
} from './approvals.service.js';

/** docs/product.md#approvals: the queue, approve, reject, and a post's approval history. */
export async function approvalsRoutes(app: FastifyInstance, deps: PostsDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['approvals'];

  api.get(
    '/organizations/:orgId/approvals',
    {
      config: { access: { org: 'GET /organizations/:orgId/approvals' } },
      schema: {
        tags,
        summary: 'The posts waiting for approval (soonest first) and how many wait',
        params: OrgParamsSchema,
        response: { 200: ApprovalQueueResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await approvalQueue(deps, request.params.orgId, requireMember(request)),
    }),
  );

  api.post(
    '/organizations/:orgId/approvals/:postId/approve',
    {
      config: { access: { org: 'POST /organizations/:orgId/approvals/:postId/approve' } },
      schema: {
        tags,
        summary:
          'Approve a pending post: scheduled for its time (publishNow: true when its time has passed)',
        params: PostParamsSchema,
        body: ApprovePostRequestSchema,
        response: { 200: PostResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId } = request.params;
      const approver = { organizationId: orgId, userId: requireUser(request).user.id };
      const post = await approvePost(deps, approver, postId, request.body.publishNow === true);
      return { status: 'success' as const, data: { post } };
    },
  );

  api.post(
    '/organizations/:orgId/approvals/:postId/reject',
    {
      config: { access: { org: 'POST /organizations/:orgId/approvals/:postId/reject' } },
      schema: {
        tags,
        summary: 'Reject a pending post with a reason: back to draft, its author is notified',
        params: PostParamsSchema,
        body: RejectPostRequestSchema,
        response: { 200: PostResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId } = request.params;
      const approver = { organizationId: orgId, userId: requireUser(request).user.id };
      const post = await rejectPost(deps, approver, postId, request.body.reason);
      return { status: 'success' as const, data: { post } };
    },
  );

  // docs/product.md#bulk-actions: each post decided as one is, all or none.
  api.post(
    '/organizations/:orgId/posts/bulk/approve',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/bulk/approve' } },
      schema: {
        tags,
        summary:
          'Approve several pending posts (all or none; publishNow: true for those whose time has passed)',
        params: OrgParamsSchema,
        body: BulkApproveRequestSchema,
        response: { 200: BulkScheduleResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const approver = { organizationId: orgId, userId: requireUser(request).user.id };
      const posts = await bulkApprove(
        deps,
        approver,
        request.body.postIds,
        request.body.publishNow === true,
      );
      return {
        status: 'success' as const,
        data: { postIds: posts.map((p) => p.id), count: posts.length, posts },
      };
    },
  );

  api.post(
    '/organizations/:orgId/posts/bulk/reject',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/bulk/reject' } },
      schema: {
        tags,
        summary:
          'Reject several pending posts, with an optional comment their authors read (all or none)',
        params: OrgParamsSchema,
        body: BulkRejectRequestSchema,
        response: { 200: BulkScheduleResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const approver = { organizationId: orgId, userId: requireUser(request).user.id };
      const posts = await bulkReject(
        deps,
        approver,
        request.body.postIds,
        request.body.reason || null,
      );
      return {
        status: 'success' as const,
        data: { postIds: posts.map((p) => p.id), count: posts.length, posts },
      };
    },
  );

  api.get(
    '/organizations/:orgId/posts/:postId/approvals',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId/approvals' } },
      schema: {
        tags,
        summary: 'The approval history of a post: who submitted, approved or rejected it, and when',
        params: PostParamsSchema,
        response: { 200: ApprovalEventsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        events: await approvalEvents(deps.db, request.params.orgId, request.params.postId),
      },
    }),
  );
}
