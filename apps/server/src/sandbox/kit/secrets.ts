import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { SandboxCode } from './oauth-state.js';

/** Random codes and tokens, their stored form, and PKCE, for the emulators. */
/** A random token of `bytes` bytes (base64url), after the network's `prefix` if it has one. */
export const randomToken = (bytes = 32, prefix = '') =>
  `${prefix}${randomBytes(bytes).toString('base64url')}`;

export const randomDigits = (length: number) =>
  String(randomInt(1, 10)) +
  Array.from({ length: length - 1 }, () => String(randomInt(0, 10))).join('');

/** How codes and tokens are keyed in the store: never in clear. */
export const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Networks' token looks (TikTok's `act.`/`rft.`, Threads' `TH…`). */
export interface TokenFormat {
  accessPrefix?: string;
  refreshPrefix?: string;
}

/** PKCE: the verifier matches the challenge recorded with the code (S256 or plain). */
export function pkceMatches(code: SandboxCode, verifier: string | undefined): boolean {
  if (!code.codeChallenge) return true;
  if (!verifier) return false;
  if (code.codeChallengeMethod === 'plain') return verifier === code.codeChallenge;
  const digest = createHash('sha256').update(verifier).digest();
  // TikTok's desktop flow sends the digest hex-encoded; everyone else base64url.
  return [digest.toString('base64url'), digest.toString('hex')].includes(code.codeChallenge);
}
