import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PublishMedia, PublishRequest } from '../../platforms/types.js';
import { jpeg, mp4 } from '../../test/media-fixtures.js';

/**
 * PublishMedia for adapter tests, as the engine hands them over: a signed URL under
 * PUBLIC_URL (the emulator checks its form and `exp`, it does not fetch it) and the real
 * bytes behind `open()`.
 */
function signedUrl(fileName: string, expiresInSeconds: number) {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  const sig = randomBytes(32).toString('base64url');
  return `http://localhost:3000/api/media/${encodeURIComponent(fileName)}?exp=${exp}&sig=${sig}`;
}

function fromBuffer(
  bytes: Buffer,
  media: Omit<PublishMedia, 'open' | 'size' | 'url'>,
  expiresInSeconds: number,
): PublishMedia {
  return {
    ...media,
    url: signedUrl(media.fileName, expiresInSeconds),
    size: bytes.length,
    async open(range) {
      return Readable.from(range ? bytes.subarray(range.start, range.end + 1) : bytes);
    },
  };
}

export async function imageMedia(
  name = 'photo.jpg',
  options: { width?: number; height?: number; expiresInSeconds?: number } = {},
): Promise<PublishMedia> {
  const { width = 1080, height = 1080, expiresInSeconds = 3600 } = options;
  return fromBuffer(
    await jpeg(width, height),
    {
      kind: 'image',
      mimeType: 'image/jpeg',
      fileName: name,
      width,
      height,
      durationSec: null,
    },
    expiresInSeconds,
  );
}

export async function videoMedia(
  name = 'clip.mp4',
  options: { expiresInSeconds?: number } = {},
): Promise<PublishMedia> {
  const bytes = await mp4({ seconds: 3, width: 180, height: 320 });
  return fromBuffer(
    bytes,
    {
      kind: 'video',
      mimeType: 'video/mp4',
      fileName: name,
      width: 180,
      height: 320,
      durationSec: 3,
    },
    options.expiresInSeconds ?? 3600,
  );
}

export const publishRequest = (text: string, media: PublishMedia[] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: randomBytes(8).toString('hex'),
});
