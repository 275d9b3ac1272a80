import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { CONNECTION_KNOBS, SandboxOAuth } from '../kit/oauth-state.js';
import { randomToken } from '../kit/secrets.js';
import { registerYouTubeApiRoutes } from './api.routes.js';
import { createYouTubeChannels } from './channels.js';
import { registerGoogleOAuthRoutes } from './oauth.routes.js';

/**
 * Knobs of the YouTube emulator: the connection and publishing ones, `upload_interrupt_bytes`
 * (the next chunk breaks after that many bytes), `quota_exceeded` (every call answers
 * `quotaExceeded`) and `no_channel` (`youtubeSignupRequired`) (docs/networks.md#scenario-knobs).
 */
export const YOUTUBE_KNOBS = [
  ...CONNECTION_KNOBS,
  ...PUBLISHING_KNOBS,
  'upload_interrupt_bytes',
  'quota_exceeded',
  'no_channel',
];

/**
 * The YouTube emulator (docs/networks.md#youtube-sandbox), mounted at `{api}/sandbox/youtube`:
 * Google's consent page and token endpoint (accounts.google.com, oauth2.googleapis.com) and the
 * YouTube Data API with its upload host (www.googleapis.com), on one base with their own paths.
 */
export function registerYouTubeSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // Google's subject ids are 21 digits.
  const oauth = new SandboxOAuth(
    ctx.store,
    () => `1${randomToken(15).replace(/\D/g, '').padEnd(20, '7').slice(0, 20)}`,
  );
  const channels = createYouTubeChannels(ctx.store);
  registerEmulatorAdmin(scope, ctx, oauth, YOUTUBE_KNOBS);
  registerGoogleOAuthRoutes(scope, ctx, oauth, channels);
  registerYouTubeApiRoutes(scope, oauth, ctx.store, channels, ctx.publicBase);
}
