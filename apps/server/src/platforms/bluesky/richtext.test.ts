import { describe, expect, it } from 'vitest';
import { identifierOf } from './api.js';
import { cardFromHtml } from './link-card.js';
import { detectRichText, facetsOf, tidFor, tidTime } from './richtext.js';

describe('Bluesky rich text', () => {
  it('counts facet offsets in UTF-8 bytes, leaving unknown handles as text', async () => {
    const text = '✨ @known.bsky.social and @nobody.example #tag https://a.example/x.';
    const facets = await facetsOf(text, async (handle) =>
      handle === 'known.bsky.social' ? 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' : null,
    );
    const bytes = Buffer.from(text);
    const slice = (f: (typeof facets)[number]) =>
      bytes.subarray(f.index.byteStart, f.index.byteEnd).toString();
    expect(facets.map((f) => [slice(f), f.features[0]!.$type])).toEqual([
      ['@known.bsky.social', 'app.bsky.richtext.facet#mention'],
      ['#tag', 'app.bsky.richtext.facet#tag'],
      ['https://a.example/x', 'app.bsky.richtext.facet#link'],
    ]);
    expect(facets[0]!.index.byteStart).toBe(4);
  });

  it('takes no tag of digits only, and no mention inside a link', () => {
    const found = detectRichText('#2026 #ok https://x.example/@me.example');
    expect(found.tags.map((t) => t.tag)).toEqual(['ok']);
    expect(found.mentions).toEqual([]);
  });

  it('makes the same record key from the same seed and time, and reads its time back', () => {
    const at = Date.UTC(2026, 11, 2, 18, 0, 0);
    const tid = tidFor('target-1', at);
    expect(tid).toMatch(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
    expect(tidFor('target-1', at)).toBe(tid);
    expect(tidFor('target-2', at)).not.toBe(tid);
    expect(tidTime(tid)).toBe(at);
    expect(tidTime('not-a-tid')).toBeNull();
  });

  it('reads a handle or DID from what people type, and refuses the rest', () => {
    expect(identifierOf(' @Alice.Bsky.Social ')).toBe('alice.bsky.social');
    expect(identifierOf('https://bsky.app/profile/alice.example.com')).toBe('alice.example.com');
    expect(identifierOf('did:plc:abcdefghijklmnopqrstuvwx')).toBe(
      'did:plc:abcdefghijklmnopqrstuvwx',
    );
    expect(identifierOf('alice')).toBeNull();
    expect(identifierOf('did:example:1')).toBeNull();
  });

  it('reads a link card from Open Graph tags, or the title', () => {
    const og = cardFromHtml(
      '<head><meta content="A &amp; B" property="og:title"><meta property="og:description" content="About it"><meta property="og:image" content="/pic.png"></head>',
      'https://site.example/page',
    );
    expect(og).toEqual({
      title: 'A & B',
      description: 'About it',
      imageUrl: 'https://site.example/pic.png',
    });
    expect(cardFromHtml('<title>Plain</title>', 'https://site.example/').title).toBe('Plain');
  });
});
