/** How often and how long the engine tries again (docs/networks.md#waiting-and-giving-up). */

/** Tries of a target that failed transiently before the visible call, before it fails. */
export const MAX_ATTEMPTS = 5;

/** 5 s, 10 s, 20 s… up to 15 minutes, after a transient failure. */
export const backoffMs = (attempt: number) =>
  Math.min(15 * 60_000, 5_000 * 2 ** Math.max(0, attempt - 1));

/**
 * A rate limit that names no wait (no Retry-After, reset or usage header): tries spaced 1, 2, 4…
 * minutes apart (at most an hour), each between half and all of that so the targets refused
 * together do not come back together; after this many tries (about two hours in all) the
 * target fails with a sentence saying so, instead of knocking forever.
 */
export const MAX_RATE_LIMITED_ATTEMPTS = 8;

export function rateLimitBackoffMs(attempt: number, random = Math.random) {
  const ceiling = Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The FAILED reason once a rate limit without a wait has been tried MAX_RATE_LIMITED_ATTEMPTS times. */
export const rateLimitGiveUpMessage = (network: string, networkWords: string, attempts: number) =>
  `${network} kept refusing this post for its rate limit after ${attempts} tries over about two hours, without saying how long to wait (${networkWords}). Publish it again later.`;
