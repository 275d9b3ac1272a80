import type { WebhookReceiver } from './inbox-types.js';
import { metaWebhookReceiver } from './meta/webhooks.js';
import { threadsWebhookReceiver } from './threads/webhooks.js';
import { xWebhookReceiver } from './x/webhooks.js';

/**
 * The webhook receivers Herald answers at `/webhooks/{provider}` (docs/inbox.md#webhooks): one
 * per provider ('meta' for Facebook Pages and Instagram, 'threads', 'x'). The networks' folders
 * export them (platforms/<network>/webhooks.ts); this list wires them. Tests pass their own to
 * `createRuntime` (`webhookReceivers`).
 */
export const WEBHOOK_RECEIVERS: WebhookReceiver[] = [
  metaWebhookReceiver,
  threadsWebhookReceiver,
  xWebhookReceiver,
];
