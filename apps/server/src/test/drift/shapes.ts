import type { MediaSpec } from './media.js';

/**
 * Post shapes for the drift tests, drawn from a seed: texts of lengths around each network's
 * limit with links, mentions, hashtags, cashtags, emoji and CJK; media of every type, count,
 * size, duration and proportion around the limits; thread parts and first comments. The numbers
 * below are only where to look (both Herald's figures and the networks' documented ones); the
 * verdicts come from the rules and from the emulator.
 */

/** mulberry32: a small, fast, seeded generator. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof seededRandom>;

export interface ShapeSpec {
  text: string;
  media: MediaSpec[];
  threadParts: string[];
  firstComment: string | null;
}

export interface NetworkProfile {
  /** Text lengths to aim at (a text is built to about this many characters). */
  textLengths: number[];
  imageTypes: string[];
  videoTypes: string[];
  /** Media counts to draw from (0 included where text-only posts may exist or not). */
  counts: number[];
  imageSizes: number[];
  videoSizes: number[];
  durations: number[];
  imageDimensions: Array<[number, number]>;
  videoDimensions: Array<[number, number]>;
  /** Chance that a post with media mixes images and videos. */
  mixChance: number;
  threadParts: boolean;
  firstComment: boolean;
  /** Lengths to aim at for thread parts and first comments. */
  followUpLengths: number[];
  /** How many links, mentions, hashtags and cashtags a text may carry at most. */
  links: number[];
  mentions: number[];
  hashtags: number[];
  cashtags: number[];
  /** Where mentions may point at someone on another server (`@name@server`), half of the time. */
  mentionServer?: string;
}

const WORDS = ['herald', 'morning', 'launch', 'update', 'garden', 'coffee', 'river', 'studio'];
const EMOJI = ['👍🏽', '🇫🇷', '🎉', '❤️', '👩‍💻', '1️⃣'];
const CJK = ['日本語', '漢字', '한국어'];

/** A text of about `length` characters carrying the given entities, unique by `id`. */
export function textOf(
  r: Random,
  id: string,
  length: number,
  entities: {
    links: number;
    mentions: number;
    hashtags: number;
    cashtags: number;
    mentionServer?: string;
  },
): string {
  const parts: string[] = [];
  for (let i = 0; i < entities.links; i++)
    parts.push(
      `https://example.com/${id}/${i}${r.chance(0.3) ? '?utm=a-long-tracking-value' : ''}`,
    );
  for (let i = 0; i < entities.mentions; i++)
    parts.push(
      entities.mentionServer && r.chance(0.5)
        ? `@friend_${i}@${entities.mentionServer}`
        : `@friend_${i}`,
    );
  for (let i = 0; i < entities.hashtags; i++) parts.push(`#topic${i}`);
  for (let i = 0; i < entities.cashtags; i++) parts.push(`$${['TSLA', 'AAPL', 'HRLD'][i % 3]}`);
  const flavour = r.pick(['plain', 'plain', 'emoji', 'cjk', 'mixed']);
  // The id first, always kept: every post's text differs (networks refuse duplicates).
  let text = [id, ...shuffle(r, parts)].join(' ');
  let count = [...text].length;
  while (count < length) {
    const word =
      flavour === 'emoji' || (flavour === 'mixed' && r.chance(0.3))
        ? r.pick(EMOJI)
        : flavour === 'cjk' || (flavour === 'mixed' && r.chance(0.3))
          ? r.pick(CJK)
          : r.pick(WORDS);
    text += ` ${word}`;
    count += 1 + [...word].length;
  }
  // Trim to the code point aimed at, whole characters only.
  const chars = [...text];
  return chars.length > length && length >= id.length
    ? chars.slice(0, length).join('').trimEnd()
    : text;
}

function shuffle<T>(r: Random, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function mediaOf(r: Random, p: NetworkProfile): MediaSpec[] {
  const count = r.pick(p.counts);
  if (count === 0) return [];
  const videos = p.videoTypes.length > 0;
  const images = p.imageTypes.length > 0;
  const mode = !videos
    ? 'images'
    : !images
      ? 'videos'
      : r.chance(p.mixChance)
        ? 'mixed'
        : r.chance(0.5)
          ? 'images'
          : 'videos';
  // Videos alone come one at a time mostly: a post of many videos is a carousel's business.
  const n = mode === 'videos' && r.chance(0.7) ? 1 : count;
  const out: MediaSpec[] = [];
  for (let i = 0; i < n; i++) {
    const video = mode === 'videos' || (mode === 'mixed' && (i === 0 || r.chance(0.4)));
    if (video) {
      const [width, height] = r.pick(p.videoDimensions);
      out.push({
        kind: 'video',
        mimeType: r.pick(p.videoTypes),
        width,
        height,
        durationSec: r.pick(p.durations),
        size: r.chance(0.25) ? r.pick(p.videoSizes) : undefined,
      });
    } else {
      const [width, height] = r.pick(p.imageDimensions);
      out.push({
        kind: 'image',
        mimeType: r.pick(p.imageTypes),
        width,
        height,
        size: r.chance(0.1) ? r.pick(p.imageSizes) : undefined,
      });
    }
  }
  return out;
}

export function shapeOf(r: Random, p: NetworkProfile, index: number): ShapeSpec {
  const id = `s${index}`;
  const entities = {
    links: r.chance(0.3) ? r.pick(p.links) : 0,
    mentions: r.chance(0.25) ? r.pick(p.mentions) : 0,
    hashtags: r.chance(0.25) ? r.pick(p.hashtags) : 0,
    cashtags: r.chance(0.2) ? r.pick(p.cashtags) : 0,
    mentionServer: p.mentionServer,
  };
  const text = textOf(r, id, r.pick(p.textLengths), entities);
  const threadParts =
    p.threadParts && r.chance(0.2)
      ? Array.from({ length: r.int(1, 3) }, (_, i) =>
          textOf(r, `${id}p${i + 1}`, r.pick(p.followUpLengths), {
            links: r.chance(0.2) ? r.pick(p.links) : 0,
            mentions: 0,
            hashtags: 0,
            cashtags: r.chance(0.2) ? r.pick(p.cashtags) : 0,
          }),
        )
      : [];
  const firstComment =
    p.firstComment && r.chance(0.2)
      ? textOf(r, `${id}c`, r.pick(p.followUpLengths), {
          links: 0,
          mentions: 0,
          hashtags: 0,
          cashtags: 0,
        })
      : null;
  return { text, media: mediaOf(r, p), threadParts, firstComment };
}

/** Lengths around a limit: well under, just under, at, just over. */
export const around = (...limits: number[]) =>
  limits.flatMap((l) => [l - 1, l, l, l + 1, l + 2]).filter((n) => n >= 0);
