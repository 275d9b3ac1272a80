import {
  CreateFeedRequestSchema,
  EmptySuccessSchema,
  FeedCheckResponseSchema,
  FeedDetailResponseSchema,
  FeedListResponseSchema,
  FeedParamsSchema,
  FeedPreviewResponseSchema,
  PreviewFeedRequestSchema,
  FeedResponseSchema,
  OrgParamsSchema,
  UpdateFeedRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import type { FeedsDeps } from './feed-check.js';
import * as service from './feeds.service.js';
import { websubCallbackRoutes } from './websub.routes.js';

const tags = ['feeds'];
const base = '/organizations/:orgId/feeds';
const one = `${base}/:feedId`;

const memberOf = (request: FastifyRequest, organizationId: string): service.FeedsMember => ({
  organizationId,
  userId: requireUser(request).user.id,
  accountIds: requireMember(request).accountIds,
});

/** docs/feeds.md: RSS, Atom and JSON feeds whose new items become posts. */
export async function feedsRoutes(app: FastifyInstance, opts: Omit<FeedsDeps, 'log'>) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: FeedsDeps = { ...opts, log: app.log };
  const ok = <T>(data: T) => ({ status: 'success' as const, data });
  await app.register(websubCallbackRoutes, { deps });

  api.get(
    base,
    {
      config: { access: { org: 'GET /organizations/:orgId/feeds' } },
      schema: {
        tags,
        summary: "The organization's feeds (those whose accounts the member reaches)",
        params: OrgParamsSchema,
        response: { 200: FeedListResponseSchema },
      },
    },
    async (request) =>
      ok({ feeds: await service.listFeeds(deps, memberOf(request, request.params.orgId)) }),
  );

  api.post(
    base,
    {
      config: { access: { org: 'POST /organizations/:orgId/feeds' } },
      schema: {
        tags,
        summary: 'Add a feed; it is read at once (importLatest newest items become posts)',
        params: OrgParamsSchema,
        body: CreateFeedRequestSchema,
        response: { 201: FeedCheckResponseSchema },
      },
    },
    async (request, reply) => {
      const created = await service.createFeed(
        deps,
        memberOf(request, request.params.orgId),
        request.body,
      );
      reply.code(201);
      return ok(created);
    },
  );

  api.post(
    `${base}/preview`,
    {
      config: { access: { org: 'POST /organizations/:orgId/feeds/preview' } },
      schema: {
        tags,
        summary: "Read a feed without adding it: its title and its newest item's post text",
        params: OrgParamsSchema,
        body: PreviewFeedRequestSchema,
        response: { 200: FeedPreviewResponseSchema },
      },
    },
    async (request) => ok({ preview: await service.previewFeed(deps, request.body) }),
  );

  api.get(
    one,
    {
      config: { access: { org: 'GET /organizations/:orgId/feeds/:feedId' } },
      schema: {
        tags,
        summary: 'A feed with its latest 50 items and what became of each',
        params: FeedParamsSchema,
        response: { 200: FeedDetailResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.getFeed(deps, memberOf(request, request.params.orgId), request.params.feedId),
      ),
  );

  api.patch(
    one,
    {
      config: { access: { org: 'PATCH /organizations/:orgId/feeds/:feedId' } },
      schema: {
        tags,
        summary: "Change a feed's address, accounts, destination or template, or pause/resume it",
        params: FeedParamsSchema,
        body: UpdateFeedRequestSchema,
        response: { 200: FeedResponseSchema },
      },
    },
    async (request) =>
      ok({
        feed: await service.updateFeed(
          deps,
          memberOf(request, request.params.orgId),
          request.params.feedId,
          request.body,
        ),
      }),
  );

  api.delete(
    one,
    {
      config: { access: { org: 'DELETE /organizations/:orgId/feeds/:feedId' } },
      schema: {
        tags,
        summary: 'Remove a feed (the posts it made stay)',
        params: FeedParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteFeed(
        deps,
        memberOf(request, request.params.orgId),
        request.params.feedId,
      );
      return ok(null);
    },
  );

  api.post(
    `${one}/check`,
    {
      config: { access: { org: 'POST /organizations/:orgId/feeds/:feedId/check' } },
      schema: {
        tags,
        summary: 'Check the feed now and answer what the check did',
        params: FeedParamsSchema,
        response: { 200: FeedCheckResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.checkNow(
          deps,
          memberOf(request, request.params.orgId),
          request.params.feedId,
        ),
      ),
  );
}
