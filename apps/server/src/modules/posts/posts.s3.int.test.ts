import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg, largeMp4Stream, mp4 } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { platformIdOf, streamPost } from '../../test/loopback.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { type S3TestServer, startS3Server } from '../../test/s3-server.js';
import { freePort } from '../../test/server-process.js';

/**
 * Posts with media on S3 (MEDIA_STORAGE=s3), through the API, against a real S3 server that
 * checks signatures: the files and thumbnails land in the bucket, the signed media URLs serve
 * them (ranges included) to browsers and to the networks that fetch them, a large video goes in
 * parts, deleting the post deletes the objects, and refused credentials answer a sentence.
 */

const MiB = 1024 * 1024;
/** S3Storage's part size: what a large upload is cut into. */
const PART = 8 * MiB;

let s3: S3TestServer;
let t: TestApp;
let dir: string;
let port: number;
let owner: Actor;
let orgId: string;
/** Network ids by name. */
const networks: Record<string, string> = {};

interface MediaDto {
  kind: string;
  size: number;
  mediaUrl: string;
  thumbnailUrl: string | null;
}

/** The storage key a signed media URL serves. */
const keyOf = (url: string) =>
  decodeURIComponent(new URL(url).pathname.replace(/^\/api\/media\//, ''));

async function createPost(
  app: TestApp,
  actor: Actor,
  org: string,
  fields: Record<string, string>,
  files: FilePart[],
) {
  const body = await multipart(fields, files);
  const res = await send(app.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  s3 = await startS3Server('herald-media');
  dir = await mkdtemp(join(tmpdir(), 'herald-posts-s3-'));
  // A real socket: the Instagram sandbox fetches media URLs over HTTP, as Instagram does.
  port = await freePort();
  t = await createTestApp({
    ...s3.env,
    MEDIA_TEMP_DIR: join(dir, 'tmp'),
    API_PUBLIC_URL: `http://localhost:${port}/api`,
  });
  await t.app.listen({ host: 'localhost', port });
  ({ owner, orgId } = await createOrg(t.app, 'owner@s3.test', 'Bucket Co'));
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  expect(
    await connectThroughSandbox(t.app, owner, 'instagram', orgId, {
      account: 'Ada',
      fields: { pages: 'Ada Coffee', instagram: 'ada.coffee' },
    }),
  ).toContain('connected=');
  for (const name of ['X', 'Instagram']) networks[name] = await platformIdOf(t.app, name);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await s3?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('posts with media on S3', () => {
  let media: MediaDto[];
  let postId: string;
  let photo: Buffer;
  let clip: Buffer;

  it('stores an image and a video, each with its thumbnail, as objects in the bucket', async () => {
    photo = await jpeg(800, 600);
    clip = await mp4({ seconds: 4, width: 320, height: 240 });
    // Instagram, whose carousels take an image and a video together (X takes a video alone).
    const res = await createPost(
      t,
      owner,
      orgId,
      {
        platformIds: JSON.stringify([networks.Instagram]),
        content: 'From the bucket',
        action: 'draft',
      },
      [
        { name: 'photo.jpg', type: 'image/jpeg', data: photo },
        { name: 'clip.mp4', type: 'video/mp4', data: clip },
      ],
    );
    expect(res.status).toBe(201);
    postId = res.body.data.post.id;
    media = res.body.data.post.media;
    expect(media.map((m) => [m.kind, m.size])).toEqual([
      ['image', photo.length],
      ['video', clip.length],
    ]);
    const keys = media.flatMap((m) => [keyOf(m.mediaUrl), keyOf(m.thumbnailUrl!)]);
    expect(keys.every((k) => k.startsWith(`${orgId}/`))).toBe(true);
    expect(await s3.keys()).toEqual([...keys].sort());
    // Checked, measured and moved: nothing waits in the temp folder.
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('serves them by their signed URLs, ranges included, and the thumbnails', async () => {
    const [image, video] = media;
    const whole = await fetch(image!.mediaUrl);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await whole.arrayBuffer()).equals(photo)).toBe(true);

    const part = await fetch(video!.mediaUrl, { headers: { range: 'bytes=100-1123' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${clip.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(100, 1124))).toBe(true);

    for (const m of media) {
      const thumbnail = await fetch(m.thumbnailUrl!);
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      expect((await thumbnail.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('keeps the objects in the media library after the post, and deletes them with it', async () => {
    const before = await s3.keys();
    const res = await owner.call('DELETE', `/api/organizations/${orgId}/posts/${postId}`);
    expect(res.status).toBeLessThan(300);
    // The files stay in the organization's library until deleted there.
    expect(await s3.keys()).toEqual(before);
    const library = await owner.call('GET', `/api/organizations/${orgId}/media`);
    const items = library.body.data.items as Array<{ id: string }>;
    expect(items).toHaveLength(2);
    for (const item of items) {
      const gone = await owner.call('DELETE', `/api/organizations/${orgId}/media/${item.id}`);
      expect(gone.status).toBeLessThan(300);
    }
    expect(await s3.keys()).toEqual([]);
    expect((await fetch(media[0]!.mediaUrl)).status).toBe(404);
  });

  it('sends a large video to the bucket in parts, none larger than a part', async () => {
    const size = 2 * PART + 3 * MiB;
    s3.requests.length = 0;
    const res = await streamPost(
      port,
      owner,
      `/api/organizations/${orgId}/post`,
      { platformIds: JSON.stringify([networks.X]), content: 'A long one', action: 'draft' },
      { name: 'long.mp4', type: 'video/mp4', bytes: largeMp4Stream(size) },
    );
    if (res === 'no answer') throw new Error('The upload got no answer.');
    expect(res.status).toBe(201);
    const [video] = res.body.data.post.media as MediaDto[];
    const key = keyOf(video!.mediaUrl);
    const forKey = s3.requests.filter((r) => r.key === key).map((r) => r.operation);
    expect(forKey).toEqual([
      'CreateMultipartUpload',
      'UploadPart',
      'UploadPart',
      'UploadPart',
      'CompleteMultipartUpload',
    ]);
    const parts = s3.requests.filter((r) => r.key === key && r.operation === 'UploadPart');
    expect(parts.map((p) => p.bytes)).toEqual([PART, PART, 3 * MiB]);
    expect(await s3.openUploads()).toBe(0);

    const tail = await fetch(video!.mediaUrl, { headers: { range: 'bytes=-16' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${size - 16}-${size - 1}/${size}`);
    // The padding of largeMp4Stream is zeros to the end.
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(Buffer.alloc(16));
  }, 120_000);

  it('publishes to Instagram, which fetches the image from its media URL out of the bucket', async () => {
    const created = await createPost(
      t,
      owner,
      orgId,
      {
        platformIds: JSON.stringify([networks.Instagram]),
        content: 'Fresh from S3',
        action: 'draft',
      },
      [{ name: 'square.jpg', type: 'image/jpeg', data: await jpeg(1080, 1080) }],
    );
    expect(created.status).toBe(201);
    const key = keyOf(created.body.data.post.media[0].mediaUrl);
    s3.requests.length = 0;

    const res = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${created.body.data.post.id}/publish`,
      { platforms: ['Instagram'] },
    );
    expect(res.body.results.Instagram).toEqual({ status: 'success', error: null });
    // Instagram's fetch reached Herald's media route, which read the object from the bucket
    // (its size and type, then the bytes): Herald itself hands Instagram only the URL.
    const reads = s3.requests.filter((r) => r.key === key).map((r) => r.operation);
    expect(reads).toEqual(['HeadObject', 'GetObject']);
  });
});

describe('S3 refusing the configured credentials', () => {
  it('answers an upload with 503 and what to fix, and keeps nothing', async () => {
    const refused = await createTestApp({
      ...s3.env,
      S3_SECRET_ACCESS_KEY: 'not-the-secret',
      MEDIA_TEMP_DIR: join(dir, 'tmp-refused'),
    });
    try {
      const other = await createOrg(refused.app, 'owner@refused.test', 'Refused Co');
      await connectThroughSandbox(refused.app, other.owner, 'x', other.orgId);
      const before = await s3.keys();
      const res = await createPost(
        refused,
        other.owner,
        other.orgId,
        {
          platformIds: JSON.stringify([await platformIdOf(refused.app, 'X')]),
          content: 'Never stored',
          action: 'draft',
        },
        [{ name: 'p.jpg', type: 'image/jpeg', data: await jpeg(320, 240) }],
      );
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        code: 'UNAVAILABLE',
        message: `Media storage is unavailable: S3 at ${s3.endpoint} refused the signature made with S3_SECRET_ACCESS_KEY: check that it is the secret of S3_ACCESS_KEY_ID.`,
      });
      expect(await s3.keys()).toEqual(before);
      expect(await readdir(join(dir, 'tmp-refused'))).toEqual([]);
    } finally {
      await refused.close();
    }
  }, 120_000);
});
