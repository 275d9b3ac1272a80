import {
  ApiKeyParamsSchema,
  ApiKeysResponseSchema,
  CreateApiKeyRequestSchema,
  CreateApiKeyResponseSchema,
  MessageResponseSchema,
  OrgParamsSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireMember, requireUser } from '../../http/access.js';
import * as service from './api-keys.service.js';

const tags = ['api-keys'];

/** docs/api.md: an organization's API keys, made and revoked by its managers. */
export async function apiKeysRoutes(
  app: FastifyInstance,
  { db, now }: { db: Db; now: () => Date },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/organizations/:orgId/api-keys',
    {
      config: { access: { org: 'GET /organizations/:orgId/api-keys' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: ApiKeysResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { apiKeys: await service.listApiKeys(db, request.params.orgId) },
    }),
  );

  api.post(
    '/organizations/:orgId/api-keys',
    {
      config: { access: { org: 'POST /organizations/:orgId/api-keys' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: CreateApiKeyRequestSchema,
        response: { 201: CreateApiKeyResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        status: 'success',
        data: await service.createApiKey(
          db,
          requireMember(request),
          requireUser(request),
          request.body,
          now(),
        ),
      }),
  );

  api.delete(
    '/organizations/:orgId/api-keys/:keyId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/api-keys/:keyId' } },
      schema: { tags, params: ApiKeyParamsSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await service.revokeApiKey(
        db,
        requireMember(request),
        requireUser(request),
        request.params.keyId,
        now(),
      );
      return { status: 'success' as const, data: { message: 'API key revoked.' } };
    },
  );
}
