import type { MediaConstraints, PlatformName } from './platforms.js';

/*
 * What each network takes in one post, as its documentation says (docs/networks.md#composer-limits,
 * with each network's own limits section): the one source of these numbers. The server's
 * adapters read them from here (platforms/<network>/limits.ts), the platforms seed must say the
 * same (platforms/media-constraints.test.ts), and operators may change the stored copy later;
 * `publishProblems` falls back to these when it is given no stored copy.
 */

/** X (docs/networks.md#x-limits): 4 images, or 1 GIF, or 1 video (the mix is `publishProblems`'). */
export const X_MEDIA_CONSTRAINTS = {
  text: { maxLength: 280, counting: 'x-weighted', textOnlyAllowed: true },
  maxMediaPerPost: 4,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    maxFileSize: 5 * 1024 * 1024,
    maxCount: 4,
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    maxFileSize: 512 * 1024 * 1024,
    minDuration: 0.5,
    maxDuration: 140,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/** Instagram (docs/networks.md#instagram-limits). */
export const INSTAGRAM_MEDIA_CONSTRAINTS = {
  text: { maxLength: 2_200, counting: 'codepoints', textOnlyAllowed: false },
  maxMediaPerPost: 10,
  // Feed images: JPEG only, 4:5 (0.8) to 1.91:1; narrower than 320 px they are scaled up, not
  // refused (https://developers.facebook.com/docs/instagram-platform/content-publishing).
  image: {
    allowedMimeTypes: ['image/jpeg'],
    maxFileSize: 8 * 1024 * 1024,
    minAspectRatio: 0.8,
    maxAspectRatio: 1.91,
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    maxFileSize: 300 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 15 * 60,
  },
  reel: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    // Sources disagree (300 MB vs 1 GB): validate at the lower one until proven (docs/networks.md#open-questions, question 9).
    maxFileSize: 300 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 15 * 60,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/** Facebook Pages (docs/networks.md#facebook-limits); videos go through an upload that takes MP4 only. */
export const FACEBOOK_MEDIA_CONSTRAINTS = {
  text: { maxLength: 63_206, counting: 'codepoints', textOnlyAllowed: true },
  maxMediaPerPost: 10,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif'],
    maxFileSize: 10 * 1024 * 1024,
  },
  video: {
    allowedMimeTypes: ['video/mp4'],
    maxFileSize: 10 * 1024 * 1024 * 1024,
    maxCount: 1,
  },
  reel: {
    allowedMimeTypes: ['video/mp4'],
    minDuration: 3,
    maxDuration: 90,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/** LinkedIn (docs/networks.md#linkedin-limits). */
export const LINKEDIN_MEDIA_CONSTRAINTS = {
  text: { maxLength: 3_000, counting: 'codepoints', textOnlyAllowed: true },
  maxMediaPerPost: 20,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif'],
    maxFileSize: 10 * 1024 * 1024,
    maxCount: 20,
  },
  video: {
    allowedMimeTypes: ['video/mp4'],
    maxFileSize: 500 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 30 * 60,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * Threads (docs/networks.md#threads-limits): text of 500 characters, emoji counted as their UTF-8
 * bytes and every other character as one; carousels of 2–20 items.
 */
export const THREADS_MEDIA_CONSTRAINTS = {
  text: { maxLength: 500, counting: 'emoji-bytes', textOnlyAllowed: true },
  maxMediaPerPost: 20,
  image: { allowedMimeTypes: ['image/jpeg', 'image/png'], maxFileSize: 8 * 1024 * 1024 },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    maxFileSize: 1024 * 1024 * 1024,
    maxDuration: 300,
  },
} satisfies MediaConstraints;

/**
 * TikTok (docs/networks.md#tiktok-limits): 1–35 photos (JPEG or WEBP, no PNG) or one video of at
 * least 3 s, never both (the mix is `publishProblems`').
 */
export const TIKTOK_MEDIA_CONSTRAINTS = {
  text: { maxLength: 2_200, counting: 'utf16', textOnlyAllowed: false },
  maxMediaPerPost: 35,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/webp'],
    maxFileSize: 20 * 1024 * 1024,
    maxCount: 35,
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'],
    maxFileSize: 4 * 1024 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 600,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * Bluesky (docs/networks.md#bluesky-limits), from the post lexicons: 300 graphemes of text,
 * up to four images of 2,000,000 bytes each (`app.bsky.embed.images`), or one MP4 video of up
 * to 100 MB and three minutes (`app.bsky.embed.video`, sent through Bluesky's video service).
 */
export const BLUESKY_MEDIA_CONSTRAINTS = {
  text: { maxLength: 300, counting: 'graphemes', textOnlyAllowed: true },
  maxMediaPerPost: 4,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    maxFileSize: 2_000_000,
    maxCount: 4,
  },
  video: {
    allowedMimeTypes: ['video/mp4'],
    maxFileSize: 100_000_000,
    // Bluesky's video service takes up to three minutes (since March 2025).
    maxDuration: 180,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * Mastodon (docs/networks.md#mastodon-limits): what a stock server announces in
 * `/api/v2/instance`. Each server may say otherwise; an account's own server's numbers are read at
 * connect and replace these for that account.
 */
export const MASTODON_MEDIA_CONSTRAINTS = {
  text: { maxLength: 500, counting: 'urls-23', textOnlyAllowed: true },
  maxMediaPerPost: 4,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    maxFileSize: 16 * 1024 * 1024,
    maxCount: 4,
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'],
    maxFileSize: 99 * 1024 * 1024,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * YouTube (docs/networks.md#youtube-limits): one video per post, and at most one image with it that
 * becomes the video's custom thumbnail; the post's text
 * is the video's description (5,000 characters); videos.insert takes up to 256 GB and a verified
 * channel's videos may last 12 hours (15 minutes on an unverified one: YouTube refuses those).
 */
export const YOUTUBE_MEDIA_CONSTRAINTS = {
  text: { maxLength: 5_000, counting: 'codepoints', textOnlyAllowed: false },
  // The video, and an image beside it that becomes its custom thumbnail (thumbnails.set).
  maxMediaPerPost: 2,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png'],
    maxFileSize: 2 * 1024 * 1024,
    maxCount: 1,
  },
  video: {
    allowedMimeTypes: [
      'video/mp4',
      'video/quicktime',
      'video/webm',
      'video/x-msvideo',
      'video/mpeg',
      'video/3gpp',
    ],
    maxFileSize: 256 * 1024 * 1024 * 1024,
    maxDuration: 12 * 3600,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * Google Business Profile (docs/networks.md#google-business-profile-limits): a local post's
 * `summary` of at most 1,500 characters, and at most one photo (JPEG or PNG up to 5 MB, at least
 * 250×250) that Google fetches from a public URL; no video in posts.
 */
export const GBP_MEDIA_CONSTRAINTS = {
  text: { maxLength: 1_500, counting: 'codepoints', textOnlyAllowed: true },
  maxMediaPerPost: 1,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png'],
    maxFileSize: 5 * 1024 * 1024,
    minDimensions: { width: 250, height: 250 },
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * Pinterest (docs/networks.md#pinterest-limits): a pin is one image, a carousel of 2–5 images, or
 * one video with at most one image beside it that becomes its cover. The post's text is the pin's
 * description (800 characters; its title and link are the pin's own settings). Images go as
 * base64 (`image_base64`: JPEG or PNG) up to 20 MB; videos (`POST /v5/media`) are MP4, MOV or M4V
 * of 4 seconds to 15 minutes and at most 2 GB.
 */
export const PINTEREST_MEDIA_CONSTRAINTS = {
  text: { maxLength: 800, counting: 'codepoints', textOnlyAllowed: false },
  maxMediaPerPost: 5,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png'],
    maxFileSize: 20 * 1024 * 1024,
    maxCount: 5,
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime', 'video/x-m4v'],
    maxFileSize: 2 * 1024 * 1024 * 1024,
    minDuration: 4,
    maxDuration: 15 * 60,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/**
 * The networks Herald publishes to, by the name their platform row carries: one entry per name of
 * PLATFORM_NAMES, or the typecheck fails.
 */
export const NETWORK_MEDIA_CONSTRAINTS: Readonly<Record<PlatformName, MediaConstraints>> = {
  X: X_MEDIA_CONSTRAINTS,
  Instagram: INSTAGRAM_MEDIA_CONSTRAINTS,
  Facebook: FACEBOOK_MEDIA_CONSTRAINTS,
  LinkedIn: LINKEDIN_MEDIA_CONSTRAINTS,
  Threads: THREADS_MEDIA_CONSTRAINTS,
  TikTok: TIKTOK_MEDIA_CONSTRAINTS,
  Mastodon: MASTODON_MEDIA_CONSTRAINTS,
  Bluesky: BLUESKY_MEDIA_CONSTRAINTS,
  YouTube: YOUTUBE_MEDIA_CONSTRAINTS,
  'Google Business Profile': GBP_MEDIA_CONSTRAINTS,
  Pinterest: PINTEREST_MEDIA_CONSTRAINTS,
};

/**
 * Bluesky's post text is also refused past 3,000 UTF-8 bytes, whatever its graphemes
 * (`app.bsky.feed.post` `text`: maxGraphemes 300, maxLength 3000; docs/networks.md#bluesky-limits).
 */
export const BLUESKY_MAX_TEXT_BYTES = 3000;
/** X: a GIF may weigh 15 MB, where other images stop at 5 MB (docs/networks.md#x-limits). */
export const X_MAX_GIF_BYTES = 15 * 1024 * 1024;
/** Instagram captions: at most 30 hashtags and 20 @mentions (docs/networks.md#instagram-limits). */
export const INSTAGRAM_CAPTION_LIMITS = { hashtags: 30, mentions: 20 } as const;
/** LinkedIn videos: 75 KB to 500 MB (the Videos API's `fileSizeBytes`, docs/networks.md#linkedin-limits). */
export const LINKEDIN_MIN_VIDEO_BYTES = 75 * 1024;
/** LinkedIn images: fewer than 36,152,320 pixels (docs/networks.md#linkedin-limits). */
export const LINKEDIN_MAX_IMAGE_PIXELS = 36_152_319;
/** Threads refuses a post with more than 5 distinct links (docs/networks.md#threads-limits). */
export const THREADS_MAX_LINKS = 5;
/** X takes at most one cashtag in a post created through its API (docs/networks.md#x-limits). */
export const X_MAX_CASHTAGS = 1;
