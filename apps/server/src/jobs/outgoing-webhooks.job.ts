import { deliverDue, type DeliveryDeps } from '../modules/outgoing-webhooks/delivery.js';
import type { JobDefinition } from './runtime.js';

export const OUTGOING_WEBHOOKS_QUEUE = 'webhooks.deliver.v1';

/**
 * Outgoing webhooks (docs/webhooks.md): sends every delivery that is due — retries whose wait is
 * over, and new events a nudge did not send at once (delivery-nudge.ts) — within the minute.
 */
export function outgoingWebhooksJob(deps: DeliveryDeps): JobDefinition {
  return {
    queue: OUTGOING_WEBHOOKS_QUEUE,
    cron: '* * * * *',
    retryLimit: 1,
    async handle() {
      const sent = await deliverDue(deps);
      if (sent > 0) deps.log.info({ sent }, 'webhook events delivered');
    },
  };
}
