import { createHash } from 'node:crypto';

/**
 * Metrics that grow plausibly with the emulator's clock (docs/analytics.md#sandbox): the same
 * post and the same elapsed time always give the same numbers, and they never shrink, so a
 * test can advance the clock and watch them grow.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A stable number in [0, 1) for a seed. */
function unit(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * A count for `metric` of `id` after `elapsedMs`: most of it in the first days (a post's life),
 * a slow tail after. `scale` is roughly the total after a week.
 */
export function grownCount(id: string, metric: string, elapsedMs: number, scale: number): number {
  const hours = Math.max(0, elapsedMs) / HOUR_MS;
  const size = scale * (0.5 + unit(`${id}:${metric}`));
  return Math.floor(size * (1 - Math.exp(-hours / 36)) + size * 0.01 * (hours / 24));
}

/** Where day counts start for accounts whose creation the emulator does not know. */
const GROWTH_EPOCH_MS = Date.UTC(2025, 0, 1);

/** Followers of an account: a stable base that changes with each day on the clock. */
export function followersOn(id: string, nowMs: number, sinceMs = GROWTH_EPOCH_MS): number {
  const base = 200 + Math.floor(unit(`${id}:followers`) * 5000);
  const days = Math.max(0, Math.floor((nowMs - sinceMs) / DAY_MS));
  return base + days * (3 + Math.floor(unit(`${id}:gain`) * 20));
}

/** A daily figure of an account (views, reach…) for the day `nowMs` falls in. */
export function dailyFigure(id: string, metric: string, nowMs: number, scale: number): number {
  const day = Math.floor(nowMs / DAY_MS);
  return Math.floor(scale * (0.5 + unit(`${id}:${metric}:${day}`)));
}
