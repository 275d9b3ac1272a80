import { TikTokCreatorInfoParamsSchema, TikTokCreatorInfoResponseSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
    async (request) => ({
      status: 'success' as const,
      data: {
        creator: await readCreatorInfo(deps, request.params.orgId, request.params.integrationId),
      },
    }),
  );
}
