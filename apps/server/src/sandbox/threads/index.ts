import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { CONNECTION_KNOBS, SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import { registerThreadsContainerRoutes } from './containers.routes.js';
import { registerThreadsEmuRoutes } from './emu.routes.js';
import { ThreadsMediaState } from './media-state.js';
import { registerThreadsInboxRoutes, THREADS_WEBHOOK_KNOBS } from './inbox.routes.js';
import { registerThreadsInsightsRoutes } from './insights.routes.js';
import { registerThreadsMediaRoutes } from './media.routes.js';
import { registerThreadsOAuthRoutes } from './oauth.routes.js';
import { registerThreadsProfileRoutes } from './profile.routes.js';
import { registerThreadsPublishingRoutes } from './publishing.routes.js';

/** Knobs of the Threads emulator: the connection ones and the publishing ones but moderation. */
export const THREADS_KNOBS = [
  ...CONNECTION_KNOBS,
  ...PUBLISHING_KNOBS.filter((k) => k !== 'moderation_ms'),
  ...THREADS_WEBHOOK_KNOBS,
];

/**
 * The Threads emulator (docs/networks.md#threads-sandbox), mounted at `{api}/sandbox/threads`: the
 * authorize page (threads.com) and the Graph host (graph.threads.net) on one base, with their
 * own paths and answers: connection, publishing (containers → threads_publish), replies, the
 * inbox (mentions, webhook deliveries).
 */
export function registerThreadsSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // Numeric ids small enough to survive JSON numbers (Threads sends user_id as a number).
  const oauth = new SandboxOAuth(ctx.store, () => randomDigits(15));
  const media = new ThreadsMediaState(ctx.store);
  registerEmulatorAdmin(scope, ctx, oauth, THREADS_KNOBS);
  registerThreadsEmuRoutes(scope, oauth, media);
  registerThreadsOAuthRoutes(scope, ctx, oauth);
  registerThreadsProfileRoutes(scope, oauth);
  registerThreadsContainerRoutes(scope, oauth, media, ctx.runsLocally, ctx.fetchMedia);
  registerThreadsPublishingRoutes(scope, ctx, oauth, media);
  registerThreadsMediaRoutes(scope, ctx, oauth, media);
  registerThreadsInsightsRoutes(scope, oauth, media);
  registerThreadsInboxRoutes(scope, ctx, oauth, media);
}
