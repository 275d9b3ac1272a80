import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { png } from '../../test/media-fixtures.js';
import { connectThroughSandbox } from '../../test/networks.js';

/**
 * Posts created and edited as JSON, with their media given by url. The media server listens on
 * loopback, allowed by the test-only MEDIA_IMPORT_ALLOW_PRIVATE for its port alone; a second
 * loopback server stands for a private address Herald must not fetch from.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;
let key: string;
let accountId: string;
let media: Server;
let forbidden: Server;
let mediaBase: string;
let forbiddenBase: string;
let mediaDir: string;
let image: Buffer;

const base = () => `/api/organizations/${orgId}`;
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Answer = { status: number; body: any; headers: Record<string, unknown> };

/** A JSON request made with the API key alone, as an integration makes it. */
async function withKey(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
}

const storedFiles = async () =>
  (
    await readdir(join(mediaDir, 'store'), { recursive: true, withFileTypes: true }).catch(() => [])
  ).filter((entry) => entry.isFile()).length;

const postCount = async () =>
  (await owner.call('GET', `${base()}/posts?pageSize=1`)).body.meta.totalCount as number;

beforeAll(async () => {
  image = await png(64, 48);
  media = createServer((req, res) => {
    if (req.url === '/a.png' || req.url === '/b.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
      res.end(image);
    } else if (req.url === '/huge.mp4') {
      // Declares 5 GB: refused on the header, before any of it is read.
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(5 * 1024 ** 3) });
      res.write(Buffer.alloc(64 * 1024));
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>not media</p>');
    } else if (req.url === '/fake.png') {
      // Says it is an image; its bytes are not.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('GIF? no, plain text');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  forbidden = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
    res.end(image);
  });
  mediaBase = await listen(media);
  forbiddenBase = await listen(forbidden);
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-json-posts-'));
  t = await createTestApp({
    MEDIA_DIR: join(mediaDir, 'store'),
    MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
    MEDIA_IMPORT_MAX_BYTES: String(1024 * 1024),
    MEDIA_IMPORT_ALLOW_PRIVATE: mediaBase.replace('http://', ''),
  });
  ({ owner, orgId } = await createOrg(t.app, 'json.posts.owner@example.com', 'JSON Posts Co'));
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const integrations = await owner.call('GET', `${base()}/integrations`);
  accountId = (integrations.body.data.platforms as Array<{ id: string }>)[0]!.id;
  const created = await owner.call('POST', `${base()}/api-keys`, {
    name: 'CMS',
    permissions: ['post:create', 'post:edit', 'post:delete'],
  });
  expect(created.status).toBe(201);
  key = created.body.data.key;
}, 120_000);

afterAll(async () => {
  await t?.close();
  media?.closeAllConnections();
  media?.close();
  forbidden?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('creating a post as JSON with media by url', () => {
  it('with an API key: schedules it, fetches the files, and reads back the same post', async () => {
    const scheduledAt = future(2);
    const res = await withKey('POST', `${base()}/post`, {
      integrationIds: [accountId],
      content: 'A launch, with pictures',
      action: 'schedule',
      scheduledAt,
      media: [
        { url: `${mediaBase}/a.png`, altText: '  A red square  ' },
        { url: `${mediaBase}/b.png` },
      ],
    });
    expect(res.status).toBe(201);
    const post = res.body.data.post;
    expect(post.status).toBe('scheduled');
    expect(new Date(post.scheduledAt).toISOString()).toBe(scheduledAt);
    expect(post.media).toHaveLength(2);
    expect(post.media[0]).toMatchObject({
      mimeType: 'image/png',
      kind: 'image',
      width: 64,
      height: 48,
      altText: 'A red square',
    });
    // b.png is the same picture: the media library holds it once, with the alt text given for it,
    // which is the default wherever it is used again.
    expect(post.media[1].altText).toBe('A red square');

    const read = await withKey('GET', `${base()}/posts/${post.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.post.id).toBe(post.id);
    expect(read.body.data.post.media.map((m: { id: string }) => m.id)).toEqual(
      post.media.map((m: { id: string }) => m.id),
    );
    // The stored file is the one the url served.
    const file = await t.app.inject({
      method: 'GET',
      url: new URL(post.media[0].mediaUrl).pathname + new URL(post.media[0].mediaUrl).search,
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(image)).toBe(true);
  });

  it('signed in: creates a draft without media, and with a platformMedia index', async () => {
    const res = await owner.call('POST', `${base()}/post`, {
      integrationIds: [accountId],
      content: 'Drafted from a script',
      action: 'draft',
      media: [{ url: `${mediaBase}/a.png` }],
      platformMedia: { [accountId]: [0] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.post.status).toBe('draft');
    expect(res.body.data.post.media).toHaveLength(1);
    expect(res.body.data.post.media[0].platformIds).toEqual([accountId]);
  });

  it('an Idempotency-Key replays the first answer instead of creating a second post', async () => {
    const before = await postCount();
    const body = {
      integrationIds: [accountId],
      content: 'Only once',
      media: [{ url: `${mediaBase}/a.png` }],
    };
    const headers = { 'idempotency-key': 'json-post-5f0c7c1e-2f7e' };
    const first = await withKey('POST', `${base()}/post`, body, headers);
    expect(first.status).toBe(201);
    const filesAfterFirst = await storedFiles();
    const again = await withKey('POST', `${base()}/post`, body, headers);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.post.id).toBe(first.body.data.post.id);
    expect(await postCount()).toBe(before + 1);
    expect(await storedFiles()).toBe(filesAfterFirst);
  });

  it('refuses the whole post, naming the url, when one file cannot be had; nothing is left', async () => {
    const cases: Array<[string, number, RegExp]> = [
      [`${forbiddenBase}/a.png`, 400, /private or local address/],
      [`${mediaBase}/missing.png`, 400, /HTTP 404/],
      [`${mediaBase}/huge.mp4`, 400, /larger than the 1 MB/],
      [`${mediaBase}/page.html`, 400, /not an image or a video \(the server says text\/html\)/],
      // The media store's own check (the bytes are no image), as for an upload.
      [`${mediaBase}/fake.png`, 400, /fake\.png: \S/],
      ['ftp://example.com/a.png', 400, /http:\/\/ or https:\/\//],
      ['http://localhost:9/a.png', 400, /localhost/],
    ];
    const posts = await postCount();
    const files = await storedFiles();
    for (const [url, status, why] of cases) {
      // A good file first: it is fetched and stored, then removed when the second is refused.
      const res = await withKey('POST', `${base()}/post`, {
        integrationIds: [accountId],
        content: 'Never created',
        media: [{ url: `${mediaBase}/a.png` }, { url }],
      });
      expect(res.status, url).toBe(status);
      expect(res.body.message, url).toContain(`media[1]: the file at ${url}`);
      expect(res.body.message, url).toMatch(why);
    }
    expect(await postCount()).toBe(posts);
    expect(await storedFiles()).toBe(files);
  });

  it('refuses a body that does not match the contract with a sentence, and fetches nothing', async () => {
    const files = await storedFiles();
    let res = await withKey('POST', `${base()}/post`, {
      integrationIds: [accountId],
      content: 'Bad media',
      media: ['https://example.com/a.png'],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('media.0: Invalid input: expected object');
    res = await withKey('POST', `${base()}/post`, {
      content: 'To nobody',
      media: [{ url: `${mediaBase}/a.png` }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Select at least one account');
    res = await withKey('POST', `${base()}/post`, {
      integrationIds: [accountId],
      content: 'Too many',
      media: Array.from({ length: 36 }, () => ({ url: `${mediaBase}/a.png` })),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/maximum of 35 files/);
    // Text the network refuses is refused before any file is fetched.
    res = await withKey('POST', `${base()}/post`, {
      integrationIds: [accountId],
      content: 'x'.repeat(30_000),
      media: [{ url: `${mediaBase}/a.png` }],
    });
    expect(res.status).toBe(400);
    expect(await storedFiles()).toBe(files);
    const text = await t.app.inject({
      method: 'POST',
      url: `${base()}/post`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
  });
});

describe('editing a post as JSON', () => {
  it('keeps stored files by id and adds new ones by url; a bad url changes nothing', async () => {
    const created = await withKey('POST', `${base()}/post`, {
      integrationIds: [accountId],
      content: 'Before',
      media: [{ url: `${mediaBase}/a.png`, altText: 'First' }],
    });
    expect(created.status).toBe(201);
    const post = created.body.data.post;
    const keptId = post.media[0].id as string;

    const files = await storedFiles();
    const refused = await withKey('PUT', `${base()}/post/${post.id}`, {
      integrationIds: [accountId],
      content: 'Never',
      keepMediaIds: [keptId],
      media: [{ url: `${mediaBase}/missing.png` }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`media[0]: the file at ${mediaBase}/missing.png`);
    expect(await storedFiles()).toBe(files);
    expect((await withKey('GET', `${base()}/posts/${post.id}`)).body.data.post.content).toBe(
      'Before',
    );

    const edited = await owner.call('PUT', `${base()}/post/${post.id}`, {
      integrationIds: [accountId],
      content: 'After',
      keepMediaIds: [keptId],
      media: [{ url: `${mediaBase}/b.png`, altText: 'Second' }],
    });
    expect(edited.status).toBe(200);
    const after = edited.body.data.post;
    expect(after.content).toBe('After');
    expect(after.media).toHaveLength(2);
    expect(after.media[0]).toMatchObject({ id: keptId, altText: 'First' });
    expect(after.media[1].altText).toBe('Second');
  });
});

describe('the OpenAPI document', () => {
  it('shows both bodies of the create and edit routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const [path, method] of [
      ['/api/organizations/{orgId}/post', 'post'],
      ['/api/organizations/{orgId}/post/{postId}', 'put'],
    ] as const) {
      const content = doc.paths[path][method].requestBody.content;
      expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
      expect(content['application/json'].schema.properties.media.items.properties.url).toBeTruthy();
      expect(content['multipart/form-data'].schema.properties.media.items.format).toBe('binary');
    }
  });
});
