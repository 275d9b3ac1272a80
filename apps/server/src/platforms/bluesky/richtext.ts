import { createHash } from 'node:crypto';

/**
 * Rich text of a Bluesky post (docs/networks.md#bluesky-publishing): links, mentions and hashtags
 * are not found by readers in the text, but said beside it as facets whose `index` counts UTF-8
 * bytes (`byteStart` inclusive, `byteEnd` exclusive), as `app.bsky.richtext.facet` defines.
 */
export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: Array<
    | { $type: 'app.bsky.richtext.facet#link'; uri: string }
    | { $type: 'app.bsky.richtext.facet#mention'; did: string }
    | { $type: 'app.bsky.richtext.facet#tag'; tag: string }
  >;
}

const utf8 = new TextEncoder();
const byteOffset = (text: string, index: number) => utf8.encode(text.slice(0, index)).length;

const LINK = /(^|[\s(])(https?:\/\/[^\s<>"]+)/gi;
const MENTION =
  /(^|[\s(])@(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?)\b/gi;
// A tag runs from `#` (or the full-width `＃`) to the next space; it is not only digits.
const TAG = /(^|\s)[#＃]([^\s#＃]+)/gu;

/** The links, mentions and tags of a text, where they are; mentions still carry their handle. */
export function detectRichText(text: string) {
  const links: Array<{ start: number; end: number; uri: string }> = [];
  for (const m of text.matchAll(LINK)) {
    // Sentence punctuation after a link belongs to the sentence.
    const uri = m[2]!.replace(/[.,;:!?)\]'"]+$/, '');
    const start = m.index + m[1]!.length;
    links.push({ start, end: start + uri.length, uri });
  }
  const inLink = (i: number) => links.some((l) => i >= l.start && i < l.end);
  const mentions: Array<{ start: number; end: number; handle: string }> = [];
  for (const m of text.matchAll(MENTION)) {
    const start = m.index + m[1]!.length;
    if (inLink(start)) continue;
    mentions.push({ start, end: start + 1 + m[2]!.length, handle: m[2]!.toLowerCase() });
  }
  const tags: Array<{ start: number; end: number; tag: string }> = [];
  for (const m of text.matchAll(TAG)) {
    if (!m[2]) continue;
    const start = m.index + m[1]!.length;
    if (inLink(start)) continue;
    const tag = m[2].replace(/\p{P}+$/u, '');
    if (!tag || /^\d+$/.test(tag) || [...tag].length > 64) continue;
    tags.push({ start, end: start + 1 + tag.length, tag });
  }
  return { links, mentions, tags };
}

/**
 * The facets of a text. A mention becomes a facet only when its handle resolves to an account
 * (`resolve` answers its DID, or null): an unknown handle stays plain text, as Bluesky's app does.
 */
export async function facetsOf(
  text: string,
  resolve: (handle: string) => Promise<string | null>,
): Promise<Facet[]> {
  const { links, mentions, tags } = detectRichText(text);
  const facets: Facet[] = [];
  const at = (start: number, end: number) => ({
    byteStart: byteOffset(text, start),
    byteEnd: byteOffset(text, end),
  });
  for (const l of links)
    facets.push({
      index: at(l.start, l.end),
      features: [{ $type: 'app.bsky.richtext.facet#link', uri: l.uri }],
    });
  for (const m of mentions) {
    const did = await resolve(m.handle);
    if (did)
      facets.push({
        index: at(m.start, m.end),
        features: [{ $type: 'app.bsky.richtext.facet#mention', did }],
      });
  }
  for (const t of tags)
    facets.push({
      index: at(t.start, t.end),
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag: t.tag }],
    });
  return facets.sort((a, b) => a.index.byteStart - b.index.byteStart);
}

const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

/**
 * A record key in the TID form (13 characters of base32-sortable: 53 bits of microseconds since
 * 1970, then a 10-bit clock id), made from a time and a seed: the same seed and time always give
 * the same key, so a write sent again after a lost answer names the record the first one made.
 */
export function tidFor(seed: string, at: Date | number): string {
  const micros = BigInt(typeof at === 'number' ? at : at.getTime()) * 1000n;
  const clockId = BigInt(createHash('sha256').update(seed).digest().readUInt16BE(0) & 0x3ff);
  let value = ((micros & ((1n << 53n) - 1n)) << 10n) | clockId;
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_ALPHABET[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

/** The time a TID was made at, in milliseconds (the inverse of `tidFor`'s time). */
export function tidTime(tid: string): number | null {
  if (!/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/.test(tid)) return null;
  let value = 0n;
  for (const c of tid) value = (value << 5n) | BigInt(TID_ALPHABET.indexOf(c));
  return Number((value >> 10n) / 1000n);
}
