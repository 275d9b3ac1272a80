import {
  AdminActivityQuerySchema,
  AdminActivityResponseSchema,
  AdminOverviewResponseSchema,
  AdminUsersQuerySchema,
  AdminUsersResponseSchema,
  AnalyticsCollectBodySchema,
  AnalyticsCollectResponseSchema,
  AuditLogQuerySchema,
  AuditLogResponseSchema,
  NetworkSetupQuerySchema,
  NetworkSetupResponseSchema,
  UserParamsSchema,
  UserResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { AnalyticsCollector } from '../analytics/analytics.service.js';
import { listAuditLog } from '../audit/audit.service.js';
import * as service from './admin.service.js';
import { getNetworkSetup, type NetworkSetupDeps } from './network-setup.service.js';

const tags = ['admin'];

/**
 * The back-office's own reads. Every route is for platform operators only: 401 without a
 * session, 403 for everyone else (the access hook decides before validation).
 */
export async function adminRoutes(
  app: FastifyInstance,
  {
    db,
    networkSetup,
    analytics,
    now,
  }: { db: Db; networkSetup: NetworkSetupDeps; analytics: AnalyticsCollector; now: () => Date },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/users',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        querystring: AdminUsersQuerySchema,
        response: { 200: AdminUsersResponseSchema },
      },
    },
    async (request) => {
      const { users, meta } = await service.listUsers(db, request.query);
      return { status: 'success' as const, data: { users }, meta };
    },
  );

  api.get(
    '/users/:userId',
    {
      config: { access: 'admin' },
      schema: { tags, params: UserParamsSchema, response: { 200: UserResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { user: await service.getUser(db, request.params.userId) },
    }),
  );

  api.get(
    '/admin/overview',
    {
      config: { access: 'admin' },
      schema: { tags, response: { 200: AdminOverviewResponseSchema } },
    },
    async () => ({ status: 'success' as const, data: await service.getOverview(db) }),
  );

  api.get(
    '/admin/activity',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        querystring: AdminActivityQuerySchema,
        response: { 200: AdminActivityResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.getActivity(db, request.query.timezone, now()),
    }),
  );

  api.get(
    '/admin/audit-log',
    {
      config: { access: 'admin' },
      schema: { tags, querystring: AuditLogQuerySchema, response: { 200: AuditLogResponseSchema } },
    },
    async (request) => {
      const { entries, meta } = await listAuditLog(db, request.query.page, request.query.pageSize);
      return { status: 'success' as const, data: { entries }, meta };
    },
  );

  api.get(
    '/admin/network-setup',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        querystring: NetworkSetupQuerySchema,
        response: { 200: NetworkSetupResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await getNetworkSetup(db, networkSetup, request.query.live),
    }),
  );

  api.post(
    '/admin/analytics/collect',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        body: AnalyticsCollectBodySchema,
        response: { 200: AnalyticsCollectResponseSchema },
      },
    },
    async (request) => {
      const { organizationId } = request.body;
      await service.requireOrganization(db, organizationId);
      return { status: 'success' as const, data: await analytics.collectNow(organizationId) };
    },
  );
}
