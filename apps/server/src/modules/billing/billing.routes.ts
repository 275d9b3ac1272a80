import {
  BillingConfigResponseSchema,
  BillingGroupResponseSchema,
  ChooseCoverageRequestSchema,
  MessageResponseSchema,
  OrgParamsSchema,
  PlanIdRequestSchema,
  PortalResponseSchema,
  SubscribeResponseSchema,
  SubscriptionResponseSchema,
  TRIAL_DAYS,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { type BillingProvider, StripeBilling } from './billing-provider.js';
import * as service from './billing.service.js';
import { applyStripeEvent } from './stripe-webhooks.js';

const tags = ['billing'];

export async function billingRoutes(
  app: FastifyInstance,
  deps: { db: Db; billing: BillingProvider; publicUrl: string },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, billing, publicUrl } = deps;

  api.get(
    '/billing/config',
    {
      config: { access: 'public' },
      schema: { tags, response: { 200: BillingConfigResponseSchema } },
    },
    async () => ({
      status: 'success' as const,
      data: { provider: billing.kind, trialDays: TRIAL_DAYS },
    }),
  );

  api.get(
    '/organizations/:orgId/subscription',
    {
      config: { access: { org: 'GET /organizations/:orgId/subscription' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: SubscriptionResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { subscription: await service.getSubscription(db, request.params.orgId) },
    }),
  );

  api.post(
    '/organizations/:orgId/subscribe/trial',
    {
      config: { access: { org: 'POST /organizations/:orgId/subscribe/trial' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: PlanIdRequestSchema,
        response: { 200: SubscriptionResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        subscription: await service.startTrial(db, request.params.orgId, request.body.planId),
      },
    }),
  );

  api.post(
    '/organizations/:orgId/subscription/subscribe',
    {
      config: { access: { org: 'POST /organizations/:orgId/subscription/subscribe' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: PlanIdRequestSchema,
        response: { 200: SubscribeResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.subscribe(
        db,
        billing,
        {
          organizationId: request.params.orgId,
          customerEmail: requireUser(request).user.email,
          publicUrl,
        },
        request.body.planId,
      ),
    }),
  );

  api.post(
    '/organizations/:orgId/subscription/cancel',
    {
      config: { access: { org: 'POST /organizations/:orgId/subscription/cancel' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: SubscriptionResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { subscription: await service.cancel(db, billing, request.params.orgId) },
    }),
  );

  api.post(
    '/organizations/:orgId/billing/portal',
    {
      config: { access: { org: 'POST /organizations/:orgId/billing/portal' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: PortalResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { url: await service.billingPortalUrl(db, billing, request.params.orgId, publicUrl) },
    }),
  );

  api.get(
    '/organizations/:orgId/billing/group',
    {
      config: { access: { org: 'GET /organizations/:orgId/billing/group' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: BillingGroupResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        group: await service.getBillingGroup(
          db,
          request.params.orgId,
          requireUser(request).user.id,
        ),
      },
    }),
  );

  api.put(
    '/organizations/:orgId/billing/group',
    {
      config: { access: { org: 'PUT /organizations/:orgId/billing/group' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: ChooseCoverageRequestSchema,
        response: { 200: BillingGroupResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        group: await service.chooseCoverage(
          db,
          request.params.orgId,
          requireUser(request).user.id,
          request.body.organizationIds,
        ),
      },
    }),
  );

  if (billing instanceof StripeBilling) {
    await app.register(async (scope) => {
      // The signature covers the exact bytes: keep the body raw in this scope.
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );
      scope.withTypeProvider<ZodTypeProvider>().post(
        '/billing/stripe/webhook',
        {
          config: { access: 'public' },
          schema: { tags, response: { 200: MessageResponseSchema } },
        },
        async (request) => {
          let event;
          try {
            event = billing.verifyEvent(
              request.body as Buffer,
              request.headers['stripe-signature'] as string | undefined,
            );
          } catch {
            throw new AppError(
              'BAD_REQUEST',
              'The Stripe signature does not match this webhook body.',
            );
          }
          const applied = await applyStripeEvent(db, billing, event);
          return {
            status: 'success' as const,
            data: { message: applied ? 'Event processed.' : 'Event already processed.' },
          };
        },
      );
    });
  }
}
