import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';

/** TikTok's numbers and answer shapes as the emulator needs them (docs/networks.md#tiktok, #tiktok-sandbox). */
export const TIKTOK_EMULATOR = {
  // The Nov 2026 figures (docs/networks.md#open-questions, question 2); adapters read them from the answer.
  accessTokenSeconds: 7200,
  refreshTokenSeconds: 180 * 86_400,
  /** TikTok does not document the code lifetime; ten minutes is the usual OAuth figure. */
  codeMaxAgeSeconds: 600,
  tokenFormat: { accessPrefix: 'act.', refreshPrefix: 'rft.' },
} as const;

export const TIKTOK_KNOWN_SCOPES = new Set([
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.publish',
  'video.upload',
  'video.list',
]);

/** Which scope each user/info field needs (Display API). */
export const USER_FIELD_SCOPES: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  username: 'user.info.profile',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

/** TikTok's log ids: a timestamp followed by hex. */
export const logId = () =>
  `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(12).toString('hex').toUpperCase()}`;

/** Every API answer: `{data, error:{code:"ok", message:"", log_id}}`. */
export const tiktokOk = (data: object) => ({
  data,
  error: { code: 'ok', message: '', log_id: logId() },
});

export function tiktokError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.status(status).send({ data: {}, error: { code, message, log_id: logId() } });
}

export const tokenInvalid = (reply: FastifyReply) =>
  tiktokError(
    reply,
    401,
    'access_token_invalid',
    'The access token is invalid or not found in the request.',
  );

export const scopeMissing = (reply: FastifyReply, scope: string) =>
  tiktokError(
    reply,
    401,
    'scope_not_authorized',
    `The user did not authorize the scope required for completing this request (${scope}).`,
  );

/** The OAuth endpoints' body (docs/networks.md#tiktok-sandbox). */
export const oauthError = (
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) => reply.status(status).send({ error, error_description: description, log_id: logId() });

/** Content Posting numbers the emulator enforces (docs/networks.md#tiktok-publishing, #tiktok-limits) and its default processing times. */
export const TIKTOK_PUBLISHING = {
  /** Direct post, inbox and photo inits share 6 per minute per token. */
  initsPerMinute: 6,
  videoTitleMax: 2200,
  photoTitleMax: 90,
  photoDescriptionMax: 4000,
  photosMin: 1,
  photosMax: 35,
  /** Photos TikTok pulls: JPEG or WEBP, up to 20 MB each (media transfer guide, image restrictions). */
  photoFormats: ['jpeg', 'webp'] as readonly string[],
  photoMaxBytes: 20 * 1024 * 1024,
  chunkMin: 5 * 1024 * 1024,
  chunkMax: 64 * 1024 * 1024,
  lastChunkMax: 128 * 1024 * 1024,
  chunksMax: 1000,
  videoMaxBytes: 4 * 1024 * 1024 * 1024,
  /** What creator_info offers (an audited app, a public account). */
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
  maxVideoPostDurationSec: 600,
  /** After the bytes arrive (knob `processing_ms` overrides both). */
  videoProcessingMs: 800,
  photoProcessingMs: 300,
} as const;

/** The content types TikTok takes for upload chunks (docs/networks.md#tiktok-publishing). */
export const TIKTOK_VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
