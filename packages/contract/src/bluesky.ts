import { z } from 'zod';
import { successEnvelope } from './envelope.js';

/**
 * What Bluesky's video service lets an account upload today (`app.bsky.video.getUploadLimits`,
 * docs/networks.md#bluesky-limits): the composer shows it when a Bluesky account and a video are
 * chosen, and Herald asks again before each upload.
 */
export const BlueskyVideoLimitsSchema = z.object({
  canUpload: z.boolean(),
  /** Videos the account may still upload today; null when the service does not say. */
  remainingDailyVideos: z.number().int().nullable(),
  /** Bytes the account may still upload today; null when the service does not say. */
  remainingDailyBytes: z.number().int().nullable(),
  /** The service's own words when it refuses (`message`, else `error`). */
  message: z.string().nullable(),
});
export type BlueskyVideoLimits = z.infer<typeof BlueskyVideoLimitsSchema>;

export const BlueskyVideoLimitsParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  integrationId: z.uuid('The account id is not valid.'),
});
export const BlueskyVideoLimitsResponseSchema = successEnvelope(
  z.object({ limits: BlueskyVideoLimitsSchema }),
);

/** A day's allowance as a sentence: "4 videos (9.5 GB) left today". */
export function blueskyVideoAllowanceSentence(limits: BlueskyVideoLimits): string {
  if (!limits.canUpload)
    return `Bluesky lets this account upload no more videos today${limits.message ? `: ${limits.message}` : '.'}`;
  const parts: string[] = [];
  if (limits.remainingDailyVideos !== null)
    parts.push(
      `${limits.remainingDailyVideos} ${limits.remainingDailyVideos === 1 ? 'video' : 'videos'}`,
    );
  if (limits.remainingDailyBytes !== null) {
    const gb = limits.remainingDailyBytes / 1e9;
    const size =
      gb >= 1 ? `${gb.toFixed(1)} GB` : `${Math.floor(limits.remainingDailyBytes / 1e6)} MB`;
    parts.push(parts.length ? `(${size})` : size);
  }
  return parts.length
    ? `Bluesky lets this account upload ${parts.join(' ')} more today.`
    : 'Bluesky lets this account upload videos today.';
}
