import {
  createPublicKey,
  verify as verifySignature,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import type { PlatformHttp } from '../types.js';
import { GBP_REVIEW_NOTIFICATIONS } from './api.js';

/**
 * Google Business Profile's review notifications through Cloud Pub/Sub
 * (docs/networks.md#google-business-profile-push). Google publishes a notice to the operator's
 * topic when a review comes or changes; the operator's push subscription posts it to Herald with
 * a token Google signed (OpenID Connect, RS256) for the subscription's service account and
 * audience. A notice names the location, not the review's words: Herald reads the location's
 * reviews at once, the way its poll does.
 */

/** The issuers of Google's ID tokens: both spellings are in use. */
const GOOGLE_ISSUERS = new Set(['https://accounts.google.com', 'accounts.google.com']);
/** Google's keys rotate within days; its answer says how long to keep them (max-age). */
const KEYS_KEPT_MS = 60 * 60_000;
/** A token signed by a key Herald has not seen asks Google again, at most this often. */
const REFETCH_AFTER_MS = 60_000;
/** Clocks differ a little: a token is taken this long before its `iat` and after its `exp`. */
const CLOCK_SLACK_S = 60;
/** Google's tokens are about 1 KB; anything far larger is not one. */
const TOKEN_MAX = 8_192;

/** Why a push's token was refused, said to the log (never to the caller). */
export class PushTokenError extends Error {}

/** What a push's token must say: the push subscription's audience and service account. */
export interface PushExpectation {
  audience: string;
  serviceAccountEmail: string;
}

/**
 * Google's signing keys, read from its JWKS document through the network's http and kept as long
 * as its answer allows (an hour at most); a key id not among them reads the document again, not
 * more than once a minute, so a stream of forged tokens costs Google one request a minute.
 */
export function createGoogleKeys(http: PlatformHttp, jwksUrl: string, now: () => number) {
  let keys = new Map<string, KeyObject>();
  let fetchedAt = -Infinity;
  let keepUntil = -Infinity;
  let reading: Promise<void> | null = null;

  async function read() {
    const res = await http(jwksUrl, { headers: { accept: 'application/json' } });
    if (!res.ok) {
      await res.body?.cancel();
      throw new PushTokenError(`Google's signing keys could not be read (HTTP ${res.status}).`);
    }
    const body = (await res.json()) as { keys?: Array<JsonWebKey & { kid?: string }> };
    const next = new Map<string, KeyObject>();
    for (const jwk of body.keys ?? []) {
      if (typeof jwk.kid !== 'string' || jwk.kty !== 'RSA') continue;
      try {
        next.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
      } catch {
        // A key Node cannot read is not one Herald can check a signature with.
      }
    }
    const maxAge = /max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1];
    const at = now();
    keys = next;
    fetchedAt = at;
    keepUntil = at + Math.min(maxAge ? Number(maxAge) * 1000 : KEYS_KEPT_MS, KEYS_KEPT_MS);
  }

  const refresh = () => {
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  };

  return async function keyOf(kid: string): Promise<KeyObject | null> {
    if (now() >= keepUntil) await refresh();
    else if (!keys.has(kid) && now() - fetchedAt >= REFETCH_AFTER_MS) await refresh();
    return keys.get(kid) ?? null;
  };
}

export type GoogleKeys = ReturnType<typeof createGoogleKeys>;

const decodePart = (part: string): Record<string, unknown> => {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PushTokenError('A part of the token is not a JSON object.');
  return value as Record<string, unknown>;
};

/**
 * Checks a push's `Authorization: Bearer` token as Google's documentation says: an RS256
 * signature by one of Google's keys, issued by accounts.google.com, for this audience, still
 * valid, and for the push subscription's service account with its e-mail verified. Answers the
 * claims; throws PushTokenError saying why not.
 */
export async function verifyPushToken(
  authorization: string | undefined,
  expected: PushExpectation,
  keyOf: GoogleKeys,
  nowMs: number,
): Promise<Record<string, unknown>> {
  const token = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(
    authorization?.trim() ?? '',
  )?.[1];
  if (!token) throw new PushTokenError('The push carries no bearer token.');
  if (token.length > TOKEN_MAX) throw new PushTokenError('The token is far too long.');
  const [head, payload, signature] = token.split('.') as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodePart(head);
    claims = decodePart(payload);
  } catch (err) {
    throw err instanceof PushTokenError ? err : new PushTokenError('The token is not a JWT.');
  }
  // The algorithm is Google's, never the token's choice (no `none`, no HMAC with a public key).
  if (header.alg !== 'RS256') throw new PushTokenError('The token is not signed with RS256.');
  if (typeof header.kid !== 'string') throw new PushTokenError('The token names no key.');
  const key = await keyOf(header.kid);
  if (!key) throw new PushTokenError('The token is signed by a key Google does not list.');
  const signed = verifySignature(
    'RSA-SHA256',
    Buffer.from(`${head}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new PushTokenError('The token’s signature does not match.');
  if (typeof claims.iss !== 'string' || !GOOGLE_ISSUERS.has(claims.iss))
    throw new PushTokenError('The token was not issued by Google.');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.audience))
    throw new PushTokenError('The token is for another audience.');
  const now = nowMs / 1000;
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SLACK_S < now)
    throw new PushTokenError('The token has expired.');
  if (typeof claims.iat === 'number' && claims.iat - CLOCK_SLACK_S > now)
    throw new PushTokenError('The token was issued in the future.');
  if (
    typeof claims.email !== 'string' ||
    claims.email.toLowerCase() !== expected.serviceAccountEmail.toLowerCase()
  )
    throw new PushTokenError('The token is for another service account.');
  if (claims.email_verified !== true && claims.email_verified !== 'true')
    throw new PushTokenError('The token’s e-mail is not verified.');
  return claims;
}

/** One review notification: the location it names (its id), and what happened. */
export interface GbpPushNotice {
  messageId: string;
  type: string;
  /** The location's id (`accounts/{a}/locations/{l}` → `{l}`). */
  locationId: string;
}

const LOCATION = /^accounts\/[^/]+\/locations\/([^/]+)(?:\/|$)/;
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The notice a Pub/Sub push carries: `{message: {data, messageId, publishTime, attributes},
 * subscription}`, `data` the base64 of Google's JSON notification. The location is read from its
 * location name, or from the review's name (which holds it); Google's documentation spells the
 * fields `locationName`/`reviewName` and `location_name`/`review_name` in different places, and
 * both are read. Answers the notice, null for a notification that is no review's (another type
 * the account's setting asks for), or a sentence when the body is no Pub/Sub push.
 */
export function readPushNotice(body: unknown): GbpPushNotice | null | string {
  const message = (body as { message?: unknown } | null)?.message as
    Record<string, unknown> | undefined;
  if (!message || typeof message !== 'object')
    return 'The body is not a Pub/Sub push: it has no message.';
  const messageId = text(message.messageId) ?? text(message.message_id);
  const data = text(message.data);
  if (!messageId || !data) return 'The Pub/Sub message has no id or no data.';
  let notification: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error();
    notification = value as Record<string, unknown>;
  } catch {
    return 'The Pub/Sub message’s data is not a JSON notification.';
  }
  const type = text(notification.type) ?? text(notification.notificationType) ?? '';
  if (!(GBP_REVIEW_NOTIFICATIONS as readonly string[]).includes(type)) return null;
  const names = [
    notification.locationName,
    notification.location_name,
    notification.location,
    notification.reviewName,
    notification.review_name,
    notification.review,
  ];
  for (const name of names) {
    const locationId = LOCATION.exec(text(name) ?? '')?.[1];
    if (locationId) return { messageId, type, locationId };
  }
  return 'The review notification names no location.';
}
