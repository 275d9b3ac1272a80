import {
  CreateWebhookEndpointRequestSchema,
  EmptySuccessSchema,
  OrgParamsSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookDeliveryListResponseSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliveryResponseSchema,
  WebhookEndpointListResponseSchema,
  WebhookEndpointParamsSchema,
  WebhookEndpointResponseSchema,
  WebhookEndpointWithSecretResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import * as service from './outgoing-webhooks.service.js';

const tags = ['webhooks'];
const base = '/organizations/:orgId/webhooks';
const one = `${base}/:endpointId`;

export async function outgoingWebhooksRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    cipher: TokenCipher;
    allowPrivate: readonly string[];
    now: () => Date;
    disableAfterMs: number;
    requireHttps: boolean;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: service.WebhooksDeps = { ...opts, log: app.log };
  const ok = <T>(data: T) => ({ status: 'success' as const, data });

  api.get(
    base,
    {
      config: { access: { org: 'GET /organizations/:orgId/webhooks' } },
      schema: {
        tags,
        summary: "The organization's webhook endpoints",
        params: OrgParamsSchema,
        response: { 200: WebhookEndpointListResponseSchema },
      },
    },
    async (request) => ok({ endpoints: await service.listEndpoints(deps, request.params.orgId) }),
  );

  api.post(
    base,
    {
      config: { access: { org: 'POST /organizations/:orgId/webhooks' } },
      schema: {
        tags,
        summary: 'Add an endpoint; its signing secret (whsec_…) is answered this once',
        params: OrgParamsSchema,
        body: CreateWebhookEndpointRequestSchema,
        response: { 201: WebhookEndpointWithSecretResponseSchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return ok(await service.createEndpoint(deps, request.params.orgId, request.body));
    },
  );

  api.patch(
    one,
    {
      config: { access: { org: 'PATCH /organizations/:orgId/webhooks/:endpointId' } },
      schema: {
        tags,
        summary: "Change an endpoint's URL, events, description, or turn it on or off",
        params: WebhookEndpointParamsSchema,
        body: UpdateWebhookEndpointRequestSchema,
        response: { 200: WebhookEndpointResponseSchema },
      },
    },
    async (request) =>
      ok({
        endpoint: await service.updateEndpoint(
          deps,
          request.params.orgId,
          request.params.endpointId,
          request.body,
        ),
      }),
  );

  api.delete(
    one,
    {
      config: { access: { org: 'DELETE /organizations/:orgId/webhooks/:endpointId' } },
      schema: {
        tags,
        summary: 'Remove an endpoint and its delivery log',
        params: WebhookEndpointParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteEndpoint(deps, request.params.orgId, request.params.endpointId);
      return ok(null);
    },
  );

  api.post(
    `${one}/rotate-secret`,
    {
      config: { access: { org: 'POST /organizations/:orgId/webhooks/:endpointId/rotate-secret' } },
      schema: {
        tags,
        summary: 'A new signing secret, answered once; the old one signs too for 24 hours',
        params: WebhookEndpointParamsSchema,
        response: { 200: WebhookEndpointWithSecretResponseSchema },
      },
    },
    async (request) =>
      ok(await service.rotateSecret(deps, request.params.orgId, request.params.endpointId)),
  );

  api.post(
    `${one}/test`,
    {
      config: { access: { org: 'POST /organizations/:orgId/webhooks/:endpointId/test' } },
      schema: {
        tags,
        summary: 'Send a webhook.test event now and answer its logged delivery',
        params: WebhookEndpointParamsSchema,
        response: { 200: WebhookDeliveryResponseSchema },
      },
    },
    async (request) =>
      ok({
        delivery: await service.sendTestEvent(
          deps,
          request.params.orgId,
          request.params.endpointId,
        ),
      }),
  );

  api.get(
    `${one}/deliveries`,
    {
      config: { access: { org: 'GET /organizations/:orgId/webhooks/:endpointId/deliveries' } },
      schema: {
        tags,
        summary: "The endpoint's latest 50 deliveries with every attempt",
        params: WebhookEndpointParamsSchema,
        response: { 200: WebhookDeliveryListResponseSchema },
      },
    },
    async (request) =>
      ok({
        deliveries: await service.listDeliveries(
          deps,
          request.params.orgId,
          request.params.endpointId,
        ),
      }),
  );

  api.post(
    `${one}/deliveries/:deliveryId/redeliver`,
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
        },
      },
      schema: {
        tags,
        summary: 'Send one delivery again now (same body and webhook-id)',
        params: WebhookDeliveryParamsSchema,
        response: { 200: WebhookDeliveryResponseSchema },
      },
    },
    async (request) =>
      ok({
        delivery: await service.redeliver(
          deps,
          request.params.orgId,
          request.params.endpointId,
          request.params.deliveryId,
        ),
      }),
  );
}
