import {
  AppPasswordConnectRequestSchema,
  ChooseAccountsRequestSchema,
  ConnectQuerySchema,
  ConnectStartQuerySchema,
  DisconnectParamsSchema,
  IntegrationsResponseSchema,
  OrgParamsSchema,
  PendingConnectionParamsSchema,
  PendingConnectionResponseSchema,
  PlatformSlugParamsSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMember, requireUser } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import * as service from './integrations.service.js';

const tags = ['integrations'];
const CallbackQuerySchema = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  /** The authorization server that answers (RFC 9207), checked for pushed sign-ins (Bluesky). */
  iss: z.string().optional(),
});
const OneAccountSchema = z.object({
  integrationId: z.uuid('The account id is not valid.').optional(),
});
const RefreshQuerySchema = ConnectQuerySchema.extend(OneAccountSchema.shape);
const ResultSchema = z.object({
  status: z.literal('success'),
  data: z.object({ message: z.string(), platforms: z.array(z.unknown()).optional() }),
});

export async function integrationsRoutes(
  app: FastifyInstance,
  deps: Omit<service.IntegrationDeps, 'log'>,
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const withLog = (log: service.IntegrationDeps['log']) => ({ ...deps, log });
  /** These two are browser navigations: refusals come back to /settings as a sentence. */
  const toSettings = (message: string) =>
    `${deps.publicUrl}/settings?${new URLSearchParams({ connectError: message })}`;

  api.get(
    '/organizations/:orgId/integrations',
    {
      config: { access: { org: 'GET /organizations/:orgId/integrations' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: IntegrationsResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        platforms: await service.listIntegrations(
          deps.db,
          request.params.orgId,
          requireMember(request),
        ),
      },
    }),
  );

  api.get(
    '/auth/:platform',
    {
      config: { access: { org: 'GET /auth/:platform' }, browserRedirect: toSettings },
      schema: { tags, params: PlatformSlugParamsSchema, querystring: ConnectStartQuerySchema },
    },
    async (request, reply) => {
      const url = await service.startConnect(
        withLog(request.log),
        requireUser(request).user.id,
        request.query.orgId,
        request.params.platform,
        request.query.kind,
        request.query.instance,
      );
      return reply.redirect(url);
    },
  );

  api.post(
    '/organizations/:orgId/integrations/:platform/app-password',
    {
      config: {
        access: { org: 'POST /organizations/:orgId/integrations/:platform/app-password' },
        // A member limited to some accounts reaches the account they connect from the next request.
        changesAccess: true,
      },
      schema: {
        tags,
        params: DisconnectParamsSchema,
        body: AppPasswordConnectRequestSchema,
        response: { 200: IntegrationsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        platforms: await service.connectWithPassword(
          withLog(request.log),
          requireUser(request).user.id,
          request.params.orgId,
          request.params.platform,
          request.body,
        ),
      },
    }),
  );

  api.get(
    '/auth/:platform/callback',
    {
      // A member limited to some accounts reaches the account they connect from the next request.
      config: { access: 'optional', changesAccess: true },
      schema: { tags, params: PlatformSlugParamsSchema, querystring: CallbackQuerySchema },
    },
    async (request, reply) => {
      if (!request.auth)
        return reply.redirect(
          `${deps.publicUrl}/login?error=${encodeURIComponent('Sign in to Herald, then connect the account again.')}`,
        );
      return reply.redirect(
        await service.finishConnect(
          withLog(request.log),
          request.auth.user.id,
          request.params.platform,
          request.query,
        ),
      );
    },
  );

  api.get(
    '/auth/:platform/refresh',
    {
      config: { access: { org: 'GET /auth/:platform/refresh' } },
      schema: {
        tags,
        params: PlatformSlugParamsSchema,
        querystring: RefreshQuerySchema,
        response: { 200: ResultSchema },
      },
    },
    async (request) => {
      // It changes state over GET (docs/product.md#api-calls): refuse what another site's page sends.
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        throw new AppError('FORBIDDEN', 'This request came from another site and was refused.');
      }
      const platforms = await service.refreshNow(
        withLog(request.log),
        request.query.orgId,
        request.params.platform,
        request.query.integrationId,
      );
      const name = deps.networks.get(request.params.platform)?.name ?? request.params.platform;
      return {
        status: 'success' as const,
        data: { message: `Access tokens refreshed for ${name}`, platforms },
      };
    },
  );

  api.post(
    '/:platform/disconnect/:orgId',
    {
      config: { access: { org: 'POST /:platform/disconnect/:orgId' } },
      schema: {
        tags,
        params: DisconnectParamsSchema,
        body: OneAccountSchema.nullish(),
        response: { 200: ResultSchema },
      },
    },
    async (request) => {
      await service.disconnect(
        withLog(request.log),
        request.params.orgId,
        request.params.platform,
        request.body?.integrationId,
        requireMember(request),
      );
      const name = deps.networks.get(request.params.platform)?.name ?? request.params.platform;
      return {
        status: 'success' as const,
        data: { message: `${name} disconnected successfully.` },
      };
    },
  );

  api.get(
    '/organizations/:orgId/integrations/pending/:pendingId',
    {
      config: { access: { org: 'GET /organizations/:orgId/integrations/pending/:pendingId' } },
      schema: {
        tags,
        params: PendingConnectionParamsSchema,
        response: { 200: PendingConnectionResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.getPending(
        withLog(request.log),
        request.params.orgId,
        requireUser(request).user.id,
        request.params.pendingId,
      ),
    }),
  );

  api.post(
    '/organizations/:orgId/integrations/pending/:pendingId',
    {
      config: { access: { org: 'POST /organizations/:orgId/integrations/pending/:pendingId' } },
      schema: {
        tags,
        params: PendingConnectionParamsSchema,
        body: ChooseAccountsRequestSchema,
        response: { 200: IntegrationsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        platforms: await service.choosePending(
          withLog(request.log),
          request.params.orgId,
          requireUser(request).user.id,
          request.params.pendingId,
          request.body.externalIds,
        ),
      },
    }),
  );
}
