import {
  ComposerDraftQuerySchema,
  ComposerDraftResponseSchema,
  EmptySuccessSchema,
  OrgParamsSchema,
  SaveComposerDraftRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import { discardDraft, readDraft, saveDraft } from './composer.service.js';

/** The composer's own storage: each member's autosaved draft (docs/product.md#composer-autosave). */
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
}
