import { readdirSync, readFileSync } from 'node:fs';
import {
  checkMediaCount,
  MediaConstraintsSchema,
  PLATFORM_NAMES,
  type MediaConstraints,
  type PlatformName,
} from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { BLUESKY_MEDIA_CONSTRAINTS } from './bluesky/limits.js';
import { FACEBOOK_MEDIA_CONSTRAINTS } from './facebook/limits.js';
import { INSTAGRAM_MEDIA_CONSTRAINTS } from './instagram/limits.js';
import { LINKEDIN_MEDIA_CONSTRAINTS } from './linkedin/limits.js';
import { MASTODON_MEDIA_CONSTRAINTS } from './mastodon/limits.js';
import { THREADS_MEDIA_CONSTRAINTS } from './threads/limits.js';
import { TIKTOK_MEDIA_CONSTRAINTS } from './tiktok/limits.js';
import { X_MEDIA_CONSTRAINTS } from './x/limits.js';
import { YOUTUBE_MEDIA_CONSTRAINTS } from './youtube/limits.js';
import { GBP_MEDIA_CONSTRAINTS } from './googlebusiness/limits.js';
import { PINTEREST_MEDIA_CONSTRAINTS } from './pinterest/limits.js';

/** Each network's limits.ts is the source; the seed migration is a copy that must agree. */
const SOURCE: Record<PlatformName, MediaConstraints> = {
  X: X_MEDIA_CONSTRAINTS,
  Instagram: INSTAGRAM_MEDIA_CONSTRAINTS,
  Facebook: FACEBOOK_MEDIA_CONSTRAINTS,
  Threads: THREADS_MEDIA_CONSTRAINTS,
  TikTok: TIKTOK_MEDIA_CONSTRAINTS,
  LinkedIn: LINKEDIN_MEDIA_CONSTRAINTS,
  Mastodon: MASTODON_MEDIA_CONSTRAINTS,
  Bluesky: BLUESKY_MEDIA_CONSTRAINTS,
  YouTube: YOUTUBE_MEDIA_CONSTRAINTS,
  'Google Business Profile': GBP_MEDIA_CONSTRAINTS,
  Pinterest: PINTEREST_MEDIA_CONSTRAINTS,
};

const MIGRATIONS = new URL('../../drizzle/', import.meta.url);
const SEED = '0005_seed_platforms.sql';

/**
 * The rows the seed inserts (name → media_constraints, read from its VALUES tuples), with the
 * later migrations' inserts (a network added since) and their
 * `UPDATE "platforms" SET "media_constraints" = '{…}'` applied in order.
 */
function seededConstraints(): Map<string, unknown> {
  const rows = new Map<string, unknown>();
  const parse = (json: string) => JSON.parse(json.replaceAll("''", "'")) as unknown;
  const inserts = /\(\s*'([^']+)',\s*(?:true|false),\s*'(\{.*\})'\s*\)/g;
  const seed = readFileSync(new URL(SEED, MIGRATIONS), 'utf8');
  for (const match of seed.matchAll(inserts)) rows.set(match[1]!, parse(match[2]!));
  const later = readdirSync(MIGRATIONS)
    .filter((file) => file.endsWith('.sql') && file > SEED)
    .sort();
  for (const file of later) {
    const sql = readFileSync(new URL(file, MIGRATIONS), 'utf8');
    if (sql.includes('INSERT INTO "platforms"'))
      for (const match of sql.matchAll(inserts)) rows.set(match[1]!, parse(match[2]!));
    const updates =
      /UPDATE "platforms" SET "media_constraints" = '(\{.*?\})'(?:::jsonb)? WHERE "name" = '([^']+)'/g;
    for (const match of sql.matchAll(updates)) rows.set(match[2]!, parse(match[1]!));
  }
  return rows;
}

describe('the platforms seed', () => {
  const seeded = seededConstraints();

  it('seeds every supported network, and only those', () => {
    expect([...seeded.keys()].sort()).toEqual([...PLATFORM_NAMES].sort());
  });

  it.each(PLATFORM_NAMES)("stores %s's media constraints exactly as its limits.ts says", (name) => {
    expect(seeded.get(name)).toEqual(SOURCE[name]);
  });

  it.each(PLATFORM_NAMES)("%s's constraints are valid as the API describes them", (name) => {
    expect(MediaConstraintsSchema.parse(SOURCE[name])).toEqual(SOURCE[name]);
  });
});

describe('files per post', () => {
  // Each network's own count (docs/networks.md#composer-limits), not one global cap.
  const expected: Record<PlatformName, number> = {
    X: 4,
    Instagram: 10,
    Facebook: 10,
    Threads: 20,
    TikTok: 35,
    LinkedIn: 20,
    Mastodon: 4,
    Bluesky: 4,
    YouTube: 2,
    'Google Business Profile': 1,
    Pinterest: 5,
  };
  const photos = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      fileName: `${i}.jpg`,
      mimeType: 'image/jpeg',
      size: 1024,
      width: 1080,
      height: 1080,
    }));

  it('YouTube takes its video and one image (the thumbnail), and says so past it', () => {
    const video = { fileName: 'v.mp4', mimeType: 'video/mp4', size: 4096, durationSec: 30 };
    expect(SOURCE.YouTube.maxMediaPerPost).toBe(expected.YouTube);
    expect(checkMediaCount([video, ...photos(1)], SOURCE.YouTube, 'YouTube')).toEqual([]);
    expect(checkMediaCount([video, ...photos(2)], SOURCE.YouTube, 'YouTube')).toContain(
      'YouTube accepts at most 2 media files in one post.',
    );
  });

  it.each(PLATFORM_NAMES.filter((name) => name !== 'YouTube'))(
    '%s takes as many images as the network does, and says so past it',
    (name) => {
      const max = expected[name];
      expect(SOURCE[name].maxMediaPerPost).toBe(max);
      expect(checkMediaCount(photos(max), SOURCE[name], name)).toEqual([]);
      expect(checkMediaCount(photos(max + 1), SOURCE[name], name)).toContain(
        `${name} accepts at most ${max} media files in one post.`,
      );
    },
  );
});
