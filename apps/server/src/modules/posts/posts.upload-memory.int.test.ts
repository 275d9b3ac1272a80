import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { largeMp4Stream } from '../../test/media-fixtures.js';
import { listenOnLoopback, platformIdOf, streamPost } from '../../test/loopback.js';
import { connectThroughSandbox } from '../../test/networks.js';

/**
 * An upload is streamed to disk, never held in memory. Measured as the memory the process holds
 * alive — the JS heap and Buffers, after a forced full collection — each time the client has
 * sent another 20 MB of a 200 MB file: a server holding the file would hold what it has received
 * by then, a streaming one a few chunks. Not RSS, which also counts garbage not yet collected and
 * so follows how busy the machine is (84 MB once on a loaded machine, for this same upload).
 */
setFlagsFromString('--expose-gc');
// Freed Buffers are otherwise deducted by a background sweep after the collection returns:
// 50 MB of garbage was still counted right after gc() on this machine.
setFlagsFromString('--no-concurrent-array-buffer-sweeping');
const gc = runInNewContext('gc') as () => void;

/** Bytes the process holds alive: after a full collection, the heap and the Buffers' memory. */
function liveBytes() {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** The file's bytes, calling `measure` each time another `every` bytes have been handed over. */
function measuredEvery(file: Readable, every: number, measure: () => void): Readable {
  async function* chunks() {
    let sent = 0;
    let next = every;
    for await (const chunk of file) {
      yield chunk as Buffer;
      sent += (chunk as Buffer).length;
      if (sent >= next) {
        measure();
        next += every;
      }
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

const MB = 1024 * 1024;
const FILE_MB = 200;
/** A quarter of the file: a held file passes it by its 60 MB mark, streaming stays far below. */
const BOUND_MB = FILE_MB / 4;
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

it('uploads a 200 MB video while the memory the server holds stays flat', async () => {
  const x = await platformIdOf(t.app, 'X');
  const baseline = liveBytes();
  const held: number[] = [];
  const bytes = measuredEvery(largeMp4Stream(FILE_MB * MB), 20 * MB, () =>
    held.push((liveBytes() - baseline) / MB),
  );
  const res = await streamPost(
    port,
    owner,
    `/api/organizations/${orgId}/post`,
    { platformIds: JSON.stringify([x]), content: 'A long one', action: 'draft' },
    { name: 'big.mp4', type: 'video/mp4', bytes },
  );
  if (res === 'no answer') throw new Error('The upload got no answer.');
  expect(res.status).toBe(201);
  const [video] = res.body.data.post.media;
  expect(video.size).toBe(FILE_MB * MB);
  expect(video.mimeType).toBe('video/mp4');
  expect(held).toHaveLength(FILE_MB / 20);
  console.log(`held while uploading (MB): ${held.map((mb) => mb.toFixed(1)).join(', ')}`);
  expect(Math.max(...held)).toBeLessThan(BOUND_MB);
}, 180_000);
