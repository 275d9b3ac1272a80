import {
  CommentAccountQuerySchema,
  EmptySuccessSchema,
  CommentParamsSchema,
  CommentsQuerySchema,
  CommentsResponseSchema,
  EditCommentRequestSchema,
  FacebookPermalinkResponseSchema,
  PostEmbedResponseSchema,
  PostPlatformParamsSchema,
  ReplyRequestSchema,
  ReplyResponseSchema,
  webUrlOrNull,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireMember } from '../../http/access.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import {
  deleteComment,
  editComment,
  listComments,
  publishedTarget,
  replyToComment,
  type CommentsDeps,
} from './comments.service.js';

const stringOf = (value: unknown) => (typeof value === 'string' ? value : null);

export async function commentsRoutes(app: FastifyInstance, deps: CommentsDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The caller's accounts: a member limited to some reaches only those accounts' comments. */
  const limitedTo = (request: FastifyRequest): CommentsDeps => ({
    ...deps,
    accountIds: requireMember(request).accountIds,
  });

  api.get(
    '/organizations/:orgId/posts/:postId/media/:platformId',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId/media/:platformId' } },
      schema: {
        tags: ['posts'],
        summary: 'What the embed of a published post needs (Instagram shortcode, permalink)',
        params: PostPlatformParamsSchema,
        response: { 200: PostEmbedResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId, platformId } = request.params;
      const target = await publishedTarget(
        deps.db,
        orgId,
        postId,
        platformId,
        undefined,
        requireMember(request).accountIds,
      );
      const embed = target.embed ?? {};
      return {
        status: 'success' as const,
        data: {
          data: {
            platformName: target.platformName,
            externalId: target.externalId,
            shortcode: stringOf(embed.shortcode),
            permalink: webUrlOrNull(target.permalink),
            username: stringOf(embed.tiktokUsername) ?? stringOf(embed.username),
          },
        },
      };
    },
  );

  api.get(
    '/organizations/:orgId/posts/:postId/media/:platformId/facebook',
    {
      config: {
        access: { org: 'GET /organizations/:orgId/posts/:postId/media/:platformId/facebook' },
      },
      schema: {
        tags: ['posts'],
        params: PostPlatformParamsSchema,
        response: { 200: FacebookPermalinkResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId, platformId } = request.params;
      const target = await publishedTarget(
        deps.db,
        orgId,
        postId,
        platformId,
        undefined,
        requireMember(request).accountIds,
      );
      const permalink = webUrlOrNull(target.permalink);
      if (!permalink) {
        throw new AppError(
          'NOT_FOUND',
          `No permalink is known for this post on ${target.platformName}.`,
        );
      }
      return { status: 'success' as const, data: { permalink } };
    },
  );

  api.get(
    '/organizations/:orgId/posts/:postId/comments/:platformId',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId/comments/:platformId' } },
      schema: {
        tags: ['comments'],
        params: PostPlatformParamsSchema,
        querystring: CommentsQuerySchema,
        response: { 200: CommentsResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId, platformId } = request.params;
      const { comments, nextCursor } = await listComments(
        limitedTo(request),
        orgId,
        postId,
        platformId,
        request.query,
      );
      return { status: 'success' as const, data: { comments }, meta: { nextCursor } };
    },
  );

  api.post(
    '/organization/:orgId/platform/:platformId/comment/:commentId/replies',
    {
      config: {
        access: {
          org: 'POST /organization/:orgId/platform/:platformId/comment/:commentId/replies',
        },
      },
      schema: {
        tags: ['comments'],
        params: CommentParamsSchema,
        body: ReplyRequestSchema,
        response: { 200: ReplyResponseSchema },
      },
    },
    async (request) => {
      const { orgId, platformId, commentId } = request.params;
      const reply = await replyToComment(
        limitedTo(request),
        orgId,
        platformId,
        commentId,
        request.body,
      );
      return { status: 'success' as const, data: { data: reply } };
    },
  );

  api.put(
    '/organization/:orgId/platform/:platformId/comment/:commentId',
    {
      config: {
        access: { org: 'PUT /organization/:orgId/platform/:platformId/comment/:commentId' },
      },
      schema: {
        tags: ['comments'],
        params: CommentParamsSchema,
        body: EditCommentRequestSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      const { orgId, platformId, commentId } = request.params;
      const { message, integrationId } = request.body;
      await editComment(limitedTo(request), orgId, platformId, commentId, message, integrationId);
      return { status: 'success' as const, data: null };
    },
  );

  api.delete(
    '/organization/:orgId/platform/:platformId/comment/:commentId',
    {
      config: {
        access: { org: 'DELETE /organization/:orgId/platform/:platformId/comment/:commentId' },
      },
      schema: {
        tags: ['comments'],
        params: CommentParamsSchema,
        querystring: CommentAccountQuerySchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      const { orgId, platformId, commentId } = request.params;
      await deleteComment(
        limitedTo(request),
        orgId,
        platformId,
        commentId,
        request.query.integrationId,
      );
      return { status: 'success' as const, data: null };
    },
  );
}
