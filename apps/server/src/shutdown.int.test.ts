import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { send, TEST_PUBLIC_URL, type TestApp } from './test/app.js';
import { createOrg, type Actor } from './test/factories.js';
import { gif, jpeg } from './test/media-fixtures.js';
import { multipart } from './test/multipart.js';
import { connectThroughSandbox } from './test/networks.js';
import { usePostgres } from './test/postgres.js';
import { freePort, HeraldProcesses } from './test/server-process.js';

/**
 * A stop on SIGTERM, with real `herald api` and `herald worker` processes (built CLI) on a
 * throwaway PostgreSQL database: readyz turns 503 while healthz stays 200, an upload in flight
 * finishes, a request cut at the end of the grace period frees its Idempotency-Key, and a worker
 * finishes its job or hands it back to another one, which publishes it exactly once.
 *
 * The in-process app on the same database signs the test user in (its session works in the
 * child processes: they share the database's session secret), serves the X sandbox the workers
 * publish to, and checks what the children left.
 */

const ACCOUNT = 'shutdown_x';
/** How long X processes an uploaded GIF here: a publication the worker is inside of for a while. */
const PROCESSING_MS = 20_000;

let t: TestApp | undefined;
let owner: Actor;
let orgId: string;
let xId: string;
const processes = new HeraldProcesses();

/** `herald <command>` on the test database, with the grace period given. */
async function herald(command: 'api' | 'worker', graceSeconds: number) {
  const port = await freePort();
  const child = processes.spawn(command, {
    PORT: String(port),
    HOST: '127.0.0.1',
    // The API child answers the origin the test's requests carry; the worker reaches the X
    // sandbox served by the in-process app.
    PUBLIC_URL: command === 'api' ? TEST_PUBLIC_URL : processes.apiUrl,
    SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
  });
  onTestFailed(() => console.error(`herald ${command} output:\n${child.output()}`));
  await child.waitForLine(/Herald (worker )?is running/, 90_000);
  return { ...child, port };
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t!.database.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms: ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const claimOf = (key: string) =>
  rows<{ statusCode: number | null }>(
    sql`select status_code as "statusCode" from idempotency_keys where key = ${key}`,
  );

/** A post with an image, due tomorrow (no worker publishes it during these tests). */
async function postBody(content: string) {
  const scheduledAt = new Date(Date.now() + 24 * 3600_000).toISOString();
  const image = { name: 'slow.jpg', type: 'image/jpeg', data: await jpeg(640, 480) };
  return multipart({ platformIds: JSON.stringify([xId]), content, scheduledAt }, [image]);
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An upload sent over its own connection whose last bytes wait for `finish()`: the request is in
 * the handler, reading its body, for as long as the test wants.
 */
async function slowUpload(port: number, key: string, content: string) {
  const body = await postBody(content);
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/api/organizations/${orgId}/post`,
    agent: false,
    headers: {
      ...body.headers,
      'content-length': String(body.payload.length),
      cookie: owner.jar.header(),
      origin: TEST_PUBLIC_URL,
      'idempotency-key': key,
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      res.once('error', reject);
    });
  });
  // Observed either way; a test that expects it to fail says so.
  answer.catch(() => {});
  req.write(body.payload.subarray(0, body.payload.length - 64));
  return {
    answer,
    finish: () => req.end(body.payload.subarray(body.payload.length - 64)),
    abort: () => req.destroy(),
  };
}

/** The same upload in one go, through the in-process app. */
async function uploadAgain(key: string, content: string) {
  const body = await postBody(content);
  return send(t!.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL, 'idempotency-key': key },
    payload: body.payload,
  });
}

const postsWith = async (content: string) =>
  (await rows<{ id: string }>(sql`select id from posts where content = ${content}`)).length;

// First, so the server outlives the app and the processes the hooks below start and stop.
usePostgres();

beforeAll(async () => {
  t = await processes.start('shutdown');
  ({ owner, orgId } = await createOrg(t.app, 'owner@shutdown.test', 'Shutdown Co'));
  const connected = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: ACCOUNT });
  if (!connected.includes('connected')) throw new Error(`X not connected: ${connected}`);
  const supported = await owner.call('GET', '/api/platforms/supported');
  xId = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
}, 180_000);

afterAll(() => processes.stop(), 60_000);

describe('herald api on SIGTERM', () => {
  it('turns readyz 503 (healthz 200), finishes the upload in flight, then exits 0', async () => {
    const api = await herald('api', 60);
    const key = 'shutdown-in-flight-0001';
    const upload = await slowUpload(api.port, key, 'Uploaded across a restart');
    await waitFor('the upload to hold its key', async () => (await claimOf(key)).length === 1);

    api.child.kill('SIGTERM');
    await api.waitForLine(/stopping/, 30_000);
    const base = `http://127.0.0.1:${api.port}/api`;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable' });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    // Requests still arriving are served, and close their connection after the answer.
    expect(health.headers.get('connection')).toBe('close');
    expect(api.child.exitCode).toBeNull();

    upload.finish();
    const first = await Promise.race([
      upload.answer.then(() => 'answer'),
      api.exited.then(() => 'exit'),
    ]);
    expect(first).toBe('answer');
    const answer = await upload.answer;
    expect(answer.status, answer.body).toBe(201);
    expect(answer.headers.connection).toBe('close');
    expect(await api.exited).toEqual({ code: 0, signal: null });
    expect(await postsWith('Uploaded across a restart')).toBe(1);
    expect(await claimOf(key)).toEqual([{ statusCode: 201 }]);
  }, 180_000);

  it('cuts a request still running when the grace period ends and frees its Idempotency-Key', async () => {
    const api = await herald('api', 1);
    const key = 'shutdown-cut-0002';
    const upload = await slowUpload(api.port, key, 'Cut by a restart');
    await waitFor('the upload to hold its key', async () => (await claimOf(key)).length === 1);

    api.child.kill('SIGTERM');
    expect(await api.exited).toEqual({ code: 0, signal: null });
    await expect(upload.answer).rejects.toThrow();
    expect(await claimOf(key)).toEqual([]);

    const retry = await uploadAgain(key, 'Cut by a restart');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await postsWith('Cut by a restart')).toBe(1);
  }, 180_000);

  it('frees the Idempotency-Key of an upload its client gave up on', async () => {
    const port = (t!.app.server.address() as AddressInfo).port;
    const key = 'shutdown-abandoned-0003';
    const upload = await slowUpload(port, key, 'Abandoned upload');
    await waitFor('the upload to hold its key', async () => (await claimOf(key)).length === 1);
    upload.abort();
    await waitFor('the key to be freed', async () => (await claimOf(key)).length === 0);

    const retry = await uploadAgain(key, 'Abandoned upload');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await postsWith('Abandoned upload')).toBe(1);
  }, 120_000);
});

describe('herald worker on SIGTERM', () => {
  interface SandboxPost {
    text: string;
  }
  const sandboxPosts = async (text: string) => {
    const res = await t!.app.inject({
      method: 'GET',
      url: '/api/sandbox/x/_emu/posts',
      headers: { cookie: owner.jar.header() },
    });
    if (res.statusCode !== 200) throw new Error(`_emu/posts: ${res.statusCode} ${res.body}`);
    return (res.json() as { posts: SandboxPost[] }).posts.filter((p) => p.text === text);
  };
  const targetOf = async (text: string) => {
    const [row] = await rows<{ status: string }>(sql`
      select t.status from post_targets t join posts p on p.id = t.post_id
      where p.content = ${text}`);
    return row?.status;
  };
  /** A GIF post due in a moment: X processes the GIF for PROCESSING_MS before it can be posted. */
  async function publishGifNow(text: string) {
    const body = await multipart(
      {
        platformIds: JSON.stringify([xId]),
        content: text,
        scheduledAt: new Date(Date.now() + 2000).toISOString(),
      },
      [{ name: 'slow.gif', type: 'image/gif', data: await gif() }],
    );
    const res = await send(t!.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    if (res.statusCode !== 201) throw new Error(`create post: ${res.statusCode} ${res.body}`);
  }

  beforeAll(async () => {
    const res = await t!.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/_emu/scenario',
      headers: { cookie: owner.jar.header() },
      payload: { account: ACCOUNT, knob: 'processing_ms', value: PROCESSING_MS },
    });
    if (res.statusCode !== 200) throw new Error(`knob: ${res.statusCode} ${res.body}`);
  });

  it('finishes the publication it is in before exiting, within the grace period', async () => {
    const text = `Finished before the stop ${randomBytes(3).toString('hex')}`;
    const worker = await herald('worker', 120);
    await publishGifNow(text);
    await waitFor(
      'the worker to prepare the post',
      async () => (await targetOf(text)) === 'PREPARING',
    );

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(await targetOf(text)).toBe('PUBLISHED');
    expect(await sandboxPosts(text)).toHaveLength(1);
  }, 180_000);

  it('hands a publication back when the grace period ends; another worker publishes it once', async () => {
    const text = `Handed back at the stop ${randomBytes(3).toString('hex')}`;
    const first = await herald('worker', 1);
    await publishGifNow(text);
    await waitFor(
      'the worker to prepare the post',
      async () => (await targetOf(text)) === 'PREPARING',
    );

    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    // Not left PREPARING for the watchdog (minutes later): queued again, its job given back.
    expect(await targetOf(text)).toBe('QUEUED');
    expect(await sandboxPosts(text)).toHaveLength(0);

    const second = await herald('worker', 60);
    await waitFor(
      'the other worker to publish it',
      async () => (await targetOf(text)) === 'PUBLISHED',
      120_000,
    );
    expect(await sandboxPosts(text)).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 240_000);
});
