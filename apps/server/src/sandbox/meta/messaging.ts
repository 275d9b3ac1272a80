import { createMessagingCore, type MessagingDeps } from './messaging-core.js';
import { messagingCustomerHooks } from './messaging-customer.js';
import { addMessagingPageRoutes } from './messaging-page.routes.js';
import { addMessagingReads } from './messaging-read.routes.js';
import { addMessagingSend } from './messaging-send.routes.js';
import { addMessagingViews } from './messaging-views.js';
import type { GraphRouter } from './router.js';

/**
 * Messenger and Instagram messaging on the Graph emulator (docs/inbox.md#facebook-and-instagram):
 * - `GET /{page}/conversations?platform=messenger|instagram[&user_id=]` and
 *   `GET /{conversation}[/messages]`, `GET /{message-id}` (Instagram: only the 20 newest
 *   messages of a conversation can be read; older ones answer as deleted);
 * - `POST /{page}/messages {recipient:{id}|{comment_id}, messaging_type, tag?, message:{text}}`
 *   with the 24 h window from the customer's last message (7 days with `MESSAGE_TAG` +
 *   `HUMAN_AGENT`), by the emulator's clock; a private reply once per comment within 7 days;
 * - `GET|POST|DELETE /{page}/subscribed_apps`, `POST|DELETE /{comment}/likes` (Facebook),
 *   `POST|GET /{page}/blocked` (Facebook), `GET /{ig-user}/tags` and
 *   `POST /{ig-user}/mentions` (Instagram).
 * The Facebook emulator holds Messenger conversations, the Instagram emulator Instagram ones.
 */
export function addGraphMessaging(router: GraphRouter, deps: MessagingDeps) {
  const core = createMessagingCore(deps);
  addMessagingViews(core);
  addMessagingReads(router, core);
  addMessagingSend(router, core);
  addMessagingPageRoutes(router, core);
  return messagingCustomerHooks(core);
}

export type GraphMessaging = ReturnType<typeof addGraphMessaging>;
