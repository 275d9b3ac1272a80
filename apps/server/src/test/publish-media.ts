import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PublishMedia } from '../platforms/types.js';

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
