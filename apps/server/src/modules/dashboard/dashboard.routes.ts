import { DashboardResponseSchema, OrgParamsSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireMember, requireUser } from '../../http/access.js';
import { callerTimeZone } from '../../http/time-zone.js';
import { getDashboard } from './dashboard.service.js';
import type { DashboardPostSource } from './posts-source.js';

export async function dashboardRoutes(
  app: FastifyInstance,
  { db, posts }: { db: Db; posts: DashboardPostSource },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/organizations/:orgId/dashboard',
    {
      config: { access: { org: 'GET /organizations/:orgId/dashboard' } },
      schema: {
        tags: ['dashboard'],
        params: OrgParamsSchema,
        response: { 200: DashboardResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await getDashboard(
        db,
        posts,
        request.params.orgId,
        requireUser(request).user.id,
        callerTimeZone(request).zone,
        requireMember(request).permissions.includes('analytics:view'),
        requireMember(request).permissions.includes('dm:view'),
        requireMember(request),
      ),
    }),
  );
}
