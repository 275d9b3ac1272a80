import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { CONNECTION_KNOBS, SandboxOAuth } from '../kit/oauth-state.js';
import { registerGbpApiRoutes } from './api.routes.js';
import { createBusinesses } from './businesses.js';
import { digits } from './google.js';
import { registerGbpOAuthRoutes } from './oauth.routes.js';
import { createGbpPubSub } from './pubsub.js';

/**
 * Knobs of the Google Business Profile emulator: the connection and publishing ones, and
 * `not_approved` (Google has not approved the Cloud project: quota 0, every API call 429)
 * (docs/networks.md#scenario-knobs).
 */
export const GBP_KNOBS = [...CONNECTION_KNOBS, ...PUBLISHING_KNOBS, 'not_approved'];

/**
 * The Google Business Profile emulator (docs/networks.md#google-business-profile-sandbox), mounted
 * at `{api}/sandbox/googlebusiness`: Google's consent page and token endpoint, Account
 * Management, Business Information, the v4 API (local posts, reviews), Performance and
 * Notifications, on one base with their own paths; Google's signing keys, and the Pub/Sub push of
 * review notifications to Herald (pubsub.ts).
 */
export function registerGoogleBusinessSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // Google's subject ids are 21 digits.
  const oauth = new SandboxOAuth(ctx.store, () => digits(21));
  const businesses = createBusinesses(ctx.store);
  registerEmulatorAdmin(scope, ctx, oauth, GBP_KNOBS);
  registerGbpOAuthRoutes(scope, ctx, oauth, businesses);
  const pubsub = createGbpPubSub(ctx, ctx.store);
  pubsub.register(scope);
  registerGbpApiRoutes(scope, ctx, oauth, ctx.store, businesses, pubsub);
}
