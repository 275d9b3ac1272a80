import { countText } from '@herald/contract';
import { PlatformError } from '../errors.js';
import { THREADS_MEDIA_CONSTRAINTS, THREADS_TEXT_MAX } from './limits.js';
import type { ThreadsContainerStatus } from './publish-api.js';

/** Threads counts characters, except that an emoji counts as its UTF-8 byte length (docs/networks.md#threads-limits). */
export const threadsTextLength = (text: string) =>
  countText(text, THREADS_MEDIA_CONSTRAINTS.text.counting);

/** Why Threads would refuse this text, or null. */
export function textProblem(text: string): string | null {
  const length = threadsTextLength(text);
  if (length <= THREADS_TEXT_MAX) return null;
  return `The text is ${length} characters long as Threads counts them (an emoji counts as several); Threads allows ${THREADS_TEXT_MAX}.`;
}

/** The words Threads puts in a container's `error_message` (docs/networks.md#threads-publishing), as sentences. */
const CONTAINER_ERRORS: Record<string, string> = {
  FAILED_DOWNLOADING_VIDEO: 'Threads could not download the video from Herald.',
  FAILED_PROCESSING_VIDEO: 'Threads could not process the video.',
  FAILED_PROCESSING_AUDIO: 'Threads could not process the sound of the video.',
  INVALID_ASPEC_RATIO: 'Threads does not accept the aspect ratio of the video.',
  INVALID_BIT_RATE: 'Threads does not accept the bit rate of the video.',
  INVALID_DURATION: 'Threads does not accept the length of the video.',
  INVALID_FRAME_RATE: 'Threads does not accept the frame rate of the video.',
  INVALID_AUDIO_CHANNELS: 'Threads does not accept the sound channels of the video.',
  INVALID_AUDIO_CHANNEL_LAYOUT: 'Threads does not accept the sound channel layout of the video.',
  UNKNOWN: 'Threads could not process the media.',
};

/** A sentence for a container that ended in ERROR or EXPIRED, keeping Threads' own words. */
export function containerFailure(status: ThreadsContainerStatus, what: string): string {
  if (status.status === 'EXPIRED')
    return `${what} expired at Threads before it was published (Threads keeps prepared media for 24 hours). Publish the post again.`;
  const words = status.error_message?.trim() || 'UNKNOWN';
  const sentence = CONTAINER_ERRORS[words] ?? 'Threads could not process the media.';
  return `${what}: ${sentence} (Threads said: ${words})`;
}

/**
 * threads_publish failed without a clear refusal (no answer in time, a dropped connection, a
 * 5xx, Graph codes 1/2): the post may exist. Other errors (quota, token, bad container) mean it
 * was not published and pass through as they are.
 */
export function asUnknownOutcome(err: unknown): unknown {
  if (!(err instanceof PlatformError) || err.kind !== 'transient') return err;
  const { status, code } = err.details;
  if (status !== undefined && status < 500 && code !== 1 && code !== 2) return err;
  return new PlatformError(
    'unknown_outcome',
    'Threads did not confirm the post. It may have been published; Herald checks the account before trying again.',
    err.details,
  );
}

/** Milliseconds of a Graph timestamp (`2026-01-02T03:04:05+0000`), or null. */
export function graphTimeMs(value: string | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : ms;
}
