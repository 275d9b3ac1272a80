import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { largeMp4Stream } from '../../test/media-fixtures.js';
import { listenOnLoopback, platformIdOf, streamPost } from '../../test/loopback.js';
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
  port = await listenOnLoopback(t.app);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('uploads a 200 MB video while the server’s memory stays flat', async () => {
  const x = await platformIdOf(t.app, 'X');
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const res = await streamPost(
      port,
      owner,
      `/api/organizations/${orgId}/post`,
      { platformIds: JSON.stringify([x]), content: 'A long one', action: 'draft' },
      { name: 'big.mp4', type: 'video/mp4', bytes: largeMp4Stream(200 * MB) },
    );
    if (res === 'no answer') throw new Error('The upload got no answer.');
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
