import { type DeliveryDeps, sendDigests, sendEmails } from '../modules/notifications/deliveries.js';
import { sendWebhooks, type WebhookDeps } from '../modules/notifications/webhooks.js';
import type { JobDefinition } from './runtime.js';

/**
 * Notifications by email (docs/product.md#notification-preferences): each one within the minute,
 * and the daily digest at 07:00 in the zone that applies to each member, looked for every
 * quarter hour since zones differ by quarter hours (on a server without SMTP both drop what
 * waits); and the organizations' incoming webhooks within the minute.
 */
export function notificationDeliveryJobs(deps: DeliveryDeps, hooks: WebhookDeps): JobDefinition[] {
  return [
    {
      queue: 'notifications.webhook.v1',
      cron: '* * * * *',
      retryLimit: 1,
      async handle() {
        const sent = await sendWebhooks(hooks);
        if (sent > 0) deps.log.info({ sent }, 'notifications posted to organization webhooks');
      },
    },
    {
      queue: 'notifications.email.v1',
      cron: '* * * * *',
      retryLimit: 1,
      async handle() {
        const sent = await sendEmails(deps);
        if (sent > 0) deps.log.info({ sent }, 'notification emails sent');
      },
    },
    {
      queue: 'notifications.digest.v1',
      cron: '*/15 * * * *',
      retryLimit: 1,
      async handle() {
        const sent = await sendDigests(deps);
        if (sent > 0) deps.log.info({ sent }, 'notification digests sent');
      },
    },
  ];
}
