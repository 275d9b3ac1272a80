import { readFileSync } from 'node:fs';
import {
  MediaConstraintsSchema,
  PLATFORM_NAMES,
  type MediaConstraints,
  type PlatformName,
} from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { FACEBOOK_MEDIA_CONSTRAINTS } from './facebook/limits.js';
import { INSTAGRAM_MEDIA_CONSTRAINTS } from './instagram/limits.js';
import { LINKEDIN_MEDIA_CONSTRAINTS } from './linkedin/limits.js';
import { THREADS_MEDIA_CONSTRAINTS } from './threads/limits.js';
import { TIKTOK_MEDIA_CONSTRAINTS } from './tiktok/limits.js';
import { X_MEDIA_CONSTRAINTS } from './x/limits.js';

/** Each network's limits.ts is the source; the seed migration is a copy that must agree. */
const SOURCE: Record<PlatformName, MediaConstraints> = {
  X: X_MEDIA_CONSTRAINTS,
  Instagram: INSTAGRAM_MEDIA_CONSTRAINTS,
  Facebook: FACEBOOK_MEDIA_CONSTRAINTS,
  Threads: THREADS_MEDIA_CONSTRAINTS,
  TikTok: TIKTOK_MEDIA_CONSTRAINTS,
  LinkedIn: LINKEDIN_MEDIA_CONSTRAINTS,
};

const SEED = new URL('../../drizzle/0005_seed_platforms.sql', import.meta.url);

/** The rows the seed inserts: name → media_constraints, read from its VALUES tuples. */
function seededConstraints(sql: string): Map<string, unknown> {
  const rows = new Map<string, unknown>();
  for (const match of sql.matchAll(/\(\s*'([^']+)',\s*(?:true|false),\s*'(\{.*\})'\s*\)/g)) {
    rows.set(match[1]!, JSON.parse(match[2]!.replaceAll("''", "'")));
  }
  return rows;
}

describe('the platforms seed', () => {
  const seeded = seededConstraints(readFileSync(SEED, 'utf8'));

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
