import { randomBytes } from 'node:crypto';
import type { PublishMedia, PublishRequest } from '../../platforms/types.js';
import { jpeg, mp4 } from '../../test/media-fixtures.js';
import { publishMediaFromBytes } from '../../test/publish-media.js';

/** PublishMedia for adapter tests over real JPEG/MP4 bytes (see test/publish-media.ts). */
function fromBuffer(
  bytes: Buffer,
  media: Omit<PublishMedia, 'open' | 'size' | 'url'>,
  expiresInSeconds: number,
): PublishMedia {
  return publishMediaFromBytes(bytes, { ...media, expiresInSeconds });
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
