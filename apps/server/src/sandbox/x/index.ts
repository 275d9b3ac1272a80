import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { createKeyedLock } from '../kit/keyed-lock.js';
import { SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import { createXAccess, X_KNOBS } from './access.js';
import { registerXBodyParsers } from './body.js';
import { registerXEmuRoutes } from './emu.routes.js';
import { registerXInboxEmuRoutes } from './inbox-emu.routes.js';
import { registerXInboxRoutes } from './inbox.routes.js';
import { createXInboxStore } from './inbox.store.js';
import { registerXMediaRoutes } from './media.routes.js';
import { registerXOAuthRoutes } from './oauth.routes.js';
import { registerXReadRoutes } from './reads.routes.js';
import { createXPublishingStore } from './store.js';
import { registerXTweetRoutes } from './tweets.routes.js';
import { registerXUserRoutes } from './users.routes.js';
import { registerXWebhookRoutes, X_WEBHOOK_KNOBS } from './webhooks.routes.js';

/**
 * The X emulator (docs/networks.md#x-sandbox), mounted at `{api}/sandbox/x`: X's own paths and
 * answers, so the real adapter runs against it by changing base URLs only. OAuth and the
 * connected account, media upload, posts, replies and reading them back, the inbox (DMs,
 * mentions, Activity API webhooks), plus `/_emu/` knobs.
 */
export function registerXSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // X user ids are 19-digit snowflakes, always sent as strings.
  const oauth = new SandboxOAuth(ctx.store, () => randomDigits(19));
  const withLock = createKeyedLock();
  const access = createXAccess(oauth);
  const posts = createXPublishingStore(ctx.store);
  registerEmulatorAdmin(scope, ctx, oauth, [...X_KNOBS, ...X_WEBHOOK_KNOBS]);
  registerXBodyParsers(scope);
  registerXOAuthRoutes(scope, ctx, oauth);
  registerXUserRoutes(scope, access, () => oauth.now());
  registerXMediaRoutes(scope, { oauth, access, posts, withLock });
  const tweets = registerXTweetRoutes(scope, { oauth, access, posts, withLock });
  registerXReadRoutes(scope, { oauth, access, posts });
  registerXEmuRoutes(scope, { oauth, posts, addComment: tweets.addComment });
  // The inbox (docs/inbox.md#x-sandbox): DMs, mentions, likes, hidden replies, XAA webhooks.
  const inbox = createXInboxStore(ctx.store);
  const delivery = registerXWebhookRoutes(scope, ctx, { oauth, access, inbox });
  const routes = registerXInboxRoutes(scope, { oauth, access, posts, inbox, delivery });
  registerXInboxEmuRoutes(scope, {
    oauth,
    posts,
    inbox,
    routes,
    delivery,
    addComment: tweets.addComment,
  });
}
