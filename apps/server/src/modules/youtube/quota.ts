import type { NetworkSetupFinding } from '@herald/contract';
import type { Db } from '../../db/client.js';
import type { QuotaMeter } from '../../platforms/types.js';
import { YOUTUBE_QUOTA, YOUTUBE_UNITS_PER_UPLOAD } from '../../platforms/youtube/limits.js';
import { addUsage, uploadsScheduledOn, usageOn } from './quota.repository.js';

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

  async function dayOf(day: string, on: Db = db): Promise<YouTubeQuotaDay> {
    const rows = await usageOn(on, 'youtube', day);
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
    /** Uploads still scheduled on a Pacific day (`YYYY-MM-DD`). */
    scheduledOn: (day: string) => uploadsScheduledOn(db, day),
    /**
     * What the Pacific day a post goes out on has left for it: the day's quota, less what was
     * spent (today) and what the uploads already scheduled that day will spend (an upload, and
     * the units around it, each). `exceptPostId`: the post being edited, not counted twice.
     * `on`: the transaction a post is being saved in, read through it (the embedded database has
     * one connection, which that transaction holds).
     */
    async leftOn(goesOutAt: Date, exceptPostId?: string, on: Db = db): Promise<YouTubeDayLeft> {
      const today = pacificDay(now());
      // A past day (a post going out late) is spent from today's quota.
      const day = pacificDay(goesOutAt) < today ? today : pacificDay(goesOutAt);
      const spent = day === today ? await dayOf(day, on) : { uploadsUsed: 0, unitsUsed: 0 };
      const scheduled = await uploadsScheduledOn(on, day, exceptPostId);
      return {
        day,
        isToday: day === today,
        scheduled,
        uploadsLeft: Math.max(0, limits.uploadsPerDay - spent.uploadsUsed - scheduled),
        unitsLeft: Math.max(
          0,
          limits.unitsPerDay - spent.unitsUsed - scheduled * YOUTUBE_UNITS_PER_UPLOAD,
        ),
        unitsPerUpload: YOUTUBE_UNITS_PER_UPLOAD,
      };
    },
  };
}

export type YouTubeQuota = ReturnType<typeof createYouTubeQuota>;

/** What a Pacific day has left for one more post (`leftOn`). */
export interface YouTubeDayLeft {
  /** `YYYY-MM-DD`, Pacific time. */
  day: string;
  isToday: boolean;
  /** Uploads already scheduled that day, counted in what is left. */
  scheduled: number;
  uploadsLeft: number;
  unitsLeft: number;
  unitsPerUpload: number;
}

/**
 * What operators read of the day (`herald doctor`, the back-office's Network setup): the units
 * and uploads the YouTube API project has left until midnight Pacific time.
 */
export async function youtubeQuotaFinding(quota: YouTubeQuota): Promise<NetworkSetupFinding> {
  const day = await quota.today();
  const scheduled = await quota.scheduledOn(day.day);
  // What the posts scheduled for the rest of the day will spend is as good as spent.
  const uploadsFree = Math.max(0, day.uploadsLeft - scheduled);
  const unitsFree = Math.max(0, day.unitsLeft - scheduled * YOUTUBE_UNITS_PER_UPLOAD);
  const low =
    uploadsFree === 0 || unitsFree < day.limits.unitsPerDay * 0.1 ? 'warning' : ('ok' as const);
  const counting = scheduled
    ? `, counting the ${scheduled} upload${scheduled === 1 ? '' : 's'} still scheduled today`
    : '';
  return {
    level: low,
    topic: 'quota',
    message: `YouTube quota today (${day.day}, Pacific time): ${unitsFree.toLocaleString('en-US')} of ${day.limits.unitsPerDay.toLocaleString('en-US')} units and ${uploadsFree} of ${day.limits.uploadsPerDay} uploads left${counting} (YOUTUBE_QUOTA_UNITS_PER_DAY, YOUTUBE_UPLOADS_PER_DAY); it renews at midnight Pacific time.`,
  };
}
