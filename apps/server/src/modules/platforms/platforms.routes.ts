import {
  CreatePlatformRequestSchema,
  PlatformParamsSchema,
  PlatformResponseSchema,
  PlatformsResponseSchema,
  PublicMediaUrlResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import { actorOf } from '../audit/audit.service.js';
import * as service from './platforms.service.js';

const tags = ['platforms'];

export async function platformsRoutes(
  app: FastifyInstance,
  {
    db,
    networks,
    apiPublicUrl,
  }: { db: Db; networks: Map<string, NetworkRuntime>; apiPublicUrl: string },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/platforms/public-media-url',
    {
      // What the start-up log says about media URLs, for operators in the back-office.
      config: { access: 'admin' },
      schema: { tags, response: { 200: PublicMediaUrlResponseSchema } },
    },
    async () => ({
      status: 'success' as const,
      data: { finding: await service.getPublicMediaUrlFinding(db, networks, apiPublicUrl) },
    }),
  );

  api.get(
    '/platforms/supported',
    { config: { access: 'public' }, schema: { tags, response: { 200: PlatformsResponseSchema } } },
    async () => ({
      status: 'success' as const,
      data: { platforms: await service.listPlatforms(db, networks, true) },
    }),
  );

  api.get(
    '/platforms',
    {
      // The back-office's list, inactive platforms included; members read /platforms/supported.
      config: { access: 'admin' },
      schema: { tags, response: { 200: PlatformsResponseSchema } },
    },
    async () => ({
      status: 'success' as const,
      data: { platforms: await service.listPlatforms(db, networks, false) },
    }),
  );

  api.post(
    '/platforms',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        body: CreatePlatformRequestSchema,
        response: { 201: PlatformResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        status: 'success',
        data: {
          platform: await service.createPlatform(db, networks, request.body, actorOf(request)),
        },
      }),
  );

  for (const [action, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    api.put(
      `/platforms/:id/${action}`,
      {
        config: { access: 'admin' },
        schema: { tags, params: PlatformParamsSchema, response: { 200: PlatformResponseSchema } },
      },
      async (request) => ({
        status: 'success' as const,
        data: {
          platform: await service.setActive(
            db,
            networks,
            request.params.id,
            isActive,
            actorOf(request),
          ),
        },
      }),
    );
  }
}
