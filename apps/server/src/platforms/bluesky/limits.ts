import { BLUESKY_MEDIA_CONSTRAINTS, BLUESKY_MAX_TEXT_BYTES } from '@herald/contract';

export { BLUESKY_MEDIA_CONSTRAINTS };

/**
 * Bluesky's numbers (docs/networks.md#bluesky-limits), from the lexicons and Bluesky's published
 * rate limits. The text and file rules are the contract's (the composer checks them too).
 */
export const BLUESKY_LIMITS = {
  textGraphemes: BLUESKY_MEDIA_CONSTRAINTS.text.maxLength,
  textBytes: BLUESKY_MAX_TEXT_BYTES,
  images: BLUESKY_MEDIA_CONSTRAINTS.image.maxCount,
  imageBytes: BLUESKY_MEDIA_CONSTRAINTS.image.maxFileSize,
  videoBytes: BLUESKY_MEDIA_CONSTRAINTS.video.maxFileSize,
  /** `app.bsky.embed.external` `thumb`: at most 1,000,000 bytes. */
  linkCardThumbBytes: 1_000_000,
  /** The most of a linked page Herald reads to find its card (og: tags sit in the head). */
  linkCardPageBytes: 512 * 1024,
  /** `app.bsky.feed.getPosts` takes up to 25 URIs at once. */
  postsPerRead: 25,
  /** `app.bsky.notification.listNotifications` and `chat.bsky.convo.listConvos` pages. */
  pageSize: 50,
  /** `app.bsky.feed.getPostThread` depth Herald reads replies to. */
  threadDepth: 6,
} as const;

/**
 * Bluesky's PDS limits each account's (DID's) record writes by points: a created record costs 3,
 * an updated one 2, a deleted one 1, and an account has 5,000 points an hour and 35,000 a day
 * (docs/networks.md#bluesky-limits). Herald counts them (`WritePoints`) and holds back a write
 * that would go over until it fits.
 */
export const BLUESKY_WRITE_POINTS = {
  create: 3,
  update: 2,
  delete: 1,
  windows: [
    { seconds: 3600, points: 5_000 },
    { seconds: 24 * 3600, points: 35_000 },
  ],
} as const;

/**
 * A few publications of one network at once keep far below the write points and below the PDS's
 * per-IP API limit.
 */
export const BLUESKY_CONCURRENCY = 4;

/** The video service: how often Herald asks how a video's processing goes, and for how long. */
export const BLUESKY_VIDEO_TIMING = { pollMs: 5_000, giveUpMs: 15 * 60_000 } as const;

/** `com.atproto.server.getServiceAuth` tokens for the video service last at most 30 minutes. */
export const BLUESKY_SERVICE_AUTH_SECONDS = 30 * 60;
