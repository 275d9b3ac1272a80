import { BlueskyVideoLimitsParamsSchema, BlueskyVideoLimitsResponseSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { reachesAccount } from '../team/account-access.js';
import { type BlueskyComposeDeps, readVideoLimits } from './bluesky.service.js';

/**
 * Compose-time reads for Bluesky accounts (docs/networks.md#bluesky-limits), and the documents
 * authorization servers read of Herald as an OAuth client (docs/networks.md#bluesky-oauth).
 */
export async function blueskyRoutes(app: FastifyInstance, deps: BlueskyComposeDeps) {
  const documents = () => {
    const served = deps.networks.get('bluesky')?.adapter.oauthDocuments?.() ?? null;
    if (!served)
      throw new AppError(
        'NOT_FOUND',
        'Herald signs in to Bluesky with app passwords here: it has no public https address.',
      );
    return served;
  };
  app.get(
    '/oauth/bluesky/client-metadata.json',
    { config: { access: 'public' }, schema: { tags: ['integrations'], hide: true } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=600').send(documents().clientMetadata),
  );
  app.get(
    '/oauth/bluesky/jwks.json',
    { config: { access: 'public' }, schema: { tags: ['integrations'], hide: true } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=600').send(documents().jwks),
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/organizations/:orgId/integrations/:integrationId/bluesky/video-limits',
    {
      config: {
        access: {
          org: 'GET /organizations/:orgId/integrations/:integrationId/bluesky/video-limits',
        },
      },
      schema: {
        tags: ['integrations'],
        summary: 'The videos and bytes Bluesky lets this account upload today',
        params: BlueskyVideoLimitsParamsSchema,
        response: { 200: BlueskyVideoLimitsResponseSchema },
      },
    },
    async (request) => {
      // An account outside a limited member's reach reads as not connected.
      if (!reachesAccount(requireMember(request), request.params.integrationId))
        throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
      return {
        status: 'success' as const,
        data: {
          limits: await readVideoLimits(deps, request.params.orgId, request.params.integrationId),
        },
      };
    },
  );
}
