import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';

export { GOOGLE_EMULATOR, oauthError } from '../kit/google-oauth.js';

const SCOPE = 'https://www.googleapis.com/auth';
export const GOOGLE_KNOWN_SCOPES = new Set([
  `${SCOPE}/youtube`,
  `${SCOPE}/youtube.upload`,
  `${SCOPE}/youtube.force-ssl`,
  `${SCOPE}/youtube.readonly`,
  `${SCOPE}/yt-analytics.readonly`,
  'openid',
  'email',
  'profile',
]);
export const UPLOAD_SCOPE = `${SCOPE}/youtube.upload`;
export const FORCE_SSL_SCOPE = `${SCOPE}/youtube.force-ssl`;
export const READ_SCOPES = [`${SCOPE}/youtube.readonly`, FORCE_SSL_SCOPE, `${SCOPE}/youtube`];

/** YouTube ids: 11 url-safe characters for videos, `UC` + 22 for channels. */
export const videoId = () => randomBytes(8).toString('base64url').slice(0, 11);
export const channelId = () => `UC${randomBytes(16).toString('base64url').slice(0, 22)}`;
export const commentId = () => `Ug${randomBytes(18).toString('base64url').slice(0, 24)}`;

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** Google's API error answer: `{error: {code, message, errors: [{message, domain, reason}], status}}`. */
export function googleError(
  reply: FastifyReply,
  code: number,
  reason: string,
  message: string,
  domain = 'youtube.api',
) {
  return reply.status(code).send({
    error: {
      code,
      message,
      errors: [{ message, domain, reason }],
      status: STATUS[code] ?? 'UNKNOWN',
    },
  });
}

export const authError = (reply: FastifyReply) =>
  googleError(
    reply,
    401,
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    'global',
  );
