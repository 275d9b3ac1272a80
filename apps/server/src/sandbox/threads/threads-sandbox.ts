import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import { registerThreadsOAuthRoutes } from './threads-oauth.routes.js';
import { registerThreadsProfileRoutes } from './threads-profile.routes.js';

/**
 * The Threads emulator (platform-apis.md §7.3), mounted at `{api}/sandbox/threads`: the
 * authorize page (threads.com) and the Graph host (graph.threads.net) on one base, with their
 * own paths and answers. Connection endpoints for now; publishing and replies join as further
 * route files.
 */
export function registerThreadsSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // Numeric ids small enough to survive JSON numbers (Threads sends user_id as a number).
  const oauth = new SandboxOAuth(ctx.store, () => randomDigits(15));
  registerEmulatorAdmin(scope, ctx, oauth);
  registerThreadsOAuthRoutes(scope, ctx, oauth);
  registerThreadsProfileRoutes(scope, oauth);
}
