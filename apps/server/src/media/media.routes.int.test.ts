import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecrets } from '../db/secrets.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { jpeg, mp4 } from '../test/media-fixtures.js';
import { startS3Server } from '../test/s3-server.js';
import { createMediaStore, type MediaStore } from './media-store.js';

const ORG = '0b7c2f4e-1d3a-4c5b-8e6f-9a0b1c2d3e4f';

/** The path and query of a signed URL, for app.inject. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

interface OpenStorage {
  /** The settings that point the app at it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Every storage the app can be configured with: the same answers are expected from each. */
const storages: Array<{ name: string; open(dir: string): Promise<OpenStorage> }> = [
  {
    name: 'a local folder',
    open: async (dir) => ({ env: { MEDIA_DIR: join(dir, 'store') }, close: async () => {} }),
  },
  {
    name: 'an S3 bucket',
    async open() {
      const s3 = await startS3Server('herald-media');
      return { env: s3.env, close: () => s3.close() };
    },
  },
];

describe.each(storages)('GET /api/media/* (signed media URLs) from $name', ({ open }) => {
  let t: TestApp;
  let dir: string;
  let storage: OpenStorage;
  /** A store like the app's: same storage, same signing key (derived from the app's secrets). */
  let media: MediaStore;
  let signingKey: string;
  let photo: Buffer;
  let photoKey: string;
  let clip: Buffer;
  let clipKey: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-media-routes-'));
    storage = await open(dir);
    t = await createTestApp({ ...storage.env, MEDIA_TEMP_DIR: join(dir, 'tmp') });
    signingKey = (await loadSecrets(t.database.db, t.config.sessionSecret)).derive('media-url');
    media = createMediaStore(t.config, signingKey);
    photo = await jpeg(320, 240);
    photoKey = (
      await media.ingest(Readable.from([photo]), { organizationId: ORG, fileName: 'p.jpg' })
    ).storageKey;
    clip = await mp4({ seconds: 2, width: 320, height: 240 });
    clipKey = (
      await media.ingest(Readable.from([clip]), { organizationId: ORG, fileName: 'c.mp4' })
    ).storageKey;
  }, 120_000);

  afterAll(async () => {
    media?.close();
    await t?.close();
    await storage?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the file to anyone holding a valid link, with its type and length', async () => {
    const url = media.signedUrl(photoKey);
    expect(url.startsWith(`${t.config.apiPublicUrl}/media/${ORG}/`)).toBe(true);
    const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(Number(res.headers['content-length'])).toBe(photo.length);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(photo)).toBe(true);
    const maxAge = Number(
      /^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1],
    );
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
  });

  it('lets browsers cache a link no longer than it stays valid', async () => {
    const res = await t.app.inject({ method: 'GET', url: pathOf(media.signedUrl(photoKey, 90)) });
    const maxAge = Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThan(80);
    expect(maxAge).toBeLessThanOrEqual(90);
  });

  it('answers a Range request with 206 and just those bytes (video seeking)', async () => {
    const url = pathOf(media.signedUrl(clipKey));
    const res = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-1123' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-range']).toBe(`bytes 100-1123/${clip.length}`);
    expect(Number(res.headers['content-length'])).toBe(1024);
    expect(res.rawPayload.equals(clip.subarray(100, 1124))).toBe(true);

    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-16' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(
      `bytes ${clip.length - 16}-${clip.length - 1}/${clip.length}`,
    );
    expect(tail.rawPayload.equals(clip.subarray(clip.length - 16))).toBe(true);

    const open = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-' } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(clip)).toBe(true);
  });

  it('answers 416 for a range past the end of the file', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: pathOf(media.signedUrl(clipKey)),
      headers: { range: `bytes=${clip.length}-` },
    });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${clip.length}`);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: pathOf(media.signedUrl(photoKey)) });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(photo.length);
    expect(res.rawPayload.length).toBe(0);
  });

  it('refuses a tampered signature, another file’s signature or a missing one with 403', async () => {
    const good = new URL(media.signedUrl(photoKey));
    const sig = good.searchParams.get('sig') ?? '';
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const otherFile = new URL(media.signedUrl(clipKey));
    const attempts = [
      `${good.pathname}?exp=${good.searchParams.get('exp')}&sig=${flipped}`,
      `${good.pathname}?exp=${Number(good.searchParams.get('exp')) + 3600}&sig=${sig}`,
      `${good.pathname}${otherFile.search}`,
      `${good.pathname}?exp=${good.searchParams.get('exp')}`,
      good.pathname,
    ];
    for (const url of attempts) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({
        status: 'error',
        code: 'FORBIDDEN',
        message: 'This media link is not valid. Open the post again in Herald to get a fresh link.',
      });
    }
  });

  it('refuses an expired link with 403 and says so', async () => {
    const twoHoursAgo = Date.now() - 2 * 3600 * 1000;
    const past = createMediaStore(t.config, signingKey, { now: () => twoHoursAgo });
    const res = await t.app.inject({ method: 'GET', url: pathOf(past.signedUrl(photoKey)) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'This media link has expired. Open the post again in Herald to get a fresh link.',
    );
  });

  it('does not accept links signed with another key', async () => {
    const stranger = createMediaStore(t.config, 'not-the-app-key');
    const res = await t.app.inject({ method: 'GET', url: pathOf(stranger.signedUrl(photoKey)) });
    expect(res.statusCode).toBe(403);
  });

  it('answers 404 for a validly signed link to a removed file', async () => {
    const { storageKey, thumbnailKey } = await media.ingest(Readable.from([await jpeg(40, 40)]), {
      organizationId: ORG,
      fileName: 'gone.jpg',
    });
    const url = pathOf(media.signedUrl(storageKey));
    await media.remove([storageKey, thumbnailKey ?? '']);
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});
