import {
  EmptySuccessSchema,
  PublishNowRequestSchema,
  PublishNowResponseSchema,
  PostParamsSchema,
  ResolveTargetRequestSchema,
  TargetParamsSchema,
  FollowUpParamsSchema,
  ResolveFollowUpRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { PublishQueue } from './publish-queue.js';
import type { Publisher } from './publisher.js';
import { publishNow, resolveTarget } from './publishing.service.js';
import { resolveFollowUp, retryFollowUps } from './follow-ups.service.js';
import { guardPublishNow } from '../approvals/approval-rule.js';
import { findPost } from '../posts/posts.lookups.js';
import { requireMember, requireUser } from '../../http/access.js';

export interface PublishingRouteDeps {
  db: Db;
  publisher: Publisher;
  queue: PublishQueue;
  now: () => Date;
}

export async function publishingRoutes(app: FastifyInstance, deps: PublishingRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.patch(
    '/organizations/:orgId/post/:postId/publish',
    {
      config: { access: { org: 'PATCH /organizations/:orgId/post/:postId/publish' } },
      schema: {
        tags: ['posts'],
        summary: 'Publish a post now to the named networks',
        params: PostParamsSchema,
        body: PublishNowRequestSchema,
        response: { 200: PublishNowResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId } = request.params;
      await guardPublishNow(
        deps.db,
        {
          organizationId: orgId,
          userId: requireUser(request).user.id,
          canApprove: requireMember(request).permissions.includes('post:approve'),
        },
        await findPost(deps.db, orgId, postId),
      );
      return publishNow({ ...deps, log: request.log }, orgId, postId, request.body.platforms);
    },
  );

  api.post(
    '/organizations/:orgId/posts/:postId/targets/:targetId/resolve',
    {
      config: {
        access: { org: 'POST /organizations/:orgId/posts/:postId/targets/:targetId/resolve' },
      },
      schema: {
        tags: ['posts'],
        summary: 'Say what happened to an uncertain publication: published, or retry',
        params: TargetParamsSchema,
        body: ResolveTargetRequestSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      const { orgId, postId, targetId } = request.params;
      await resolveTarget(deps, orgId, postId, targetId, request.body);
      return { status: 'success' as const, data: null };
    },
  );

  api.post(
    '/organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/retry',
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/retry',
        },
      },
      schema: {
        tags: ['posts'],
        summary: 'Publish the failed and waiting parts and first comment of a publication again',
        params: TargetParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      const { orgId, postId, targetId } = request.params;
      await retryFollowUps({ ...deps, log: request.log }, orgId, postId, targetId);
      return { status: 'success' as const, data: null };
    },
  );

  api.post(
    '/organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/:followUpId/resolve',
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/:followUpId/resolve',
        },
      },
      schema: {
        tags: ['posts'],
        summary: 'Say what happened to an uncertain part or first comment: published, or retry',
        params: FollowUpParamsSchema,
        body: ResolveFollowUpRequestSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      const { orgId, postId, targetId, followUpId } = request.params;
      await resolveFollowUp(
        { ...deps, log: request.log },
        { orgId, postId, targetId, followUpId },
        request.body,
      );
      return { status: 'success' as const, data: null };
    },
  );
}
