import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts, postTargets } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/**
 * A worker whose media folder lacks a post's file (an API process on another machine stored it
 * in its own folder): the worker's log says which publication failed and why, on every run.
 */

let t: TestApp;
let mediaDir: string;
const logLines: Array<Record<string, unknown>> = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean))
      logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'herald-missing-media-'));
  t = await createTestApp(
    {
      LOG_LEVEL: 'info',
      MEDIA_DIR: join(mediaDir, 'media'),
      MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
    },
    { logger: { level: 'info', stream } },
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

describe('a publication whose media file is not in this process’s folder', () => {
  it('is logged with the target and the reason', async () => {
    const { owner, orgId } = await createOrg(t.app, 'media@missing.test', 'Missing Co');
    expect(
      await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'missing_m' }),
    ).toContain('connected');
    const supported = await owner.call('GET', '/api/platforms/supported');
    const xId: string = supported.body.data.platforms.find(
      (p: { name: string }) => p.name === 'X',
    ).id;
    const body = await multipart(
      { platformIds: JSON.stringify([xId]), content: 'Photo stored elsewhere', action: 'draft' },
      [{ name: 'elsewhere.jpg', type: 'image/jpeg', data: await jpeg(320, 240) }],
    );
    const created = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const post = created.json().data.post as { id: string; platformPosts: Array<{ id: string }> };
    const targetId = post.platformPosts[0]!.id;
    // As a worker on another machine sees it: the database names the file, its folder lacks it.
    rmSync(join(mediaDir, 'media'), { recursive: true, force: true });
    await t.database.db
      .update(postTargets)
      .set({ dueAt: new Date() })
      .where(eq(postTargets.id, targetId));
    await t.database.db.update(posts).set({ status: 'scheduled' }).where(eq(posts.id, post.id));

    // Not the network's refusal: tried again later (another worker may hold the file), and
    // each run's failure is in the log with the target and the missing file.
    expect(await t.publisher.run(targetId)).toBe('RETRY_LATER');
    const logged = logLines.filter((l) => l.targetId === targetId);
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'preparing a publication failed unexpectedly',
        err: expect.objectContaining({
          code: 'NOT_FOUND',
          message: 'This media file does not exist; it may have been removed.',
        }),
      }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'preparing a publication failed; it is tried again later',
        platform: 'X',
        attempts: 1,
      }),
    );
  }, 60_000);
});
