import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { SandboxOAuth } from '../kit/oauth-state.js';
import { randomToken } from '../kit/secrets.js';
import { registerTikTokOAuthRoutes } from './tiktok-oauth.routes.js';
import { registerTikTokUserRoutes } from './tiktok-user.routes.js';

/**
 * The TikTok emulator (platform-apis.md §7.4), mounted at `{api}/sandbox/tiktok`: the web
 * authorize page (www.tiktok.com) and open.tiktokapis.com on one base, with their own paths
 * and envelopes. Connection endpoints and creator_info for now; publishing joins as further
 * route files.
 */
export function registerTikTokSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // open_id looks like "-000…": opaque, per app.
  const oauth = new SandboxOAuth(ctx.store, () => `-000${randomToken(27)}`);
  registerEmulatorAdmin(scope, ctx, oauth);
  registerTikTokOAuthRoutes(scope, ctx, oauth);
  registerTikTokUserRoutes(scope, oauth);
}
