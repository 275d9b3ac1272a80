import {
  CreateEvergreenCollectionRequestSchema,
  EmptySuccessSchema,
  EvergreenCollectionDetailResponseSchema,
  EvergreenCollectionListResponseSchema,
  EvergreenCollectionParamsSchema,
  EvergreenPostParamsSchema,
  EvergreenPostsRequestSchema,
  EvergreenProjectionQuerySchema,
  EvergreenProjectionResponseSchema,
  OrgParamsSchema,
  PostParamsSchema,
  PostRepeatResponseSchema,
  PutPostRepeatRequestSchema,
  UpdateEvergreenCollectionRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import type { PostsDeps } from '../posts/posts.service.js';
import * as service from './evergreen.service.js';

const tags = ['evergreen'];
const base = '/organizations/:orgId/evergreen-collections';
const one = `${base}/:collectionId`;
const repeat = '/organizations/:orgId/posts/:postId/repeat';

const memberOf = (request: FastifyRequest, organizationId: string): service.EvergreenMember => ({
  organizationId,
  userId: requireUser(request).user.id,
  accountIds: requireMember(request).accountIds,
});

/** docs/evergreen.md: evergreen collections, their calendar projection, and repeating posts. */
export async function evergreenRoutes(app: FastifyInstance, opts: PostsDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: service.EvergreenDeps = { ...opts, log: app.log };
  const ok = <T>(data: T) => ({ status: 'success' as const, data });

  api.get(
    base,
    {
      config: { access: { org: 'GET /organizations/:orgId/evergreen-collections' } },
      schema: {
        tags,
        summary:
          "The organization's evergreen collections (those whose accounts the member reaches)",
        params: OrgParamsSchema,
        response: { 200: EvergreenCollectionListResponseSchema },
      },
    },
    async (request) =>
      ok({
        collections: await service.listCollections(deps, memberOf(request, request.params.orgId)),
      }),
  );

  api.post(
    base,
    {
      config: { access: { org: 'POST /organizations/:orgId/evergreen-collections' } },
      schema: {
        tags,
        summary: 'Create a collection whose posts refill the empty queue slots of its accounts',
        params: OrgParamsSchema,
        body: CreateEvergreenCollectionRequestSchema,
        response: { 201: EvergreenCollectionDetailResponseSchema },
      },
    },
    async (request, reply) => {
      const created = await service.createCollection(
        deps,
        memberOf(request, request.params.orgId),
        request.body,
      );
      reply.code(201);
      return ok(created);
    },
  );

  api.get(
    `${base}/projection`,
    {
      config: { access: { org: 'GET /organizations/:orgId/evergreen-collections/projection' } },
      schema: {
        tags,
        summary:
          'What the collections will put in the empty slots of a range (the calendar shows it)',
        params: OrgParamsSchema,
        querystring: EvergreenProjectionQuerySchema,
        response: { 200: EvergreenProjectionResponseSchema },
      },
    },
    async (request) =>
      ok({
        fills: await service.projection(
          deps,
          memberOf(request, request.params.orgId),
          request.query,
        ),
      }),
  );

  api.get(
    one,
    {
      config: { access: { org: 'GET /organizations/:orgId/evergreen-collections/:collectionId' } },
      schema: {
        tags,
        summary: 'A collection with its posts, how often each went out and when last',
        params: EvergreenCollectionParamsSchema,
        response: { 200: EvergreenCollectionDetailResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.getCollection(
          deps,
          memberOf(request, request.params.orgId),
          request.params.collectionId,
        ),
      ),
  );

  api.patch(
    one,
    {
      config: {
        access: { org: 'PATCH /organizations/:orgId/evergreen-collections/:collectionId' },
      },
      schema: {
        tags,
        summary: "Change a collection's name, accounts, interval or end, or pause/resume it",
        params: EvergreenCollectionParamsSchema,
        body: UpdateEvergreenCollectionRequestSchema,
        response: { 200: EvergreenCollectionDetailResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.updateCollection(
          deps,
          memberOf(request, request.params.orgId),
          request.params.collectionId,
          request.body,
        ),
      ),
  );

  api.delete(
    one,
    {
      config: {
        access: { org: 'DELETE /organizations/:orgId/evergreen-collections/:collectionId' },
      },
      schema: {
        tags,
        summary: 'Remove a collection (its posts and the copies already made stay)',
        params: EvergreenCollectionParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteCollection(
        deps,
        memberOf(request, request.params.orgId),
        request.params.collectionId,
      );
      return ok(null);
    },
  );

  api.post(
    `${one}/posts`,
    {
      config: {
        access: { org: 'POST /organizations/:orgId/evergreen-collections/:collectionId/posts' },
      },
      schema: {
        tags,
        summary: 'Add existing posts to the collection, after its others',
        params: EvergreenCollectionParamsSchema,
        body: EvergreenPostsRequestSchema,
        response: { 200: EvergreenCollectionDetailResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.addPosts(
          deps,
          memberOf(request, request.params.orgId),
          request.params.collectionId,
          request.body.postIds,
        ),
      ),
  );

  api.delete(
    `${one}/posts/:postId`,
    {
      config: {
        access: {
          org: 'DELETE /organizations/:orgId/evergreen-collections/:collectionId/posts/:postId',
        },
      },
      schema: {
        tags,
        summary: 'Take a post out of the collection (the post and its copies stay)',
        params: EvergreenPostParamsSchema,
        response: { 200: EvergreenCollectionDetailResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.removePost(
          deps,
          memberOf(request, request.params.orgId),
          request.params.collectionId,
          request.params.postId,
        ),
      ),
  );

  api.get(
    repeat,
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId/repeat' } },
      schema: {
        tags,
        summary: 'How the post repeats (null: it does not)',
        params: PostParamsSchema,
        response: { 200: PostRepeatResponseSchema },
      },
    },
    async (request) =>
      ok({
        repeat: await service.getRepeat(
          deps,
          memberOf(request, request.params.orgId),
          request.params.postId,
        ),
      }),
  );

  api.put(
    repeat,
    {
      config: { access: { org: 'PUT /organizations/:orgId/posts/:postId/repeat' } },
      schema: {
        tags,
        summary:
          'Repeat the post every N days or weeks until a date (the next occurrence is made when one goes out)',
        params: PostParamsSchema,
        body: PutPostRepeatRequestSchema,
        response: { 200: PostRepeatResponseSchema },
      },
    },
    async (request) =>
      ok({
        repeat: await service.putRepeat(
          deps,
          memberOf(request, request.params.orgId),
          request.params.postId,
          request.body,
        ),
      }),
  );

  api.delete(
    repeat,
    {
      config: { access: { org: 'DELETE /organizations/:orgId/posts/:postId/repeat' } },
      schema: {
        tags,
        summary: 'Stop the post repeating (what went out stays)',
        params: PostParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteRepeat(
        deps,
        memberOf(request, request.params.orgId),
        request.params.postId,
      );
      return ok(null);
    },
  );
}
