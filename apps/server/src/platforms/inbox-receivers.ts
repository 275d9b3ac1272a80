import { NETWORK_MODULES } from './catalog.js';
import type { WebhookReceiver } from './inbox-types.js';

/**
 * The webhook receivers Herald answers at `/webhooks/{provider}` (docs/inbox.md#webhooks): each
 * network module's `webhookReceiver`, once each — Facebook and Instagram name the same 'meta'
 * receiver, as Meta's one app delivers for both. Tests pass their own to `createRuntime`
 * (`webhookReceivers`).
 */
export const WEBHOOK_RECEIVERS: WebhookReceiver[] = [
  ...new Set(NETWORK_MODULES.flatMap((m) => (m.webhookReceiver ? [m.webhookReceiver] : []))),
];
