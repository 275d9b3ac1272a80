import type { NetworkSetupFinding } from '@herald/contract';
import type { Db } from '../../db/client.js';
import type { QuotaMeter } from '../../platforms/types.js';
import { YOUTUBE_QUOTA, YOUTUBE_UNITS_PER_UPLOAD } from '../../platforms/youtube/limits.js';
import { addUsage, usageOn } from './quota.repository.js';

/** The YouTube API project's quota as configured (YOUTUBE_QUOTA_UNITS_PER_DAY, YOUTUBE_UPLOADS_PER_DAY). */
export interface YouTubeQuotaLimits {
  unitsPerDay: number;
  uploadsPerDay: number;
}

/** YouTube's day of `at`: `YYYY-MM-DD` in Pacific time, where its quota turns. */
export const pacificDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: YOUTUBE_QUOTA.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

export interface YouTubeQuotaDay {
  day: string;
  unitsUsed: number;
  unitsLeft: number;
  uploadsUsed: number;
  uploadsLeft: number;
  limits: YouTubeQuotaLimits;
}

/**
 * The YouTube API project's daily quota in the database (`network_quota_usage`), shared by every
 * process: each call is counted as it is made (`meter`), and what the day has left is read by
 * the composer's check and shown to operators (`today`).
 */
export function createYouTubeQuota(db: Db, limits: YouTubeQuotaLimits, now: () => Date) {
  const meter: QuotaMeter = {
    async spend(_network, bucket, amount) {
      if (amount <= 0) return;
      await addUsage(db, 'youtube', pacificDay(now()), bucket, amount);
    },
  };

  async function dayOf(day: string): Promise<YouTubeQuotaDay> {
    const rows = await usageOn(db, 'youtube', day);
    const used = (bucket: string) => rows.find((r) => r.bucket === bucket)?.used ?? 0;
    const unitsUsed = used('units');
    const uploadsUsed = used('uploads');
    return {
      day,
      unitsUsed,
      unitsLeft: Math.max(0, limits.unitsPerDay - unitsUsed),
      uploadsUsed,
      uploadsLeft: Math.max(0, limits.uploadsPerDay - uploadsUsed),
      limits,
    };
  }

  return {
    meter,
    /** Today's use, Pacific time. */
    today: () => dayOf(pacificDay(now())),
    /**
     * What the day a post goes out on has left, when that day is today; null for a later day,
     * whose quota is still whole.
     */
    async leftOn(goesOutAt: Date) {
      const day = pacificDay(goesOutAt);
      if (day > pacificDay(now())) return null;
      const today = await dayOf(pacificDay(now()));
      return {
        uploadsLeft: today.uploadsLeft,
        unitsLeft: today.unitsLeft,
        unitsPerUpload: YOUTUBE_UNITS_PER_UPLOAD,
      };
    },
  };
}

export type YouTubeQuota = ReturnType<typeof createYouTubeQuota>;

/**
 * What operators read of the day (`herald doctor`, the back-office's Network setup): the units
 * and uploads the YouTube API project has left until midnight Pacific time.
 */
export async function youtubeQuotaFinding(quota: YouTubeQuota): Promise<NetworkSetupFinding> {
  const day = await quota.today();
  const low =
    day.uploadsLeft === 0 || day.unitsLeft < day.limits.unitsPerDay * 0.1
      ? 'warning'
      : ('ok' as const);
  return {
    level: low,
    topic: 'quota',
    message: `YouTube quota today (${day.day}, Pacific time): ${day.unitsLeft.toLocaleString('en-US')} of ${day.limits.unitsPerDay.toLocaleString('en-US')} units and ${day.uploadsLeft} of ${day.limits.uploadsPerDay} uploads left (YOUTUBE_QUOTA_UNITS_PER_DAY, YOUTUBE_UPLOADS_PER_DAY); it renews at midnight Pacific time.`,
  };
}
