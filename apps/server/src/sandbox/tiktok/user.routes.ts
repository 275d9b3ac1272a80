import type { FastifyInstance } from 'fastify';
import { avatarDataUrl } from '../kit/consent.js';
import { dailyFigure, followersOn } from '../kit/growth.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { creatorOffers, tiktokAccess } from './access.js';
import {
  scopeMissing,
  tiktokError,
  tiktokOk,
  TIKTOK_PUBLISHING,
  USER_FIELD_SCOPES,
} from './responses.js';

/** `GET /v2/user/info/` and `POST /v2/post/publish/creator_info/query/` (docs/networks.md#tiktok-oauth, #tiktok-publishing, #tiktok-sandbox). */
export function registerTikTokUserRoutes(scope: FastifyInstance, oauth: SandboxOAuth) {
  scope.get('/v2/user/info/', async (request, reply) => {
    const granted = await tiktokAccess(request, reply, oauth);
    if (!granted) return reply;
    const { account, scopes } = granted;
    const fields = String((request.query as Record<string, unknown>).fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (!fields.length)
      return tiktokError(reply, 400, 'invalid_params', 'The fields parameter is required.');
    const unknown = fields.find((f) => !USER_FIELD_SCOPES[f]);
    if (unknown) return tiktokError(reply, 400, 'invalid_params', `Invalid field: ${unknown}.`);
    const missing = fields.map((f) => USER_FIELD_SCOPES[f]!).find((s) => !scopes.includes(s));
    if (missing) return scopeMissing(reply, missing);
    const avatar = avatarDataUrl(account.name, 340);
    const values: Record<string, unknown> = {
      open_id: account.id,
      union_id: `union-${account.id.slice(4)}`,
      avatar_url: avatar,
      avatar_url_100: avatar,
      avatar_large_url: avatar,
      display_name: account.name,
      username: account.username,
      bio_description: '',
      profile_deep_link: `https://www.tiktok.com/@${account.username}`,
      is_verified: false,
      // Totals that change with the emulator's clock (docs/analytics.md#sandbox).
      follower_count: followersOn(account.id, granted.now, account.createdAt),
      following_count: 12,
      likes_count: dailyFigure(account.id, 'likes', granted.now, 400),
      video_count: 0,
    };
    return tiktokOk({ user: Object.fromEntries(fields.map((f) => [f, values[f]])) });
  });

  scope.post('/v2/post/publish/creator_info/query/', async (request, reply) => {
    const granted = await tiktokAccess(request, reply, oauth, 'video.publish');
    if (!granted) return reply;
    const offers = creatorOffers(granted);
    return tiktokOk({
      creator_avatar_url: avatarDataUrl(granted.account.name, 340),
      creator_username: granted.account.username,
      creator_nickname: granted.account.name,
      privacy_level_options: offers.privacyLevelOptions,
      comment_disabled: offers.commentDisabled,
      duet_disabled: offers.duetDisabled,
      stitch_disabled: offers.stitchDisabled,
      max_video_post_duration_sec: TIKTOK_PUBLISHING.maxVideoPostDurationSec,
    });
  });
}
