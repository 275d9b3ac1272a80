import type { WebhookReceiver } from './inbox-types.js';

/**
 * The webhook receivers Herald answers at `/webhooks/{provider}` (docs/inbox.md#webhooks): one
 * per provider ('meta' for Facebook Pages and Instagram, 'threads', 'x'). The networks' folders
 * export them (platforms/<network>/webhooks.ts); this list wires them. Tests pass their own to
 * `createRuntime` (`webhookReceivers`).
 */
export const WEBHOOK_RECEIVERS: WebhookReceiver[] = [];
