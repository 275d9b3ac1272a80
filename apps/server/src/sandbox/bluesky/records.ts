import { createHash, randomBytes } from 'node:crypto';

/**
 * What the Bluesky emulator shares between its parts (PDS, PLC directory, AppView, chat and video
 * service): identifiers made the way the AT Protocol makes them, and the post lexicon's checks.
 */

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A did:plc for a handle: 24 base32 characters, the same handle always the same DID. */
export const didForHandle = (handle: string) =>
  `did:plc:${base32(createHash('sha256').update(`sandbox-handle:${handle}`).digest()).slice(0, 24)}`;

/** A CID of raw bytes (CIDv1, raw codec, sha-256), as `bafkrei…`. */
export const blobCid = (bytes: Buffer) =>
  `b${base32(Buffer.concat([Buffer.from([0x01, 0x55, 0x12, 0x20]), createHash('sha256').update(bytes).digest()]))}`;

/** A CID of a record (CIDv1, dag-cbor codec), from its JSON. */
export const recordCid = (value: unknown) =>
  `b${base32(Buffer.concat([Buffer.from([0x01, 0x71, 0x12, 0x20]), createHash('sha256').update(JSON.stringify(value)).digest()]))}`;

const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

/** A fresh TID (a record key made from the time), as a PDS makes one when none is given. */
export function freshTid(): string {
  let value = (BigInt(Date.now()) * 1000n) << 10n;
  value |= BigInt(randomBytes(2).readUInt16BE(0) & 0x3ff);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_ALPHABET[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

export const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The `app.bsky.feed.post` lexicon's refusals of a record, in the reference PDS's words (`Invalid
 * app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text`), or null
 * when it is valid.
 */
export function postRecordProblem(record: Record<string, unknown>): string | null {
  const text = typeof record.text === 'string' ? record.text : null;
  if (text === null) return 'missing required key "text" at $.record';
  if (typeof record.createdAt !== 'string') return 'missing required key "createdAt" at $.record';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > 3000) return `string too long (maximum 3000, got ${bytes}) at $.record.text`;
  const count = [...graphemes.segment(text)].length;
  if (count > 300) return `grapheme too big (maximum 300, got ${count}) at $.record.text`;
  const embed = record.embed as Record<string, unknown> | undefined;
  if (embed?.$type === 'app.bsky.embed.images') {
    const images = Array.isArray(embed.images) ? embed.images : [];
    if (images.length > 4)
      return `array too big (maximum 4, got ${images.length}) at $.record.embed.images`;
    for (const [i, image] of images.entries()) {
      const blob = (image as { image?: { size?: number } }).image;
      if ((blob?.size ?? 0) > 2_000_000)
        return `blob too big (maximum 2000000, got ${blob?.size}) at $.record.embed.images[${i}].image`;
      if (typeof (image as { alt?: unknown }).alt !== 'string')
        return `missing required key "alt" at $.record.embed.images[${i}]`;
    }
  }
  const facets = Array.isArray(record.facets) ? record.facets : [];
  for (const [i, facet] of facets.entries()) {
    const index = (facet as { index?: { byteStart?: number; byteEnd?: number } }).index;
    if (
      !index ||
      typeof index.byteStart !== 'number' ||
      typeof index.byteEnd !== 'number' ||
      index.byteStart < 0 ||
      index.byteEnd > bytes ||
      index.byteEnd <= index.byteStart
    )
      return `invalid byte range at $.record.facets[${i}].index`;
  }
  return null;
}

/** A JWT-shaped session token (unsigned here: only the emulator reads it back, by its id). */
export function sessionJwt(claims: { sub: string; scope: string; exp: number; jti: string }) {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ typ: 'at+jwt', alg: 'HS256' })}.${part({ ...claims, aud: 'did:web:sandbox', iat: Math.floor(Date.now() / 1000) })}.${randomBytes(16).toString('base64url')}`;
}
