import {
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { FetchRefused, precheckUrl } from '../../media/safe-fetch.js';
import { type DeliveryDeps, sendNow } from './delivery.js';
import * as repo from './outgoing-webhooks.repository.js';
import { newMessageId, newSecret } from './signing.js';

export interface WebhooksDeps extends DeliveryDeps {
  /** Production sends to https:// only. */
  requireHttps: boolean;
}

/** How long the previous secret keeps signing after a rotation, for receivers to switch. */
export const PREVIOUS_SECRET_MS = 24 * 3600 * 1000;
const LOG_LIMIT = 50;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toEndpoint(row: repo.EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    previousSecretExpiresAt: iso(row.previousSecretExpiresAt),
    createdAt: row.createdAt.toISOString(),
  };
}

function toDelivery(row: repo.DeliveryRow & { attempts: repo.AttemptRow[] }): WebhookDelivery {
  return {
    id: row.id,
    messageId: row.messageId,
    type: row.type,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: iso(row.nextAttemptAt),
    createdAt: row.createdAt.toISOString(),
    attempts: row.attempts.map((a) => ({
      id: a.id,
      attemptedAt: a.attemptedAt.toISOString(),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      responseExcerpt: a.responseExcerpt,
      error: a.error,
      succeeded: a.succeeded,
    })),
  };
}

/**
 * The destination an admin gave, under the media import's SSRF rules (no private or local
 * address, no user name or password), and https in production; a test's loopback receiver is
 * the one exception, through the same test-only allow-list.
 */
function checkUrl(deps: WebhooksDeps, raw: string) {
  let url: URL;
  try {
    url = precheckUrl(raw, deps.allowPrivate);
  } catch (err) {
    if (err instanceof FetchRefused)
      throw new AppError('VALIDATION_FAILED', `The webhook URL ${err.message}`);
    throw err;
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const testReceiver = deps.allowPrivate.includes(`${url.hostname}:${port}`);
  if (deps.requireHttps && url.protocol !== 'https:' && !testReceiver)
    throw new AppError('VALIDATION_FAILED', 'The webhook URL must start with https://.');
  return url.toString();
}

async function endpointOf(deps: WebhooksDeps, organizationId: string, id: string) {
  const row = await repo.findEndpoint(deps.db, organizationId, id);
  if (!row) throw new AppError('NOT_FOUND', 'This webhook endpoint does not exist any more.');
  return row;
}

export async function listEndpoints(deps: WebhooksDeps, organizationId: string) {
  return (await repo.listEndpoints(deps.db, organizationId)).map(toEndpoint);
}

/** Creates an endpoint; its signing secret is answered this once and kept sealed. */
export async function createEndpoint(
  deps: WebhooksDeps,
  organizationId: string,
  input: Omit<CreateWebhookEndpointRequest, 'events'> & { events: WebhookEventType[] },
) {
  const url = checkUrl(deps, input.url);
  const secret = newSecret();
  const row = await repo.insertEndpoint(deps.db, {
    organizationId,
    url,
    description: input.description || null,
    events: input.events,
    secretSealed: deps.cipher.encrypt(secret),
  });
  return { endpoint: toEndpoint(row), secret };
}

/** Changes url, events, description or enabled; enabling again forgets the failing streak. */
export async function updateEndpoint(
  deps: WebhooksDeps,
  organizationId: string,
  id: string,
  input: Omit<UpdateWebhookEndpointRequest, 'events'> & { events?: WebhookEventType[] },
) {
  const current = await endpointOf(deps, organizationId, id);
  const set: Partial<repo.EndpointRow> = {};
  if (input.url !== undefined) set.url = checkUrl(deps, input.url);
  if (input.events !== undefined) set.events = input.events;
  if (input.description !== undefined) set.description = input.description || null;
  if (input.enabled !== undefined && input.enabled !== current.enabled) {
    set.enabled = input.enabled;
    set.disabledReason = input.enabled ? null : 'Turned off in Settings.';
    if (input.enabled) set.failingSince = null;
  }
  const row = await repo.updateEndpoint(deps.db, organizationId, id, set);
  if (!row) throw new AppError('NOT_FOUND', 'This webhook endpoint does not exist any more.');
  return toEndpoint(row);
}

export async function deleteEndpoint(deps: WebhooksDeps, organizationId: string, id: string) {
  if (!(await repo.deleteEndpoint(deps.db, organizationId, id)))
    throw new AppError('NOT_FOUND', 'This webhook endpoint does not exist any more.');
}

/**
 * A new signing secret, answered once. The previous one keeps signing beside it for 24 hours
 * (both signatures in `webhook-signature`), so receivers can switch without missing an event.
 */
export async function rotateSecret(deps: WebhooksDeps, organizationId: string, id: string) {
  const current = await endpointOf(deps, organizationId, id);
  const now = deps.now?.() ?? new Date();
  const secret = newSecret();
  const row = await repo.updateEndpoint(deps.db, organizationId, id, {
    secretSealed: deps.cipher.encrypt(secret),
    previousSecretSealed: current.secretSealed,
    previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_MS),
  });
  if (!row) throw new AppError('NOT_FOUND', 'This webhook endpoint does not exist any more.');
  return { endpoint: toEndpoint(row), secret };
}

export async function listDeliveries(deps: WebhooksDeps, organizationId: string, id: string) {
  await endpointOf(deps, organizationId, id);
  const rows = await repo.listDeliveries(deps.db, organizationId, id, LOG_LIMIT);
  return rows.map(toDelivery);
}

async function deliveryWithAttempts(deps: WebhooksDeps, row: repo.DeliveryRow) {
  const attempts = await repo.attemptsOf(deps.db, [row.id]);
  return toDelivery({ ...row, attempts: attempts.get(row.id) ?? [] });
}

/** Sends a `webhook.test` event to the endpoint now and answers the logged delivery. */
export async function sendTestEvent(deps: WebhooksDeps, organizationId: string, id: string) {
  const endpoint = await endpointOf(deps, organizationId, id);
  const now = deps.now?.() ?? new Date();
  const body = JSON.stringify({
    type: WEBHOOK_TEST_EVENT,
    timestamp: now.toISOString(),
    data: { endpointId: endpoint.id, message: 'A test event from Herald.' },
  });
  const [delivery] = await repo.insertDeliveries(deps.db, [
    {
      organizationId,
      endpointId: endpoint.id,
      messageId: newMessageId(),
      type: WEBHOOK_TEST_EVENT,
      body,
      nextAttemptAt: null,
    },
  ]);
  await sendNow(deps, endpoint, delivery!);
  const settled = await repo.findDelivery(deps.db, organizationId, endpoint.id, delivery!.id);
  return deliveryWithAttempts(deps, settled!);
}

/** Sends one delivery again now: the same body and `webhook-id`, a new timestamp and signature. */
export async function redeliver(
  deps: WebhooksDeps,
  organizationId: string,
  endpointId: string,
  deliveryId: string,
) {
  const endpoint = await endpointOf(deps, organizationId, endpointId);
  const delivery = await repo.findDelivery(deps.db, organizationId, endpointId, deliveryId);
  if (!delivery) throw new AppError('NOT_FOUND', 'This delivery is not in the log any more.');
  await sendNow(deps, endpoint, delivery);
  const settled = await repo.findDelivery(deps.db, organizationId, endpointId, deliveryId);
  return deliveryWithAttempts(deps, settled!);
}

/**
 * For the daily prune (docs/webhooks.md#delivery-retries-and-turning-off): deletes up to `limit`
 * deliveries recorded before `before`, with their attempts; answers how many.
 */
export const deleteDeliveriesBefore = (db: Db, before: Date, limit: number) =>
  repo.deleteDeliveriesBefore(db, before, limit);
