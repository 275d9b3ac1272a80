import { TikTokCreatorInfoParamsSchema, TikTokCreatorInfoResponseSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { reachesAccount } from '../team/account-access.js';
import { readCreatorInfo, type TikTokComposeDeps } from './tiktok.service.js';

/** Compose-time reads for TikTok accounts (docs/networks.md#tiktok-conformance). */
export async function tiktokRoutes(app: FastifyInstance, deps: TikTokComposeDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/organizations/:orgId/integrations/:integrationId/tiktok/creator-info',
    {
      config: {
        access: {
          org: 'GET /organizations/:orgId/integrations/:integrationId/tiktok/creator-info',
        },
      },
      schema: {
        tags: ['integrations'],
        summary: 'What TikTok lets this account post now: nickname, privacy levels, interactions',
        params: TikTokCreatorInfoParamsSchema,
        response: { 200: TikTokCreatorInfoResponseSchema },
      },
    },
    async (request) => {
      // An account outside a limited member's reach reads as not connected.
      if (!reachesAccount(requireMember(request), request.params.integrationId))
        throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
      return {
        status: 'success' as const,
        data: {
          creator: await readCreatorInfo(deps, request.params.orgId, request.params.integrationId),
        },
      };
    },
  );
}
