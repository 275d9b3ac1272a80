import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { AppError } from '../lib/app-error.js';
import { avif, gif, jpeg, mkv, mov, mp4, png, webm, webp } from '../test/media-fixtures.js';
import { startS3Server } from '../test/s3-server.js';
import { createMediaStore, type IngestedMedia, type MediaStore } from './media-store.js';
import { S3Storage } from './storage/s3-storage.js';

const ORG = '3f0e9a52-8c1d-4b7e-9a1f-2d6c5b4a3e21';
const SIGNING_KEY = 'test-signing-key';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Chunks of 64 KiB, like a multipart file stream. */
function streamOf(buffer: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < buffer.length; at += 65_536) chunks.push(buffer.subarray(at, at + 65_536));
  return Readable.from(chunks, { objectMode: false });
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

interface Env {
  root: string;
  storeDir: string;
  tempDir: string;
  media: MediaStore;
}

async function localStore(env: Record<string, string> = {}, now?: () => number): Promise<Env> {
  const root = await mkdtemp(join(tmpdir(), 'herald-media-'));
  const storeDir = join(root, 'store');
  const tempDir = join(root, 'tmp');
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'https://herald.example.com',
    MEDIA_DIR: storeDir,
    MEDIA_TEMP_DIR: tempDir,
    ...env,
  });
  return { root, storeDir, tempDir, media: createMediaStore(config, SIGNING_KEY, { now }) };
}

async function expectThumbnail(media: MediaStore, ingested: IngestedMedia) {
  expect(ingested.thumbnailKey).toMatch(new RegExp(`^${ORG}/[0-9a-f-]{36}\\.thumb\\.webp$`));
  const thumb = await media.open(ingested.thumbnailKey ?? '');
  expect(thumb.contentType).toBe('image/webp');
  const meta = await sharp(await readAll(thumb.stream)).metadata();
  expect(meta.format).toBe('webp');
  expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(480);
  return meta;
}

describe('MediaStore.ingest with ffmpeg and ffprobe', () => {
  let env: Env;
  beforeAll(async () => {
    env = await localStore();
  });
  afterAll(() => rm(env.root, { recursive: true, force: true }));

  it.each([
    ['photo.jpg', () => jpeg(800, 600), 'image/jpeg', 'jpg', 800, 600],
    ['logo.png', () => png(300, 200), 'image/png', 'png', 300, 200],
    ['anim.gif', () => gif(64, 48), 'image/gif', 'gif', 64, 48],
    ['pic.webp', () => webp(1200, 900), 'image/webp', 'webp', 1200, 900],
    ['pic.avif', () => avif(320, 240), 'image/avif', 'avif', 320, 240],
  ])(
    'takes in %s: sniffed, measured, stored, thumbnailed',
    async (name, make, mimeType, ext, w, h) => {
      const bytes = await make();
      const ingested = await env.media.ingest(streamOf(bytes), {
        organizationId: ORG,
        fileName: name,
        declaredMimeType: 'application/octet-stream',
      });
      expect(ingested).toEqual({
        storageKey: expect.stringMatching(new RegExp(`^${ORG}/[0-9a-f-]{36}\\.${ext}$`)),
        thumbnailKey: expect.any(String),
        fileName: name,
        mimeType,
        kind: 'image',
        size: bytes.length,
        width: w,
        height: h,
        durationSec: null,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      const stored = await env.media.open(ingested.storageKey);
      expect(stored.contentType).toBe(mimeType);
      expect((await readAll(stored.stream)).equals(bytes)).toBe(true);
      const thumb = await expectThumbnail(env.media, ingested);
      // Same shape, never enlarged.
      expect(thumb.width / thumb.height).toBeCloseTo(w / h, 1);
      expect(thumb.width).toBe(Math.min(w, 480 * Math.min(1, w / h)));
    },
  );

  it('believes the bytes, not the name or the declared type', async () => {
    const ingested = await env.media.ingest(streamOf(await jpeg(100, 100)), {
      organizationId: ORG,
      fileName: 'C:\\fakepath\\really-a-jpeg.png',
      declaredMimeType: 'image/png',
    });
    expect(ingested).toMatchObject({ mimeType: 'image/jpeg', fileName: 'really-a-jpeg.png' });
    expect(ingested.storageKey.endsWith('.jpg')).toBe(true);
  });

  it('measures a photo as displayed (EXIF orientation) and turns its thumbnail upright', async () => {
    const ingested = await env.media.ingest(streamOf(await jpeg(400, 200, { orientation: 6 })), {
      organizationId: ORG,
      fileName: 'phone.jpg',
    });
    expect(ingested).toMatchObject({ width: 200, height: 400 });
    const thumb = await expectThumbnail(env.media, ingested);
    expect(thumb.height).toBeGreaterThan(thumb.width);
  });

  it.each([
    ['clip.mp4', mp4, 'video/mp4', 'mp4'],
    ['clip.mov', mov, 'video/quicktime', 'mov'],
    ['clip.webm', webm, 'video/webm', 'webm'],
    ['clip.mkv', mkv, 'video/x-matroska', 'mkv'],
  ] as const)(
    'takes in %s with its duration, size and a frame as thumbnail',
    async (name, make, mimeType, ext) => {
      const bytes = await make({ seconds: 3, width: 320, height: 240 });
      const ingested = await env.media.ingest(streamOf(bytes), {
        organizationId: ORG,
        fileName: name,
      });
      expect(ingested).toMatchObject({
        mimeType,
        kind: 'video',
        size: bytes.length,
        width: 320,
        height: 240,
      });
      expect(ingested.storageKey.endsWith(`.${ext}`)).toBe(true);
      expect(Math.abs((ingested.durationSec ?? 0) - 3)).toBeLessThan(0.25);
      const thumb = await expectThumbnail(env.media, ingested);
      // A real frame keeps the video's own size (a poster would be 480 wide).
      expect([thumb.width, thumb.height]).toEqual([320, 240]);
    },
  );

  it('reports a portrait phone video as it is shown', async () => {
    const bytes = await mp4({ seconds: 1, width: 320, height: 240, rotate: 90 });
    const ingested = await env.media.ingest(streamOf(bytes), {
      organizationId: ORG,
      fileName: 'p.mp4',
    });
    expect(ingested).toMatchObject({ width: 240, height: 320 });
    const thumb = await expectThumbnail(env.media, ingested);
    expect(thumb.height).toBeGreaterThan(thumb.width);
  });

  it('refuses a .jpg whose bytes are a PDF and leaves nothing behind', async () => {
    const before = await filesUnder(env.storeDir);
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n'.repeat(200));
    const err = await rejection(
      env.media.ingest(streamOf(pdf), {
        organizationId: ORG,
        fileName: 'holiday.jpg',
        declaredMimeType: 'image/jpeg',
      }),
    );
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.message).toBe(
      'holiday.jpg is not an image or video Herald can read (its content looks like a PDF document).',
    );
    expect(await filesUnder(env.storeDir)).toEqual(before);
    expect(await filesUnder(env.tempDir)).toEqual([]);
  });

  it('stops reading a refused file at its first bytes instead of taking it all in', async () => {
    let served = 0;
    const chunk = Buffer.alloc(65_536, 0x41);
    const endless = new Readable({
      read() {
        served += 1;
        this.push(served > 1000 ? null : chunk);
      },
    });
    const err = await rejection(
      env.media.ingest(endless, { organizationId: ORG, fileName: 'x.mp4' }),
    );
    expect(err.message).toContain('looks like plain text');
    expect(served).toBeLessThan(10);
    expect(endless.destroyed).toBe(true);
    expect(await filesUnder(env.tempDir)).toEqual([]);
  });

  it('leaves nothing behind when the upload stream breaks', async () => {
    const before = await filesUnder(env.storeDir);
    const head = (await mp4()).subarray(0, 20_000);
    let sent = false;
    const broken = new Readable({
      read() {
        if (!sent) {
          sent = true;
          this.push(head);
        } else this.destroy(new Error('the connection was reset'));
      },
    });
    await expect(
      env.media.ingest(broken, { organizationId: ORG, fileName: 'c.mp4' }),
    ).rejects.toThrow('the connection was reset');
    expect(await filesUnder(env.storeDir)).toEqual(before);
    expect(await filesUnder(env.tempDir)).toEqual([]);
  });

  it('refuses an organization id that could not be a folder name', async () => {
    const err = await rejection(
      env.media.ingest(streamOf(await png(10, 10)), {
        organizationId: '../other',
        fileName: 'a.png',
      }),
    );
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('removes originals and thumbnails, and forgets keys already gone', async () => {
    const ingested = await env.media.ingest(streamOf(await png(50, 50)), {
      organizationId: ORG,
      fileName: 'gone.png',
    });
    const keys = [ingested.storageKey, ingested.thumbnailKey ?? ''];
    await env.media.remove(keys);
    await env.media.remove(keys);
    for (const key of keys) expect((await rejection(env.media.open(key))).code).toBe('NOT_FOUND');
  });

  it('opens a byte range of a stored file', async () => {
    const bytes = await mp4();
    const { storageKey } = await env.media.ingest(streamOf(bytes), {
      organizationId: ORG,
      fileName: 'r.mp4',
    });
    const part = await env.media.open(storageKey, { start: 100, end: 199 });
    expect(part).toMatchObject({ size: 100, totalSize: bytes.length, contentType: 'video/mp4' });
    expect((await readAll(part.stream)).equals(bytes.subarray(100, 200))).toBe(true);
  });
});

describe('MediaStore.ingest without ffmpeg or ffprobe', () => {
  let env: Env;
  beforeAll(async () => {
    env = await localStore({
      FFMPEG_PATH: '/nonexistent/ffmpeg',
      FFPROBE_PATH: '/nonexistent/ffprobe',
    });
  });
  afterAll(() => rm(env.root, { recursive: true, force: true }));

  it.each([
    ['clip.mp4', mp4, 'video/mp4'],
    ['clip.webm', webm, 'video/webm'],
  ] as const)(
    'measures %s with the built-in reader and gives it a poster',
    async (name, make, mimeType) => {
      const bytes = await make({ seconds: 2, width: 320, height: 240 });
      const ingested = await env.media.ingest(streamOf(bytes), {
        organizationId: ORG,
        fileName: name,
      });
      expect(ingested).toMatchObject({ mimeType, width: 320, height: 240 });
      expect(Math.abs((ingested.durationSec ?? 0) - 2)).toBeLessThan(0.25);
      const poster = await expectThumbnail(env.media, ingested);
      // The poster is drawn at thumbnail size in the video's 4:3 shape.
      expect([poster.width, poster.height]).toEqual([480, 360]);
    },
  );
});

describe('MediaStore limits', () => {
  it('refuses a file over MEDIA_MAX_FILE_BYTES with PAYLOAD_TOO_LARGE and leaves nothing', async () => {
    const env = await localStore({ MEDIA_MAX_FILE_BYTES: '100000' });
    try {
      const big = Buffer.concat([await jpeg(64, 64), Buffer.alloc(200_000)]);
      const err = await rejection(
        env.media.ingest(streamOf(big), { organizationId: ORG, fileName: 'big.jpg' }),
      );
      expect(err.code).toBe('PAYLOAD_TOO_LARGE');
      expect(err.message).toBe('big.jpg is too large: Herald accepts files up to 97.66 KB.');
      expect(await filesUnder(env.storeDir)).toEqual([]);
      expect(await filesUnder(env.tempDir)).toEqual([]);

      const fits = Buffer.concat([await jpeg(64, 64), Buffer.alloc(1000)]);
      const exact = Buffer.concat([fits, Buffer.alloc(100_000 - fits.length)]);
      const ingested = await env.media.ingest(streamOf(exact), {
        organizationId: ORG,
        fileName: 'ok.jpg',
      });
      expect(ingested.size).toBe(100_000);
    } finally {
      await rm(env.root, { recursive: true, force: true });
    }
  });
});

describe('MediaStore signed URLs', () => {
  it('signs an absolute URL under API_PUBLIC_URL that expires after the TTL', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const env = await localStore({ MEDIA_URL_TTL_SECONDS: '600' }, () => now);
    try {
      const url = new URL(env.media.signedUrl(`${ORG}/a.jpg`));
      expect(`${url.origin}${url.pathname}`).toBe(
        `https://herald.example.com/api/media/${ORG}/a.jpg`,
      );
      const exp = url.searchParams.get('exp');
      expect(Number(exp)).toBe(now / 1000 + 600);
      expect(Number(new URL(env.media.signedUrl(`${ORG}/a.jpg`, 60)).searchParams.get('exp'))).toBe(
        now / 1000 + 60,
      );
      const sig = url.searchParams.get('sig');
      expect(env.media.checkUrl(`${ORG}/a.jpg`, exp, sig)).toEqual({
        status: 'valid',
        expiresAt: now / 1000 + 600,
      });
      expect(env.media.checkUrl(`${ORG}/b.jpg`, exp, sig).status).toBe('invalid');
      expect(env.media.checkUrl(`${ORG}/a.jpg`, String(Number(exp) + 1), sig).status).toBe(
        'invalid',
      );
      expect(env.media.checkUrl(`${ORG}/a.jpg`, exp, undefined).status).toBe('invalid');
      expect(
        (await rejection(Promise.resolve().then(() => env.media.signedUrl('../x')))).code,
      ).toBe('BAD_REQUEST');
    } finally {
      await rm(env.root, { recursive: true, force: true });
    }
  });
});

describe('MediaStore on S3', () => {
  it('stores the original and thumbnail in the bucket, and cleans up when storing fails', async () => {
    const s3 = await startS3Server('media');
    const root = await mkdtemp(join(tmpdir(), 'herald-media-s3-'));
    const config = loadConfig({ NODE_ENV: 'test', MEDIA_TEMP_DIR: join(root, 'tmp'), ...s3.env });
    expect(config.media.storage.driver).toBe('s3');
    const media = createMediaStore(config, SIGNING_KEY);
    try {
      const bytes = await jpeg(640, 480);
      const ingested = await media.ingest(streamOf(bytes), {
        organizationId: ORG,
        fileName: 'a.jpg',
      });
      expect(await s3.keys()).toEqual([ingested.storageKey, ingested.thumbnailKey].sort());
      expect((await readAll((await media.open(ingested.storageKey)).stream)).equals(bytes)).toBe(
        true,
      );
      await media.remove([ingested.storageKey, ingested.thumbnailKey ?? '']);
      expect(await s3.keys()).toEqual([]);

      // The original goes in, the thumbnail is refused: the original must not stay.
      s3.failNext('PutObject', 1);
      await expect(
        media.ingest(streamOf(bytes), { organizationId: ORG, fileName: 'b.jpg' }),
      ).rejects.toThrow();
      expect(await s3.keys()).toEqual([]);
      expect(await filesUnder(join(root, 'tmp'))).toEqual([]);
    } finally {
      media.close();
      await s3.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('is what createMediaStore picks for an S3 configuration', () => {
    const config = loadConfig({ S3_BUCKET: 'b' });
    const media = createMediaStore(config, SIGNING_KEY);
    expect((media as unknown as { driver: unknown }).driver).toBeInstanceOf(S3Storage);
    media.close();
  });
});
