import twitterText from 'twitter-text';
import type { MediaConstraints, MediaRule } from './platforms.js';

/**
 * The one rule set for media and text, run in the browser (immediate feedback) and on the server
 * (authoritative). Texts are those of docs/product.md#media-rules.
 */

/**
 * docs/product.md#constants: the most files one post uploads, all networks together — the most any
 * supported network takes in one post (TikTok photo posts: 35). Each network's own count
 * (`maxMediaPerPost`: X 4, Instagram and Facebook 10, Threads and LinkedIn 20, TikTok 35) narrows it.
 */
export const MAX_FILES_PER_POST = 35;
export const TOO_MANY_FILES_MESSAGE = `You can upload a maximum of ${MAX_FILES_PER_POST} files`;

/**
 * The most files a post going to these networks can carry: the largest of their own counts (a
 * network with a smaller one says so through checkMediaCount), or MAX_FILES_PER_POST.
 */
export function maxFilesFor(constraints: ReadonlyArray<MediaConstraints | null>): number {
  const counts = constraints.map((c) => c?.maxMediaPerPost ?? MAX_FILES_PER_POST);
  return counts.length ? Math.min(MAX_FILES_PER_POST, Math.max(...counts)) : MAX_FILES_PER_POST;
}

/** docs/product.md#media-rules: types accepted when no platform constraint narrows them. */
export const DEFAULT_ACCEPTED_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'video/mp4',
  'video/quicktime',
  'video/x-matroska',
  'video/webm',
] as const;

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'jfif', 'avif'];
const VIDEO_EXTENSIONS = ['mp4', 'mov', 'mkv', 'webm', 'ogv', 'm4v'];
const UNSUPPORTED_FILE_TYPE_MESSAGE = 'Unsupported file type';

export const MEDIA_KINDS = ['image', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
/** The constraint group a file falls in on one platform. */
type MediaClass = 'image' | 'video' | 'reel';

/** What is known about one file: from the browser before upload, or measured by the server. */
export interface MediaFacts {
  fileName: string;
  mimeType: string;
  size: number;
  width?: number | null;
  height?: number | null;
  /** Seconds; videos only. */
  durationSec?: number | null;
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Image or video, by MIME type first and extension second (docs/product.md#media-rules); null when neither. */
export function mediaKindOf(file: {
  fileName: string;
  mimeType?: string | null;
}): MediaKind | null {
  const mime = (file.mimeType ?? '').toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  const ext = extensionOf(file.fileName);
  if (IMAGE_EXTENSIONS.includes(ext)) return 'image';
  if (VIDEO_EXTENSIONS.includes(ext)) return 'video';
  return null;
}

/** Sizes in Bytes, KB, MB, GB with base 1024 (docs/product.md#media-rules). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(2).replace(/\.?0+$/, '')} ${units[unit]}`;
}

/** The constraint group of a file on a platform: images are `image`; videos `video`, or `reel` where only reels exist. */
function mediaClassFor(kind: MediaKind, constraints: MediaConstraints): MediaClass {
  if (kind === 'image') return 'image';
  if (!constraints.video && constraints.reel) return 'reel';
  return 'video';
}

/** Every message of docs/product.md#media-rules one file earns on one platform; empty when it passes. */
export function checkMediaFile(file: MediaFacts, constraints: MediaConstraints | null): string[] {
  return mediaFileProblems(file, constraints).map((p) => p.message);
}

/**
 * One file's problems on one platform, each with the key of the rule it breaks (`file-type`,
 * `file-size`, `video-duration`, `image-dimensions`, `aspect-ratio`, `file-metadata`), to be
 * prefixed with the network's key by the caller.
 */
export function mediaFileProblems(
  file: MediaFacts,
  constraints: MediaConstraints | null,
): Array<{ rule: string; message: string }> {
  const kind = mediaKindOf(file);
  if (!kind) return [{ rule: 'file-type', message: UNSUPPORTED_FILE_TYPE_MESSAGE }];
  const mime = file.mimeType.toLowerCase();
  if (!constraints || (!constraints.image && !constraints.video && !constraints.reel)) {
    const allowed: readonly string[] = DEFAULT_ACCEPTED_MIME_TYPES;
    return allowed.includes(mime)
      ? []
      : [
          {
            rule: 'file-type',
            message: `File type ${file.mimeType || 'unknown'} not allowed. Use: ${allowed.join(', ')}`,
          },
        ];
  }
  const mediaClass = mediaClassFor(kind, constraints);
  const rule: MediaRule | undefined = constraints[mediaClass];
  if (!rule)
    return [
      {
        rule: 'file-type',
        message: `'${mediaClass}' uploads are not supported for this platform.`,
      },
    ];
  const errors: Array<{ rule: string; message: string }> = [];
  const add = (rule: string, message: string) => {
    if (!errors.some((e) => e.message === message)) errors.push({ rule, message });
  };
  if (!rule.allowedMimeTypes.map((t) => t.toLowerCase()).includes(mime)) {
    add(
      'file-type',
      `File type ${file.mimeType || 'unknown'} not allowed. Use: ${rule.allowedMimeTypes.join(', ')}`,
    );
  }
  if (rule.maxFileSize !== undefined && file.size > rule.maxFileSize) {
    add('file-size', `File too large. Max size is ${formatFileSize(rule.maxFileSize)}.`);
  }
  if (kind === 'video' && (rule.minDuration !== undefined || rule.maxDuration !== undefined)) {
    const duration = file.durationSec;
    if (duration === undefined || duration === null || !Number.isFinite(duration)) {
      add('file-metadata', `Could not read metadata for file ${file.fileName}`);
    } else {
      if (rule.minDuration !== undefined && duration < rule.minDuration) {
        add('video-duration', `Video too short. Min duration: ${rule.minDuration}s.`);
      }
      if (rule.maxDuration !== undefined && duration > rule.maxDuration) {
        add('video-duration', `Video too long. Max duration: ${rule.maxDuration}s.`);
      }
    }
  }
  if (rule.minDimensions) {
    const { width, height } = file;
    if (!width || !height) {
      add('file-metadata', `Could not read metadata for file ${file.fileName}`);
    } else if (width < rule.minDimensions.width || height < rule.minDimensions.height) {
      add(
        'image-dimensions',
        `Image too small. Min dimensions: ${rule.minDimensions.width}x${rule.minDimensions.height}px.`,
      );
    }
  }
  if (rule.maxDimensions && file.width && file.height) {
    if (file.width > rule.maxDimensions.width || file.height > rule.maxDimensions.height) {
      add(
        'image-dimensions',
        `Image too large. Max dimensions: ${rule.maxDimensions.width}x${rule.maxDimensions.height}px.`,
      );
    }
  }
  const ratioError = aspectRatioProblem(file, rule);
  if (ratioError) add('aspect-ratio', ratioError);
  return errors;
}

/** A width ÷ height as people read it: 0.8 → "0.8:1", 1.9099 → "1.91:1". */
const ratioText = (ratio: number) => `${Number(ratio.toFixed(2))}:1`;

/** Why an image's proportions are refused (docs/networks.md#instagram-limits), or null. */
function aspectRatioProblem(file: MediaFacts, rule: MediaRule): string | null {
  const { minAspectRatio: min, maxAspectRatio: max } = rule;
  if ((min === undefined && max === undefined) || !file.width || !file.height) return null;
  const ratio = file.width / file.height;
  // Networks compare at two decimals: 1080×566 (1.908) passes a 1.91 maximum.
  const shown = Number(ratio.toFixed(2));
  if ((min === undefined || shown >= min) && (max === undefined || shown <= max)) return null;
  const range =
    min !== undefined && max !== undefined
      ? `between ${ratioText(min)} and ${ratioText(max)}`
      : min !== undefined
        ? `at least ${ratioText(min)}`
        : `at most ${ratioText(max!)}`;
  return `Image proportions not allowed: ${file.width}x${file.height}px is ${ratioText(ratio)}; width ÷ height must be ${range}. Crop it and upload it again.`;
}

/** Messages about how many files of each group one post carries on a platform. */
export function checkMediaCount(
  files: MediaFacts[],
  constraints: MediaConstraints | null,
  platformName: string,
): string[] {
  return mediaCountProblems(files, constraints, platformName).map((p) => p.message);
}

/**
 * How many files of each group one post carries on a platform, each problem with the key of its
 * rule (`too-many-files` for all networks together; `media-count`, `image-count`, `video-count`,
 * `reel-count`, `media-required` for the platform's own), to be prefixed by the caller.
 */
export function mediaCountProblems(
  files: MediaFacts[],
  constraints: MediaConstraints | null,
  platformName: string,
): Array<{ rule: string; message: string }> {
  const errors: Array<{ rule: string; message: string }> = [];
  if (files.length > MAX_FILES_PER_POST)
    errors.push({ rule: 'too-many-files', message: TOO_MANY_FILES_MESSAGE });
  if (!constraints) return errors;
  if (constraints.maxMediaPerPost !== undefined && files.length > constraints.maxMediaPerPost) {
    errors.push({
      rule: 'media-count',
      message: `${platformName} accepts at most ${constraints.maxMediaPerPost} media files in one post.`,
    });
  }
  const counts = new Map<MediaClass, number>();
  for (const file of files) {
    const kind = mediaKindOf(file);
    if (!kind) continue;
    const mediaClass = mediaClassFor(kind, constraints);
    counts.set(mediaClass, (counts.get(mediaClass) ?? 0) + 1);
  }
  for (const [mediaClass, count] of counts) {
    const max = constraints[mediaClass]?.maxCount;
    if (max !== undefined && count > max) {
      errors.push({
        rule: `${mediaClass}-count`,
        message: `${platformName} accepts at most ${max} ${mediaClass}${max === 1 ? '' : 's'} in one post.`,
      });
    }
  }
  if (files.length === 0 && constraints.text?.textOnlyAllowed === false) {
    errors.push({
      rule: 'media-required',
      message: `${platformName} needs at least one image or video.`,
    });
  }
  return errors;
}

type Counting = NonNullable<MediaConstraints['text']>['counting'];

/** An emoji, as one grapheme: pictographs (with modifiers and joiners), flags, keycaps. */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
const utf8 = new TextEncoder();
let graphemes: Intl.Segmenter | undefined;

/**
 * Threads' count: each emoji (a whole grapheme such as 👍🏽 or 🇫🇷) counts as its UTF-8 bytes, every
 * other character as one (https://developers.facebook.com/docs/threads/posts, "Limitations").
 */
function emojiBytesLength(text: string): number {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    length += EMOJI.test(segment) ? utf8.encode(segment).length : [...segment].length;
  }
  return length;
}

/** Length of a text the way a network counts it (X: weighted, URLs as 23). */
export function countText(text: string, counting: Counting = 'codepoints'): number {
  switch (counting) {
    case 'emoji-bytes':
      return emojiBytesLength(text);
    case 'x-weighted':
      return twitterText.parseTweet(text).weightedLength;
    case 'utf16':
      return text.length;
    case 'urls-23':
      return urlsAs23Length(text);
    case 'graphemes':
      graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
      return [...graphemes.segment(text)].length;
    case 'utf8-bytes':
      return utf8.encode(text).length;
    default:
      return [...text].length;
  }
}

/**
 * Mastodon's count: code points, with every http(s) link counting as 23 whatever its length, and
 * a mention of someone on another server (`@name@their.server`) counting only its `@name`.
 */
function urlsAs23Length(text: string): number {
  let length = 0;
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+|(?<![\w/])@\w+@[\w.-]*\w/gi)) {
    const token = match[0];
    length += [...text.slice(last, match.index)].length;
    length += token.startsWith('@') ? token.indexOf('@', 1) : 23;
    last = match.index + token.length;
  }
  return length + [...text.slice(last)].length;
}

/** The text limit of a platform, or null when it has none. */
export function textLimitOf(constraints: MediaConstraints | null) {
  const text = constraints?.text;
  return text ? { max: text.maxLength, counting: text.counting } : null;
}

/**
 * A network's rules for one connected account: the account's own text limit (an X Premium
 * subscriber's long posts, read from X at connect) replaces the network's maximum, counted the
 * network's way. Without one, or when the network has no text rule, the network's rules stand.
 */
export function constraintsForAccount(
  constraints: MediaConstraints | null,
  textLimit: number | null | undefined,
): MediaConstraints | null {
  if (!constraints?.text || !textLimit) return constraints;
  return { ...constraints, text: { ...constraints.text, maxLength: textLimit } };
}

/** A message when the text is over the platform's limit; null when it fits. */
export function checkText(
  text: string,
  constraints: MediaConstraints | null,
  platformName: string,
): string | null {
  const limit = textLimitOf(constraints);
  if (!limit) return null;
  const used = countText(text, limit.counting);
  return used > limit.max
    ? `The text is too long for ${platformName}: ${used} of ${limit.max} characters.`
    : null;
}

/** docs/product.md#posts-validation: in per-platform mode every selected platform needs its own text. */
export const contentRequiredMessage = (platformId: string) =>
  `Content for platform ID ${platformId} is required`;
