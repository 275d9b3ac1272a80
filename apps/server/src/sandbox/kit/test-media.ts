import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PublishMedia } from '../../platforms/types.js';

/**
 * PublishMedia for adapter tests against the sandboxes: a signed-looking Herald media URL (the
 * emulators check its form and `exp`, they do not download it) and bytes that start like the
 * real format (JPEG marker, MP4 `ftyp` box), streamed in 64 KB pieces as storage would.
 */
const PIECE = 64 * 1024;

function bytesOf(kind: 'image' | 'video', size: number): Buffer {
  const head =
    kind === 'image'
      ? Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00])
      : Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1')]);
  const bytes = Buffer.alloc(Math.max(size, head.length), 0x2a);
  head.copy(bytes);
  return bytes;
}

export function testMedia(
  kind: 'image' | 'video',
  opts: {
    size?: number;
    fileName?: string;
    durationSec?: number;
    expiresInSeconds?: number;
    bytes?: Buffer;
  } = {},
): PublishMedia & { bytes: Buffer } {
  const bytes = opts.bytes ?? bytesOf(kind, opts.size ?? (kind === 'image' ? 20_000 : 300_000));
  const key = `org/${randomBytes(6).toString('hex')}/${opts.fileName ?? (kind === 'image' ? 'photo.jpg' : 'clip.mp4')}`;
  const exp = Math.floor(Date.now() / 1000) + (opts.expiresInSeconds ?? 3600);
  return {
    kind,
    mimeType: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    url: `http://localhost:3000/api/media/${key}?exp=${exp}&sig=${randomBytes(32).toString('base64url')}`,
    fileName: key.split('/').pop()!,
    size: bytes.length,
    width: kind === 'image' ? 1080 : 720,
    height: kind === 'image' ? 1350 : 1280,
    durationSec: kind === 'video' ? (opts.durationSec ?? 12) : null,
    bytes,
    async open(range) {
      const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      const pieces: Buffer[] = [];
      for (let i = 0; i < part.length; i += PIECE) pieces.push(part.subarray(i, i + PIECE));
      return Readable.from(pieces);
    },
  };
}
