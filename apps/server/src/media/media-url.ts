import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed media URLs: `exp` (unix seconds) and `sig` = HMAC-SHA256(key, "<storage key>\n<exp>").
 * Anyone holding the URL may fetch the file until it expires — what a network fetching our media
 * for a post needs, without a session.
 */
export function signMediaKey(signingKey: string, key: string, exp: number): string {
  return createHmac('sha256', signingKey).update(`${key}\n${exp}`).digest('base64url');
}

export type UrlCheck =
  { status: 'valid'; expiresAt: number } | { status: 'invalid' } | { status: 'expired' };

export function checkMediaSignature(
  signingKey: string,
  key: string,
  exp: unknown,
  sig: unknown,
  nowSeconds: number,
): UrlCheck {
  if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string')
    return { status: 'invalid' };
  const expected = Buffer.from(signMediaKey(signingKey, key, Number(exp)), 'base64url');
  const given = Buffer.from(sig, 'base64url');
  // Compare in constant time; lengths are not secret (always 32 bytes when genuine).
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 'invalid' };
  const expiresAt = Number(exp);
  return expiresAt <= nowSeconds ? { status: 'expired' } : { status: 'valid', expiresAt };
}
