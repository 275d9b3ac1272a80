import { timingSafeEqual } from 'node:crypto';
import type { HandshakeAnswer, HandshakeQuery } from './inbox-types.js';

/**
 * The tokens a webhook handshake takes (X's `crc_token`, Meta's and Threads' `hub.challenge`).
 * X's answer is `HMAC(app secret, crc_token)` under the very key that signs its deliveries, so a
 * token that could be a delivery body would turn the handshake into a signer of forged
 * deliveries; Meta's challenge is sent back as the body of our answer. The networks send short
 * random tokens (X: a UUID or base64, about 40-50 characters; Meta: digits), so only that shape
 * is taken: characters of either base64 alphabet (`+`, `/`, `-`, `_`) with at most two `=` of
 * padding, and no longer than HANDSHAKE_TOKEN_MAX. Such a token holds no `{`, quote or space, so it is never a JSON object
 * and never markup.
 */

/** Five times the longest token the networks send: room to spare, and still a bound. */
export const HANDSHAKE_TOKEN_MAX = 256;

const HANDSHAKE_TOKEN = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Why `value` is not a handshake token Herald answers, as a sentence; null when it is one. */
export function handshakeTokenProblem(name: string, value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return `Send ${name} once, with a value.`;
  if (value.length > HANDSHAKE_TOKEN_MAX)
    return `${name} is longer than ${HANDSHAKE_TOKEN_MAX} characters; the networks' tokens are shorter.`;
  if (!HANDSHAKE_TOKEN.test(value))
    return `${name} may hold only letters, digits, "+", "/", "-" and "_", with "=" padding at the end.`;
  return null;
}

/**
 * Meta's GET handshake, the same for Pages, Instagram and Threads: `hub.mode=subscribe` and
 * `hub.verify_token` equal to Herald's (compared in constant time) → `hub.challenge` as plain
 * text. The challenge is checked after the verify token, so only a caller who holds the token
 * learns what shape it must have.
 */
export function answerHubChallenge(query: HandshakeQuery, verifyToken: string): HandshakeAnswer {
  const challenge = query['hub.challenge'];
  if (query['hub.mode'] !== 'subscribe' || challenge === undefined || !verifyToken) return null;
  const given = Buffer.from(query['hub.verify_token'] ?? '');
  const expected = Buffer.from(verifyToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const malformed = handshakeTokenProblem('hub.challenge', challenge);
  return malformed ? { malformed } : { contentType: 'text/plain; charset=utf-8', body: challenge };
}
