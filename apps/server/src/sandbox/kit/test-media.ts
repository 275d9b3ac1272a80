import type { PublishMedia } from '../../platforms/types.js';
import { publishMediaFromBytes } from '../../test/publish-media.js';

/**
 * PublishMedia for adapter tests against the sandboxes, over bytes that start like the real
 * format (JPEG marker, MP4 `ftyp` box) without being a whole file.
 */

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
