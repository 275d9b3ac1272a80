import { BlueskyVideoLimitsParamsSchema, BlueskyVideoLimitsResponseSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { reachesAccount } from '../team/account-access.js';
import { type BlueskyComposeDeps, readVideoLimits } from './bluesky.service.js';

/** Compose-time reads for Bluesky accounts (docs/networks.md#bluesky-limits). */
export async function blueskyRoutes(app: FastifyInstance, deps: BlueskyComposeDeps) {
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
