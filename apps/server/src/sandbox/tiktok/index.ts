import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { CONNECTION_KNOBS, SandboxOAuth } from '../kit/oauth-state.js';
import { randomToken } from '../kit/secrets.js';
import { registerTikTokOAuthRoutes } from './oauth.routes.js';
import { TikTokPublishState } from './publish-state.js';
import { registerTikTokPublishRoutes } from './publish.routes.js';
import { registerTikTokUploadRoutes } from './upload.routes.js';
import { registerTikTokUserRoutes } from './user.routes.js';
import { registerTikTokVideoRoutes } from './video.routes.js';

/** Knobs of the TikTok emulator: the connection ones and every publishing one. */
/**
 * `unaudited` treats the app as unaudited for one account (as TIKTOK_UNAUDITED does for all);
 * `url_unverified` makes every pulled URL's domain unverified; `spam_risk_next`: the next N inits
 * answer `spam_risk_too_many_posts` (the daily API post cap); `creator_private` makes creator_info
 * offer followers and only-me; `interactions_off` turns the creator's comments, duets and
 * stitches off (docs/networks.md#scenario-knobs).
 */
export const TIKTOK_KNOBS = [
  ...CONNECTION_KNOBS,
  ...PUBLISHING_KNOBS,
  'unaudited',
  'url_unverified',
  'spam_risk_next',
  'creator_private',
  'interactions_off',
];

/**
 * The TikTok emulator (docs/networks.md#tiktok-sandbox), mounted at `{api}/sandbox/tiktok`: the web
 * authorize page (www.tiktok.com), open.tiktokapis.com and the upload host on one base, with
 * their own paths and envelopes: connection, creator_info, Content Posting (init → upload →
 * status) and the video list.
 */
export function registerTikTokSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // open_id looks like "-000…": opaque, per app.
  const oauth = new SandboxOAuth(ctx.store, () => `-000${randomToken(27)}`);
  const publishing = new TikTokPublishState(ctx.store);
  registerEmulatorAdmin(scope, ctx, oauth, TIKTOK_KNOBS);
  registerTikTokOAuthRoutes(scope, ctx, oauth);
  registerTikTokUserRoutes(scope, oauth);
  registerTikTokPublishRoutes(scope, ctx, oauth, publishing);
  registerTikTokUploadRoutes(scope, oauth, publishing);
  registerTikTokVideoRoutes(scope, oauth, publishing);
}
