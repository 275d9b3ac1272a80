import type { BlueskyVideoLimits } from '@herald/contract';
import type { StoredAccount } from '../types.js';
import { accessOf, type BlueskyApi, pdsOf } from './api.js';
import { BLUESKY_SERVICE_AUTH_SECONDS } from './limits.js';

const MB = 1_000_000;
const size = (bytes: number) =>
  bytes >= 1000 * MB
    ? `${(bytes / (1000 * MB)).toFixed(1)} GB`
    : `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB`;

/**
 * What Bluesky's video service lets the account upload today (docs/networks.md#bluesky-limits):
 * `app.bsky.video.getUploadLimits`, called with a service token the account's PDS issues for the
 * video service (`aud` its did:web, `lxm` the method).
 */
export async function readVideoLimits(
  api: BlueskyApi,
  account: StoredAccount,
): Promise<BlueskyVideoLimits> {
  const aud = `did:web:${new URL(api.urls.videoService).hostname}`;
  const exp = Math.floor(Date.now() / 1000) + BLUESKY_SERVICE_AUTH_SECONDS;
  const auth = await api.getServiceAuth(
    pdsOf(account),
    accessOf(account),
    aud,
    'app.bsky.video.getUploadLimits',
    exp,
  );
  const answer = await api.uploadLimits(auth.token);
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  return {
    canUpload: answer.canUpload === true,
    remainingDailyVideos: count(answer.remainingDailyVideos),
    remainingDailyBytes: count(answer.remainingDailyBytes),
    message: answer.message?.trim() || answer.error?.trim() || null,
  };
}

/** Why today's allowance cannot carry a video of `bytes`, as a sentence; null when it can. */
export function videoDayProblem(limits: BlueskyVideoLimits, bytes: number): string | null {
  if (!limits.canUpload || limits.remainingDailyVideos === 0)
    return `Bluesky lets this account upload no more videos today${limits.message ? ` (“${limits.message}”)` : ''}. Publish the post tomorrow, or without its video.`;
  if (limits.remainingDailyBytes !== null && bytes > limits.remainingDailyBytes)
    return `This video is ${size(bytes)}, and Bluesky lets this account upload ${size(limits.remainingDailyBytes)} more today. Publish the post tomorrow, or with a smaller video.`;
  return null;
}
