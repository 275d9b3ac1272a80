import { PlatformError } from '../errors.js';
import type { PublishMedia, PublishRequest } from '../types.js';
import { checkText, mediaFilesProblems } from '@herald/contract';
import { refuseByRules } from '../publish-guard.js';
import {
  TIKTOK_CHUNKS,
  TIKTOK_MEDIA_CONSTRAINTS,
  TIKTOK_TEXT,
  TIKTOK_VIDEO_MIN_SECONDS,
} from './limits.js';
import { TIKTOK_DAILY_CAP_WAIT_SECONDS } from './errors.js';
import type { TikTokCreator } from './publish-api.js';

/** TikTok's rules as Herald applies them before calling (docs/networks.md#tiktok-publishing, #tiktok-limits). */
export type TikTokPostKind = 'video' | 'photo';

const refuse = (message: string) => new PlatformError('bad_request', message);

/**
 * A video alone, or 1–35 JPEG or WEBP photos; never text only, never both; a caption of 2,200
 * UTF-16 units (the shared rule set, docs/networks.md#tiktok-limits).
 */
export function postKindOf(request: PublishRequest): TikTokPostKind {
  refuseByRules('TikTok', request);
  const facts = request.media.map((m) => ({ ...m }));
  const wrongType = mediaFilesProblems('TikTok', facts).find((p) => p.rule === 'tiktok.file-type');
  if (wrongType) throw refuse(wrongType.message);
  const long = checkText(request.text, TIKTOK_MEDIA_CONSTRAINTS, 'TikTok');
  if (long) throw refuse(long);
  return request.media.some((m) => m.kind === 'video') ? 'video' : 'photo';
}

/** Checks a video's length against TikTok's minimum and this creator's maximum. */
export function checkDuration(video: PublishMedia, creator: TikTokCreator) {
  const seconds = video.durationSec;
  if (seconds === null) return;
  if (seconds < TIKTOK_VIDEO_MIN_SECONDS)
    throw refuse(
      `TikTok videos last at least ${TIKTOK_VIDEO_MIN_SECONDS} seconds; this one lasts ${seconds}.`,
    );
  const max = creator.max_video_post_duration_sec;
  if (max && seconds > max)
    throw refuse(
      `This TikTok account can post videos of up to ${max} seconds; this one lasts ${Math.round(seconds)}.`,
    );
}

/** A photo post's title: its first line, cut to 90 UTF-16 units without splitting a character. */
export function photoTitle(text: string): string {
  const firstLine = text.trim().split('\n')[0] ?? '';
  let title = '';
  for (const ch of firstLine) {
    if (title.length + ch.length > TIKTOK_TEXT.photoTitleMax) break;
    title += ch;
  }
  return title.trim();
}

/**
 * How a video is cut for FILE_UPLOAD (docs/networks.md#tiktok-publishing): one chunk under 5 MB (or under the preferred size),
 * else chunks of the preferred size with the rest in the last (`floor(size / chunk)` chunks).
 */
export function chunkPlan(size: number, preferred: number) {
  const wanted = Math.min(Math.max(preferred, TIKTOK_CHUNKS.minBytes), TIKTOK_CHUNKS.maxBytes);
  const chunkSize = size <= wanted ? size : wanted;
  const count = Math.floor(size / chunkSize);
  if (count > TIKTOK_CHUNKS.maxCount) throw refuse('The video is too large for TikTok.');
  return { chunkSize, count };
}

/** `fail_reason` words (docs/networks.md#tiktok-publishing) as sentences, with the class the failure belongs to. */
const FAIL_REASONS: Record<
  string,
  { message: string; kind?: 'rate_limited' | 'transient' | 'reauth' }
> = {
  file_format_check_failed: { message: 'TikTok could not read the video file.' },
  duration_check_failed: { message: 'TikTok does not accept the length of the video.' },
  frame_rate_check_failed: { message: 'TikTok does not accept the frame rate of the video.' },
  picture_size_check_failed: { message: 'TikTok does not accept the size of a photo.' },
  video_pull_failed: { message: 'TikTok could not download the video from Herald.' },
  photo_pull_failed: { message: 'TikTok could not download a photo from Herald.' },
  publish_cancelled: { message: 'The post was cancelled at TikTok.' },
  auth_removed: {
    message: 'Herald’s access to the TikTok account was removed. Reconnect it.',
    kind: 'reauth',
  },
  spam_risk_too_many_posts: {
    message:
      'TikTok will not take more posts from this account today; Herald tries again in 24 hours.',
    kind: 'rate_limited',
  },
  spam_risk_user_banned_from_posting: { message: 'TikTok has banned this account from posting.' },
  internal: { message: 'TikTok failed to publish the post.', kind: 'transient' },
};

/** The error for a publish that ended FAILED: nothing was posted. */
export function failedPublish(reason: string | undefined): PlatformError {
  const words = reason?.trim() || 'unknown';
  const known = FAIL_REASONS[words];
  const message = `${known?.message ?? 'TikTok could not publish the post.'} (TikTok said: ${words})`;
  return new PlatformError(known?.kind ?? 'bad_request', message, {
    code: words,
    // The daily cap: come back tomorrow, not in a minute (errors.ts).
    ...(words === 'spam_risk_too_many_posts'
      ? { retryAfterSeconds: TIKTOK_DAILY_CAP_WAIT_SECONDS }
      : {}),
  });
}

/**
 * After a call that may have committed the post failed without a clear refusal (no answer,
 * a 5xx, internal_error), the post may exist (docs/networks.md#tiktok-idempotency).
 */
export function asUnknownOutcome(err: unknown): unknown {
  if (!(err instanceof PlatformError) || err.kind !== 'transient') return err;
  return new PlatformError(
    'unknown_outcome',
    'TikTok did not confirm the post. It may have been published; Herald checks the account before trying again.',
    err.details,
  );
}
