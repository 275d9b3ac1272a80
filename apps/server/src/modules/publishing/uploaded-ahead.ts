import { createHash } from 'node:crypto';
import { contentForAccount, mediaGoesTo } from '@herald/contract';
import { contentOf } from '../posts/post-dto.js';
import type { LoadedTarget } from './targets.repository.js';

/**
 * What a target uploaded ahead keeps in its publish state besides the upload's own
 * (docs/networks.md#youtube-publishing): what was uploaded, as a fingerprint, and the time the
 * network was asked to publish it at.
 */
export interface UploadedAhead {
  fingerprint: string;
  /** ISO time the network publishes it at, as last set there. */
  publishAt: string;
}

export function uploadedAheadOf(state: Record<string, unknown>): UploadedAhead | null {
  const ahead = state.uploadedAhead as Partial<UploadedAhead> | undefined;
  if (typeof ahead?.fingerprint !== 'string' || typeof ahead.publishAt !== 'string') return null;
  return { fingerprint: ahead.fingerprint, publishAt: ahead.publishAt };
}

/**
 * Everything of a post that makes up the upload of one target: the account's text and link
 * choices, its files, and its settings except the choice of who publishes it at its time (a
 * video uploaded ahead goes public at that time whoever does). The time is not in it: a new
 * time moves the upload instead of replacing it.
 */
export function uploadFingerprint(loaded: LoadedTarget): string {
  const { post, target } = loaded;
  const settings = { ...(target.settings ?? {}) };
  delete settings.scheduleOnYouTube;
  const media = loaded.media
    .filter((m) => mediaGoesTo(m.platformIds, target))
    .map((m) => m.storageKey);
  const made = JSON.stringify({
    text: contentForAccount(contentOf(post), target),
    linkTracking: post.linkTracking ?? null,
    shortLinks: post.shortLinks ?? null,
    media,
    settings: Object.keys(settings)
      .sort()
      .map((key) => [key, settings[key]]),
  });
  return createHash('sha256').update(made).digest('base64url');
}
