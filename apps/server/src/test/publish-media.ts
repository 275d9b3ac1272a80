import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PublishMedia, PublishRequest } from '../platforms/types.js';
import { jpeg, mp4 } from './media-fixtures.js';

const PIECE = 64 * 1024;

/**
 * For adapter tests: a PublishMedia over bytes in memory, as the engine hands files over — a
 * signed-looking Herald media URL (the emulators check its form and `exp`; they do not fetch it)
 * and `open()` streaming the bytes in 64 KB pieces the way storage does, so uploads have to
 * re-chunk them. `opened` records every `open()` with its (inclusive) range.
 */
export function publishMediaFromBytes(
  bytes: Buffer,
  meta: Omit<PublishMedia, 'open' | 'size' | 'url' | 'width' | 'height' | 'durationSec'> & {
    width?: number | null;
    height?: number | null;
    durationSec?: number | null;
    expiresInSeconds?: number;
  },
): PublishMedia & { opened: Array<{ start: number; end: number } | null> } {
  const opened: Array<{ start: number; end: number } | null> = [];
  const exp = Math.floor(Date.now() / 1000) + (meta.expiresInSeconds ?? 3600);
  const key = `org/${randomBytes(6).toString('hex')}/${encodeURIComponent(meta.fileName)}`;
  return {
    kind: meta.kind,
    mimeType: meta.mimeType,
    fileName: meta.fileName,
    url: `http://localhost:3000/api/media/${key}?exp=${exp}&sig=${randomBytes(32).toString('base64url')}`,
    size: bytes.length,
    width: meta.width ?? null,
    height: meta.height ?? null,
    durationSec: meta.durationSec ?? null,
    opened,
    async open(range) {
      opened.push(range ?? null);
      const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      const pieces: Buffer[] = [];
      for (let i = 0; i < part.length; i += PIECE) pieces.push(part.subarray(i, i + PIECE));
      return Readable.from(pieces);
    },
  };
}

/** publishMediaFromBytes with a file name made from the MIME type when none is given. */
export function publishMediaOf(
  bytes: Buffer,
  meta: {
    kind: 'image' | 'video';
    mimeType: string;
    fileName?: string;
    width?: number;
    height?: number;
    durationSec?: number;
  },
): PublishMedia & { opened: Array<{ start: number; end: number } | null> } {
  return publishMediaFromBytes(bytes, {
    ...meta,
    fileName: meta.fileName ?? `file.${meta.mimeType.split('/')[1]}`,
  });
}

/** Bytes that start like the real format (JPEG marker, MP4 `ftyp` box) without being a whole file. */
function headedBytes(kind: 'image' | 'video', size: number): Buffer {
  const head =
    kind === 'image'
      ? Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00])
      : Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1')]);
  const bytes = Buffer.alloc(Math.max(size, head.length), 0x2a);
  head.copy(bytes);
  return bytes;
}

/** A PublishMedia over format-headed filler bytes (the emulators check the head, not the whole). */
export function testMedia(
  kind: 'image' | 'video',
  opts: {
    size?: number;
    fileName?: string;
    durationSec?: number;
    expiresInSeconds?: number;
    bytes?: Buffer;
  } = {},
): PublishMedia & { bytes: Buffer; opened: Array<{ start: number; end: number } | null> } {
  const bytes = opts.bytes ?? headedBytes(kind, opts.size ?? (kind === 'image' ? 20_000 : 300_000));
  const media = publishMediaFromBytes(bytes, {
    kind,
    mimeType: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    fileName: opts.fileName ?? (kind === 'image' ? 'photo.jpg' : 'clip.mp4'),
    width: kind === 'image' ? 1080 : 720,
    height: kind === 'image' ? 1350 : 1280,
    durationSec: kind === 'video' ? (opts.durationSec ?? 12) : null,
    expiresInSeconds: opts.expiresInSeconds,
  });
  return { ...media, bytes };
}

/** A PublishMedia over a real JPEG (media-fixtures.ts). */
export async function imageMedia(
  name = 'photo.jpg',
  options: { width?: number; height?: number; expiresInSeconds?: number } = {},
): Promise<PublishMedia> {
  const { width = 1080, height = 1080, expiresInSeconds = 3600 } = options;
  return publishMediaFromBytes(await jpeg(width, height), {
    kind: 'image',
    mimeType: 'image/jpeg',
    fileName: name,
    width,
    height,
    durationSec: null,
    expiresInSeconds,
  });
}

/** A PublishMedia over a real 3-second MP4 (media-fixtures.ts; needs ffmpeg). */
export async function videoMedia(
  name = 'clip.mp4',
  options: { expiresInSeconds?: number } = {},
): Promise<PublishMedia> {
  return publishMediaFromBytes(await mp4({ seconds: 3, width: 180, height: 320 }), {
    kind: 'video',
    mimeType: 'video/mp4',
    fileName: name,
    width: 180,
    height: 320,
    durationSec: 3,
    expiresInSeconds: options.expiresInSeconds ?? 3600,
  });
}

export const publishRequest = (text: string, media: PublishMedia[] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: randomBytes(8).toString('hex'),
});
