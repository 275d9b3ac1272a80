import {
  PlanParamsSchema,
  PlanResponseSchema,
  PlansListResponseSchema,
  PlansQuerySchema,
  SavePlanRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { actorOf } from '../audit/audit.service.js';
import * as service from './plans.service.js';

const tags = ['plans'];

export async function plansRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/plans',
    {
      config: { access: 'optional' },
      schema: { tags, querystring: PlansQuerySchema, response: { 200: PlansListResponseSchema } },
    },
    async (request) => {
      const { plans, meta } = await service.listPlans(db, {
        isAdmin: Boolean(request.auth?.user.isAdmin),
        isSignedIn: request.auth !== null,
        ...request.query,
      });
      return { status: 'success' as const, data: { plans }, ...(meta ? { meta } : {}) };
    },
  );

  api.get(
    '/plans/:id',
    {
      config: { access: 'optional' },
      schema: { tags, params: PlanParamsSchema, response: { 200: PlanResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        plan: await service.getPlan(db, request.params.id, Boolean(request.auth?.user.isAdmin)),
      },
    }),
  );

  api.post(
    '/plans',
    {
      config: { access: 'admin' },
      schema: { tags, body: SavePlanRequestSchema, response: { 201: PlanResponseSchema } },
    },
    async (request, reply) =>
      reply.status(201).send({
        status: 'success',
        data: { plan: await service.createPlan(db, request.body, actorOf(request)) },
      }),
  );

  api.put(
    '/plans/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        params: PlanParamsSchema,
        body: SavePlanRequestSchema,
        response: { 200: PlanResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        plan: await service.updatePlan(db, request.params.id, request.body, actorOf(request)),
      },
    }),
  );
}
