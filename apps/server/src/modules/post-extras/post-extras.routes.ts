import {
  BulkDuplicateResponseSchema,
  BulkPostsRequestSchema,
  CreateInternalCommentRequestSchema,
  DeletedInternalCommentResponseSchema,
  InternalCommentParamsSchema,
  InternalCommentResponseSchema,
  InternalCommentsResponseSchema,
  LinkTrackingSettingsResponseSchema,
  LinkTrackingSettingsSchema,
  OrgParamsSchema,
  PostParamsSchema,
  PostResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/access.js';
import type { PostsDeps } from '../posts/posts.service.js';
import { bulkDuplicate, duplicatePost } from './duplicate.js';
import {
  addInternalComment,
  deleteInternalComment,
  listInternalComments,
} from './internal-comments.js';
import { readLinkTracking, saveLinkTracking } from './link-tracking.js';

/**
 * Composer and team extras: duplicate a post, its internal comments with @mentions,
 * and the organization's default link tracking.
 */
export async function postExtrasRoutes(
  app: FastifyInstance,
  deps: Pick<PostsDeps, 'db' | 'media' | 'now'>,
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const caller = (orgId: string, request: Parameters<typeof requireUser>[0]) => ({
    organizationId: orgId,
    userId: requireUser(request).user.id,
  });

  api.post(
    '/organizations/:orgId/posts/:postId/duplicate',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/:postId/duplicate' } },
      schema: {
        tags: ['posts'],
        summary: 'Duplicate a post as a new draft: its texts, accounts and files, not its time',
        params: PostParamsSchema,
        response: { 201: PostResponseSchema },
      },
    },
    async (request, reply) => {
      const { orgId, postId } = request.params;
      const post = await duplicatePost(deps, caller(orgId, request), postId);
      return reply.status(201).send({ status: 'success' as const, data: { post } });
    },
  );

  api.post(
    '/organizations/:orgId/posts/bulk/duplicate',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/bulk/duplicate' } },
      schema: {
        tags: ['posts'],
        summary: 'Duplicate several posts as new drafts, in the order given (all or none)',
        params: OrgParamsSchema,
        body: BulkPostsRequestSchema,
        response: { 200: BulkDuplicateResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const copies = await bulkDuplicate(deps, caller(orgId, request), request.body.postIds);
      return {
        status: 'success' as const,
        data: {
          postIds: copies.map((c) => c.postId),
          count: copies.length,
          copyIds: copies.map((c) => c.copyId),
        },
      };
    },
  );

  const comments = ['internal comments'];
  api.get(
    '/organizations/:orgId/posts/:postId/internal-comments',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId/internal-comments' } },
      schema: {
        tags: comments,
        summary: "The team's internal comments on a post, oldest first",
        params: PostParamsSchema,
        response: { 200: InternalCommentsResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId } = request.params;
      const list = await listInternalComments(deps.db, orgId, postId, requireUser(request).user.id);
      return { status: 'success' as const, data: { comments: list } };
    },
  );

  api.post(
    '/organizations/:orgId/posts/:postId/internal-comments',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/:postId/internal-comments' } },
      schema: {
        tags: comments,
        summary: 'Add an internal comment; the teammates it @mentions are notified',
        params: PostParamsSchema,
        body: CreateInternalCommentRequestSchema,
        response: { 201: InternalCommentResponseSchema },
      },
    },
    async (request, reply) => {
      const { orgId, postId } = request.params;
      const comment = await addInternalComment(
        deps.db,
        caller(orgId, request),
        postId,
        request.body,
      );
      return reply.status(201).send({ status: 'success' as const, data: { comment } });
    },
  );

  api.delete(
    '/organizations/:orgId/posts/:postId/internal-comments/:commentId',
    {
      config: {
        access: { org: 'DELETE /organizations/:orgId/posts/:postId/internal-comments/:commentId' },
      },
      schema: {
        tags: comments,
        summary: 'Delete one of your own internal comments',
        params: InternalCommentParamsSchema,
        response: { 200: DeletedInternalCommentResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId, commentId } = request.params;
      await deleteInternalComment(deps.db, caller(orgId, request), postId, commentId);
      return { status: 'success' as const, data: { deleted: true as const } };
    },
  );

  api.get(
    '/organizations/:orgId/link-tracking',
    {
      config: { access: { org: 'GET /organizations/:orgId/link-tracking' } },
      schema: {
        tags: ['organizations'],
        summary: "The organization's default link tracking (UTM parameters) for new posts",
        params: OrgParamsSchema,
        response: { 200: LinkTrackingSettingsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: { settings: await readLinkTracking(deps.db, request.params.orgId) },
    }),
  );

  api.put(
    '/organizations/:orgId/link-tracking',
    {
      config: { access: { org: 'PUT /organizations/:orgId/link-tracking' } },
      schema: {
        tags: ['organizations'],
        summary: "Save the organization's default link tracking (UTM parameters)",
        params: OrgParamsSchema,
        body: LinkTrackingSettingsSchema,
        response: { 200: LinkTrackingSettingsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: { settings: await saveLinkTracking(deps.db, request.params.orgId, request.body) },
    }),
  );
}
