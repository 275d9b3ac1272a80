import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import { registerXOAuthRoutes } from './x-oauth.routes.js';
import { registerXUserRoutes } from './x-users.routes.js';

/**
 * The X emulator (platform-apis.md §7.1), mounted at `{api}/sandbox/x`: X's own paths and
 * answers, so the real adapter runs against it by changing base URLs only. Connection
 * endpoints for now; publishing and replies join as further route files.
 */
export function registerXSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // X user ids are 19-digit snowflakes, always sent as strings.
  const oauth = new SandboxOAuth(ctx.store, () => randomDigits(19));
  registerEmulatorAdmin(scope, ctx, oauth);
  registerXOAuthRoutes(scope, ctx, oauth);
  registerXUserRoutes(scope, oauth);
}
