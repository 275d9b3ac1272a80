import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { largeMp4Stream } from '../../test/media-fixtures.js';
import { connectThroughSandbox } from '../../test/networks.js';

const MB = 1024 * 1024;
let t: TestApp;
let dir: string;
let owner: Actor;
let orgId: string;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-upload-'));
  t = await createTestApp({ MEDIA_DIR: join(dir, 'store'), MEDIA_TEMP_DIR: join(dir, 'tmp') });
  ({ owner, orgId } = await createOrg(t.app, 'big@upload.test', 'Big Files'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Streams a multipart post with one file over a real socket; nothing is built in memory. */
function uploadStream(fields: Record<string, string>, file: Readable, fileName: string) {
  const boundary = `----herald${Date.now()}`;
  const head = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="${fileName}"\r\nContent-Type: video/mp4\r\n\r\n`;
  async function* body() {
    yield Buffer.from(head + fileHead);
    for await (const chunk of file) yield chunk as Buffer;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/organizations/${orgId}/post`,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          cookie: owner.jar.header(),
          origin: TEST_PUBLIC_URL,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
          }),
        );
      },
    );
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
}

it('uploads a 200 MB video while the server’s memory stays flat', async () => {
  const supported = await owner.call('GET', '/api/platforms/supported');
  const x = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X');
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const res = await uploadStream(
      { platformIds: JSON.stringify([x.id]), content: 'A long one', action: 'draft' },
      largeMp4Stream(200 * MB),
      'big.mp4',
    );
    expect(res.status).toBe(201);
    const [video] = res.body.data.post.media;
    expect(video.size).toBe(200 * MB);
    expect(video.mimeType).toBe('video/mp4');
  } finally {
    clearInterval(sampler);
  }
  // Holding the file would cost at least its 200 MB; streaming costs buffers only.
  expect((peak - baseline) / MB).toBeLessThan(80);
}, 180_000);
