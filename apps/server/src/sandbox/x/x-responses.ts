import type { FastifyReply } from 'fastify';

/** X's answer shapes and numbers as the emulator needs them (platform-apis.md §1, §7.1). */
export const X_EMULATOR = {
  accessTokenSeconds: 7200,
  codeMaxAgeSeconds: 30,
  usersMeLimit: 75,
  windowSeconds: 900,
} as const;

/** Scopes X knows; anything else on the authorize URL is `invalid_scope`. */
export const X_KNOWN_SCOPES = new Set([
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.read',
  'users.email',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'media.write',
  'dm.read',
  'dm.write',
]);

/** The API's RFC 7807 problem body. */
export function xProblem(
  reply: FastifyReply,
  status: number,
  title: string,
  detail: string,
  type = 'about:blank',
) {
  return reply.status(status).send({ title, detail, type, status });
}

export const xUnauthorized = (reply: FastifyReply) =>
  xProblem(reply, 401, 'Unauthorized', 'Unauthorized');

export function xRateLimited(reply: FastifyReply) {
  const reset = Math.ceil(Date.now() / 1000) + X_EMULATOR.windowSeconds;
  reply.headers({
    'x-rate-limit-limit': String(X_EMULATOR.usersMeLimit),
    'x-rate-limit-remaining': '0',
    'x-rate-limit-reset': String(reset),
  });
  return xProblem(reply, 429, 'Too Many Requests', 'Too Many Requests');
}

/** The token endpoint's OAuth error body. */
export const xOAuthError = (
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) => reply.status(status).send({ error, error_description: description });
