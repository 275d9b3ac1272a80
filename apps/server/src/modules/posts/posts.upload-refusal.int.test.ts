import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  createTestApp,
  holdableClock,
  send,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { mp4, png } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { listenOnLoopback, platformIdOf, streamPost } from '../../test/loopback.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { FIELDS_FIRST_MESSAGE } from './posts.upload.js';

let t: TestApp;
const clock = holdableClock();
let dir: string;
let port: number;
let x: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-refusal-'));
  t = await createTestApp(
    { MEDIA_DIR: join(dir, 'store'), MEDIA_TEMP_DIR: join(dir, 'tmp') },
    { now: clock.now },
  );
  port = await listenOnLoopback(t.app);
  x = await platformIdOf(t.app, 'X');
}, 120_000);

async function createPost(
  actor: Actor,
  orgId: string,
  fields: Record<string, string>,
  files: FilePart[] = [],
) {
  const body = await multipart(fields, files);
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function storedFiles(): Promise<string[]> {
  const all = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return all.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/**
 * Sends the text fields, the head of a file part and the start of a real video, then holds the
 * rest of the file back. The answer can only arrive if the server decided without the file.
 */
async function sendWithFileHeldBack(actor: Actor, orgId: string, fields: Record<string, string>) {
  const clip = await mp4({ seconds: 1, width: 160, height: 120 });
  return streamPost(
    port,
    actor,
    `/api/organizations/${orgId}/post`,
    fields,
    { name: 'clip.mp4', type: 'video/mp4', bytes: clip },
    { holdOpen: true, timeoutMs: 8_000, headers: { 'content-length': String(500 * 1024 * 1024) } },
  );
}

describe('a post that will be refused is refused before its files are read', () => {
  it('without a subscription', async () => {
    const { owner, orgId } = await createOrg(t.app, 'noplan@refusal.test', 'No Plan', {
      trial: null,
    });
    const res = await sendWithFileHeldBack(owner, orgId, {
      platformIds: '["anything"]',
      content: 'hi',
    });
    expect(res).toMatchObject({ status: 403 });
    expect((res as { body: any }).body.message).toContain('No active subscription');
    expect(await storedFiles()).toEqual([]);
  });

  it('over the plan’s posts per day', async () => {
    const starter = await createOrg(t.app, 'starter@refusal.test', 'Starter Co', {
      trial: 'Starter',
    });
    await connectThroughSandbox(t.app, starter.owner, 'x', starter.orgId);
    const fields = { platformIds: JSON.stringify([x]), content: 'daily', action: 'draft' };
    // Today is the day this part starts, even if midnight passes during it.
    clock.hold();
    onTestFinished(() => clock.release());
    for (let i = 0; i < 10; i += 1) {
      expect((await createPost(starter.owner, starter.orgId, fields)).status).toBe(201);
    }
    const res = await sendWithFileHeldBack(starter.owner, starter.orgId, fields);
    expect(res).toMatchObject({ status: 403 });
    expect((res as { body: any }).body.message).toMatch(/allows 10 posts per day/);
    expect(await storedFiles()).toEqual([]);
  });

  it('for a time that has passed, a platform that is not connected, or text too long', async () => {
    const { owner, orgId } = await createOrg(t.app, 'past@refusal.test', 'Past Co');
    await connectThroughSandbox(t.app, owner, 'x', orgId);
    const past = await sendWithFileHeldBack(owner, orgId, {
      platformIds: JSON.stringify([x]),
      content: 'Too late',
      scheduledAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past).toMatchObject({ status: 400 });
    expect((past as { body: any }).body.message).toBe(
      'The scheduled time has already passed. Pick a time in the future.',
    );

    const elsewhere = await sendWithFileHeldBack(owner, orgId, {
      platformIds: JSON.stringify(['00000000-0000-4000-8000-000000000000']),
      content: 'Nowhere',
    });
    expect(elsewhere).toMatchObject({ status: 400 });
    expect((elsewhere as { body: any }).body.message).toMatch(/not connected/);

    const long = await sendWithFileHeldBack(owner, orgId, {
      platformIds: JSON.stringify([x]),
      content: 'y'.repeat(400),
    });
    expect(long).toMatchObject({ status: 400 });
    expect((long as { body: any }).body.message).toMatch(/too long for X/);
    expect(await storedFiles()).toEqual([]);
  });

  it('asks for the text fields before the files', async () => {
    const { owner, orgId } = await createOrg(t.app, 'order@refusal.test', 'Order Co');
    await connectThroughSandbox(t.app, owner, 'x', orgId);
    const form = new FormData();
    form.append('platformIds', JSON.stringify([x]));
    form.append(
      'media',
      new Blob([new Uint8Array(await png(64, 64))], { type: 'image/png' }),
      'a.png',
    );
    form.append('content', 'late field');
    const encoded = new Response(form);
    const res = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { 'content-type': encoded.headers.get('content-type')!, origin: TEST_PUBLIC_URL },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(FIELDS_FIRST_MESSAGE);
    // The one file read before the late field is removed again.
    expect(await storedFiles()).toEqual([]);

    const ok = await createPost(owner, orgId, { platformIds: JSON.stringify([x]), content: 'ok' }, [
      { name: 'a.png', type: 'image/png', data: await png(64, 64) },
    ]);
    expect(ok.status).toBe(201);
  });
});
