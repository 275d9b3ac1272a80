import { describe, expect, it } from 'vitest';
import { listedSince } from './types.js';

describe('listedSince', () => {
  const since = new Date('2026-11-01T00:00:00Z');
  const read = (m: { id: string; at?: string }) => ({
    externalId: m.id,
    publishedAt: m.at ? new Date(m.at) : null,
    permalink: null,
    text: `post ${m.id}`,
    thumbnailUrl: null,
  });

  it('keeps the posts published since the date and leaves out older, undated and unreadable ones', () => {
    const out = listedSince(
      [
        { id: 'new', at: '2026-11-20T10:00:00Z' },
        { id: 'exact', at: '2026-11-01T00:00:00Z' },
        { id: 'old', at: '2026-10-31T23:59:59Z' },
        { id: 'undated' },
        { id: 'garbled', at: 'yesterday-ish' },
      ],
      since,
      read,
    );
    expect(out.map((p) => p.externalId)).toEqual(['new', 'exact']);
    expect(out[0]).toMatchObject({
      text: 'post new',
      publishedAt: new Date('2026-11-20T10:00:00Z'),
    });
  });

  it('answers an empty list when the network gives no data', () => {
    expect(listedSince(undefined, since, read)).toEqual([]);
  });
});
