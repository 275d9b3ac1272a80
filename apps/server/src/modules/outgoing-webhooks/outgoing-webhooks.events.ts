import type { WebhookEventType } from '@herald/contract';
import type { Db } from '../../db/client.js';
import * as repo from './outgoing-webhooks.repository.js';
import { newMessageId } from './signing.js';

/**
 * Records `type` for every enabled endpoint of the organization that subscribes to it, in the
 * caller's transaction (the outbox): the event is sent only if the change commits, and is not
 * lost if the process stops before sending. The delivery job sends what is due within the
 * minute. Payloads are thin (ids and a few fields): a receiver reads more through the API.
 */
export function emitWebhookEvent(
  db: Db,
  organizationId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  at: Date = new Date(),
) {
  return emitWebhookEvents(db, organizationId, [{ type, data }], at);
}

/** Several events of one organization in one statement (a batch of inbox messages). */
export async function emitWebhookEvents(
  db: Db,
  organizationId: string,
  events: Array<{ type: WebhookEventType; data: Record<string, unknown> }>,
  at: Date = new Date(),
) {
  await repo.insertEventDeliveries(
    db,
    organizationId,
    // One event, one id on every endpoint: a receiver behind two endpoints dedupes on it.
    events.map(({ type, data }) => ({
      type,
      messageId: newMessageId(),
      body: JSON.stringify({ type, timestamp: at.toISOString(), data }),
      at,
    })),
  );
}
