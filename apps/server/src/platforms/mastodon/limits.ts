import { MASTODON_MEDIA_CONSTRAINTS, type MediaConstraints } from '@herald/contract';

export { MASTODON_MEDIA_CONSTRAINTS };

/**
 * Scopes Herald asks every server for (docs/networks.md#mastodon-oauth): `read` covers the
 * account, replies, notifications and conversations; `profile` is left out, as servers before
 * 4.3 refuse it and `read` already includes what it grants.
 */
export const MASTODON_SCOPES = ['read', 'write:statuses', 'write:media'] as const;

/** Requests per account per 5 minutes; media uploads 30 per 30 minutes (docs/networks.md#mastodon-limits). */
export const MASTODON_RATE_LIMITS = {
  requests: { count: 300, windowSeconds: 300 },
  media: { count: 30, windowSeconds: 1800 },
} as const;

/** Every link in a status counts as this many characters, whatever its length. */
export const MASTODON_URL_LENGTH = 23;

/** Media still processing: look again after this long, and give up after that long. */
export const MASTODON_MEDIA_TIMING = { pollMs: 2_000, giveUpMs: 10 * 60_000 } as const;

/** Publications in flight at once, across all Mastodon servers. */
export const MASTODON_CONCURRENCY = 4;

/** What a server's `/api/v2/instance` says of statuses and media (its `configuration`). */
export interface MastodonInstanceConfiguration {
  statuses?: {
    max_characters?: number;
    max_media_attachments?: number;
    characters_reserved_per_url?: number;
  };
  media_attachments?: {
    supported_mime_types?: string[];
    image_size_limit?: number;
    video_size_limit?: number;
    description_limit?: number;
  };
}

/** One server's limits, as Herald keeps them on each account connected there. */
export interface MastodonServerLimits {
  maxCharacters: number;
  maxMedia: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  descriptionLimit: number;
  mimeTypes: string[];
}

const positive = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;

/** The server's limits from its configuration; what it leaves out is a stock server's. */
export function serverLimitsOf(
  configuration: MastodonInstanceConfiguration | undefined,
): MastodonServerLimits {
  const c = MASTODON_MEDIA_CONSTRAINTS;
  const statuses = configuration?.statuses ?? {};
  const media = configuration?.media_attachments ?? {};
  const mimeTypes = Array.isArray(media.supported_mime_types)
    ? media.supported_mime_types.filter((t) => typeof t === 'string')
    : [];
  return {
    maxCharacters: positive(statuses.max_characters, c.text.maxLength),
    maxMedia: positive(statuses.max_media_attachments, c.maxMediaPerPost),
    imageSizeLimit: positive(media.image_size_limit, c.image.maxFileSize),
    videoSizeLimit: positive(media.video_size_limit, c.video.maxFileSize),
    descriptionLimit: positive(media.description_limit, 1500),
    mimeTypes: mimeTypes.length
      ? mimeTypes
      : [...c.image.allowedMimeTypes, ...c.video.allowedMimeTypes],
  };
}

/** A server's limits as the shared rules read them (the composer and the publish preflight). */
export function constraintsOfServer(limits: MastodonServerLimits): MediaConstraints {
  const base = MASTODON_MEDIA_CONSTRAINTS;
  const of = (prefix: string) => limits.mimeTypes.filter((t) => t.startsWith(prefix));
  const images = of('image/');
  const videos = of('video/');
  return {
    text: { ...base.text, maxLength: limits.maxCharacters },
    maxMediaPerPost: limits.maxMedia,
    image: {
      allowedMimeTypes: images.length ? images : base.image.allowedMimeTypes,
      maxFileSize: limits.imageSizeLimit,
      maxCount: limits.maxMedia,
    },
    video: {
      allowedMimeTypes: videos.length ? videos : base.video.allowedMimeTypes,
      maxFileSize: limits.videoSizeLimit,
      maxCount: 1,
    },
  };
}

/** The limits kept on an account at connect; a stock server's where they are missing. */
export function storedLimitsOf(stored: unknown): MastodonServerLimits {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<MastodonServerLimits>;
  return serverLimitsOf({
    statuses: { max_characters: s.maxCharacters, max_media_attachments: s.maxMedia },
    media_attachments: {
      image_size_limit: s.imageSizeLimit,
      video_size_limit: s.videoSizeLimit,
      description_limit: s.descriptionLimit,
      ...(Array.isArray(s.mimeTypes) ? { supported_mime_types: s.mimeTypes } : {}),
    },
  });
}
