import {
  ComposerDraftQuerySchema,
  ComposerDraftResponseSchema,
  EmptySuccessSchema,
  HashtagGroupParamsSchema,
  HashtagGroupResponseSchema,
  HashtagGroupsResponseSchema,
  OrgParamsSchema,
  SaveComposerDraftRequestSchema,
  SaveHashtagGroupRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import {
  createHashtagGroup,
  deleteHashtagGroup,
  discardDraft,
  listHashtagGroups,
  readDraft,
  saveDraft,
  updateHashtagGroup,
} from './composer.service.js';

/**
 * The composer's own storage: each member's autosaved draft (docs/product.md#composer-autosave)
 * and the organization's hashtag groups (docs/product.md#hashtag-groups).
 */
export async function composerRoutes(app: FastifyInstance, deps: { db: Db; now: () => Date }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const owner = (orgId: string, request: FastifyRequest) => ({
    organizationId: orgId,
    userId: requireUser(request).user.id,
  });
  const tags = ['composer'];

  api.get(
    '/organizations/:orgId/composer-draft',
    {
      config: { access: { org: 'GET /organizations/:orgId/composer-draft' } },
      schema: {
        tags,
        summary: "The caller's autosaved draft of a new post, or of an edit with `postId`",
        params: OrgParamsSchema,
        querystring: ComposerDraftQuerySchema,
        response: { 200: ComposerDraftResponseSchema },
      },
    },
    async (request) => {
      const draft = await readDraft(
        deps.db,
        owner(request.params.orgId, request),
        request.query.postId ?? null,
      );
      return { status: 'success' as const, data: { draft } };
    },
  );

  api.put(
    '/organizations/:orgId/composer-draft',
    {
      config: { access: { org: 'PUT /organizations/:orgId/composer-draft' } },
      schema: {
        tags,
        summary: "Save the caller's draft (replaces the one kept for the same post)",
        params: OrgParamsSchema,
        body: SaveComposerDraftRequestSchema,
        response: { 200: ComposerDraftResponseSchema },
      },
    },
    async (request) => {
      const draft = await saveDraft(
        deps.db,
        owner(request.params.orgId, request),
        request.body,
        deps.now(),
      );
      return { status: 'success' as const, data: { draft } };
    },
  );

  api.delete(
    '/organizations/:orgId/composer-draft',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/composer-draft' } },
      schema: {
        tags,
        summary: "Discard the caller's draft (after sending it, or on their word)",
        params: OrgParamsSchema,
        querystring: ComposerDraftQuerySchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await discardDraft(
        deps.db,
        owner(request.params.orgId, request),
        request.query.postId ?? null,
      );
      return { status: 'success' as const, data: null };
    },
  );

  const groupTags = ['composer'];
  api.get(
    '/organizations/:orgId/hashtag-groups',
    {
      config: { access: { org: 'GET /organizations/:orgId/hashtag-groups' } },
      schema: {
        tags: groupTags,
        summary: "The organization's hashtag groups, by name",
        params: OrgParamsSchema,
        response: { 200: HashtagGroupsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: { groups: await listHashtagGroups(deps.db, request.params.orgId) },
    }),
  );

  api.post(
    '/organizations/:orgId/hashtag-groups',
    {
      config: { access: { org: 'POST /organizations/:orgId/hashtag-groups' } },
      schema: {
        tags: groupTags,
        summary: 'Save a hashtag group',
        params: OrgParamsSchema,
        body: SaveHashtagGroupRequestSchema,
        response: { 201: HashtagGroupResponseSchema },
      },
    },
    async (request, reply) => {
      const group = await createHashtagGroup(deps.db, request.params.orgId, request.body);
      return reply.status(201).send({ status: 'success' as const, data: { group } });
    },
  );

  api.put(
    '/organizations/:orgId/hashtag-groups/:groupId',
    {
      config: { access: { org: 'PUT /organizations/:orgId/hashtag-groups/:groupId' } },
      schema: {
        tags: groupTags,
        summary: 'Rename a hashtag group or change its hashtags',
        params: HashtagGroupParamsSchema,
        body: SaveHashtagGroupRequestSchema,
        response: { 200: HashtagGroupResponseSchema },
      },
    },
    async (request) => {
      const { orgId, groupId } = request.params;
      const group = await updateHashtagGroup(deps.db, orgId, groupId, request.body, deps.now());
      return { status: 'success' as const, data: { group } };
    },
  );

  api.delete(
    '/organizations/:orgId/hashtag-groups/:groupId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/hashtag-groups/:groupId' } },
      schema: {
        tags: groupTags,
        summary: 'Delete a hashtag group',
        params: HashtagGroupParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await deleteHashtagGroup(deps.db, request.params.orgId, request.params.groupId);
      return { status: 'success' as const, data: null };
    },
  );
}
