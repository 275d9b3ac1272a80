import { deliverDue, type DeliveryDeps } from '../modules/outgoing-webhooks/delivery.js';
import type { JobDefinition } from './runtime.js';

/**
 * Outgoing webhooks (docs/webhooks.md): sends every delivery that is due — new events recorded
 * by the changes' transactions, and retries whose wait is over — within the minute.
 */
export function outgoingWebhooksJob(deps: DeliveryDeps): JobDefinition {
  return {
    queue: 'webhooks.deliver.v1',
    cron: '* * * * *',
    retryLimit: 1,
    async handle() {
      const sent = await deliverDue(deps);
      if (sent > 0) deps.log.info({ sent }, 'webhook events delivered');
    },
  };
}
