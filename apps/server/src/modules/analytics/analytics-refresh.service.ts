import {
  ANALYTICS_REFRESH_COOLDOWN_MINUTES,
  type AnalyticsRefreshRefusal,
  type AnalyticsRefreshResult,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { READING_WINDOW_MS } from './analytics-queue.js';
import type { AnalyticsCollector } from './analytics.service.js';
import { claimRefresh, getSettings, releaseRefresh } from './analytics.repository.js';

/** How long an organization waits between two uses of "Refresh metrics". */
export const REFRESH_COOLDOWN_MS = ANALYTICS_REFRESH_COOLDOWN_MINUTES * 60_000;

export interface RefreshDeps {
  db: Db;
  collector: AnalyticsCollector;
  now: () => Date;
}

/** "14:05 UTC": the sentence's time, in the one zone every reader shares. */
const utcClock = (at: Date) => `${at.toISOString().slice(11, 16)} UTC`;

/** "in 9 minutes", "in 40 seconds". */
function inAbout(seconds: number) {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * A refresh asked for during the cooldown: 429 with `Retry-After` (the route sets it from
 * `retryAfterSeconds`) and a sentence naming when it may be used again; `details` carries the
 * instant so the screen can say it in the viewer's own time.
 */
export class RefreshCoolingDown extends AppError {
  readonly retryAfterSeconds: number;

  constructor(refreshedAt: Date, nextAllowedAt: Date, now: Date) {
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((nextAllowedAt.getTime() - now.getTime()) / 1000),
    );
    super(
      'RATE_LIMITED',
      `Metrics were last refreshed at ${utcClock(refreshedAt)}, and can be refreshed once every ${ANALYTICS_REFRESH_COOLDOWN_MINUTES} minutes. You can refresh again at ${utcClock(nextAllowedAt)} (${inAbout(retryAfterSeconds)}).`,
      {
        nextAllowedAt: nextAllowedAt.toISOString(),
        retryAfterSeconds,
      } satisfies AnalyticsRefreshRefusal,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * "Refresh metrics" (docs/analytics.md#refresh-metrics): the organization's posts published in
 * the schedule's window (90 days) and its accounts read now, through the same collection as the
 * operator's "collect now" — each network's back-off and X's monthly budget apply as they do to
 * the scheduled readings. Once per cooldown per organization, claimed in the database so that
 * it holds across restarts and API processes.
 */
export async function refreshMetrics(
  deps: RefreshDeps,
  organizationId: string,
): Promise<AnalyticsRefreshResult> {
  const now = deps.now();
  const claimed = await claimRefresh(
    deps.db,
    organizationId,
    now,
    new Date(now.getTime() - REFRESH_COOLDOWN_MS),
  );
  if (!claimed) {
    // The claim lost to a refresh at or after this one's cooldown start: it is recorded.
    const refreshedAt = (await getSettings(deps.db, organizationId))?.refreshedAt ?? now;
    throw new RefreshCoolingDown(
      refreshedAt,
      new Date(refreshedAt.getTime() + REFRESH_COOLDOWN_MS),
      now,
    );
  }
  let counts;
  try {
    counts = await deps.collector.collectNow(organizationId, {
      publishedSince: new Date(now.getTime() - READING_WINDOW_MS),
    });
  } catch (err) {
    // Something broke on our side before the networks' figures came in: no reason to make the
    // organization wait for a retry.
    await releaseRefresh(deps.db, organizationId, now);
    throw err;
  }
  return {
    ...counts,
    refreshedAt: now.toISOString(),
    nextAllowedAt: new Date(now.getTime() + REFRESH_COOLDOWN_MS).toISOString(),
  };
}

/** When "Refresh metrics" was last used and may be used next (the settings' answer). */
export function refreshTimes(refreshedAt: Date | null | undefined) {
  return {
    refreshedAt: refreshedAt ? refreshedAt.toISOString() : null,
    nextRefreshAt: refreshedAt
      ? new Date(refreshedAt.getTime() + REFRESH_COOLDOWN_MS).toISOString()
      : null,
  };
}
