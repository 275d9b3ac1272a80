import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { X_PUBLISH_LIMITS } from '../../platforms/x/limits.js';
import { send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { usePostgres } from '../../test/postgres.js';
import { freePort, HeraldProcesses } from '../../test/server-process.js';

/**
 * The caps of caps.ts hold across processes: two real `herald worker` processes on one
 * PostgreSQL publish to the sandboxes served by the API in this process, through a relay that
 * counts the publishing calls in flight at any moment. X's 32 publications at once are 32 for
 * both workers together, and an Instagram account publishes one post at a time whichever worker
 * runs it, so its quota read before each publish is never stale: of 4 posts due on an account
 * allowed 3 a day, 3 go out and the 4th waits with Instagram's reason.
 */

const X_POSTS = 96;
/** Every sandbox call waits this long, so the publications of both workers overlap. */
const X_LATENCY_MS = 1000;
const IG_LATENCY_MS = 1000;
const IG_QUOTA = 3;

let t: TestApp | undefined;
let owner: Actor;
let orgId: string;
let relay: Server | undefined;
const processes = new HeraldProcesses();

/** Calls in flight at the sandboxes, by kind, and the most seen at once. */
const inFlight = { x: 0, instagram: 0 };
const mostInFlight = { x: 0, instagram: 0 };

/**
 * The publishing calls counted: X's visible call, and every step of an Instagram publication
 * (container, its status, the quota read, the publish). Reads other jobs make are left out.
 */
function kindOf(method: string, url: string): keyof typeof inFlight | null {
  const path = url.split('?')[0]!;
  if (method === 'POST' && path.endsWith('/sandbox/x/2/tweets')) return 'x';
  if (!path.includes('/sandbox/instagram/')) return null;
  if (method === 'POST' && /\/(media|media_publish)$/.test(path)) return 'instagram';
  if (method === 'GET' && path.endsWith('/content_publishing_limit')) return 'instagram';
  if (method === 'GET' && url.includes('status_code')) return 'instagram';
  return null;
}

/** Forwards everything to the API on `apiPort`, counting the publishing calls while they last. */
async function startRelay(apiPort: number): Promise<string> {
  relay = createServer((req, res) => {
    const kind = kindOf(req.method ?? 'GET', req.url ?? '/');
    if (kind) {
      inFlight[kind] += 1;
      mostInFlight[kind] = Math.max(mostInFlight[kind], inFlight[kind]);
      res.once('close', () => (inFlight[kind] -= 1));
    }
    const upstream = request(
      { host: '127.0.0.1', port: apiPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', () => res.destroy());
    req.pipe(upstream);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
}

async function startWorker(publicUrl: string) {
  const worker = processes.spawn('worker', {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    // Sandbox calls and media URLs go through the relay.
    PUBLIC_URL: publicUrl,
  });
  await worker.waitForLine(/Herald (worker )?is running/, 90_000);
}

/** Each worker's last output, when the running test fails. */
function showWorkersOnFailure() {
  onTestFailed(() => {
    processes.children.forEach((worker, i) =>
      console.error(`worker ${i + 1} output:\n${worker.output().slice(-20_000)}`),
    );
  });
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t!.database.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms: ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function knob(slug: string, account: string, name: string, value: number) {
  const res = await t!.app.inject({
    method: 'POST',
    url: `/api/sandbox/${slug}/_emu/scenario`,
    headers: { cookie: owner.jar.header() },
    payload: { account, knob: name, value },
  });
  if (res.statusCode !== 200) throw new Error(`knob ${name}: ${res.statusCode} ${res.body}`);
}

async function sandboxPosts(slug: string): Promise<Array<{ id: string; text: string }>> {
  const res = await t!.app.inject({
    method: 'GET',
    url: `/api/sandbox/${slug}/_emu/posts`,
    headers: { cookie: owner.jar.header() },
  });
  if (res.statusCode !== 200) throw new Error(`_emu/posts: ${res.statusCode} ${res.body}`);
  return (res.json() as { posts: Array<{ id: string; text: string }> }).posts;
}

async function platformId(name: string): Promise<string> {
  const supported = await owner.call('GET', '/api/platforms/supported');
  return supported.body.data.platforms.find((p: { name: string }) => p.name === name).id;
}

async function schedulePost(platform: string, content: string, at: Date, files: FilePart[] = []) {
  const body = await multipart(
    { platformIds: JSON.stringify([platform]), content, scheduledAt: at.toISOString() },
    files,
  );
  const res = await send(t!.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`create post: ${res.statusCode} ${res.body}`);
}

const targetsOf = (platform: string) =>
  rows<{ status: string; error: string | null; text: string }>(sql`
    select t.status, t.error, p.content as text
    from post_targets t join posts p on p.id = t.post_id
    where t.platform_id = ${platform}`);

/** A whole second `ms` from now (the due times the tests stagger). */
function inWholeSeconds(ms: number) {
  const at = new Date(Date.now() + ms);
  at.setUTCMilliseconds(0);
  return at;
}

// First, so the server outlives the app and workers the hooks below start and stop.
usePostgres();

beforeAll(async () => {
  t = await processes.start('caps');
  const publicUrl = await startRelay((t.app.server.address() as AddressInfo).port);
  ({ owner, orgId } = await createOrg(t.app, 'caps@engine.test', 'Caps Co'));
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'caps_x' })).toContain(
    'connected=',
  );
  expect(
    await connectThroughSandbox(t.app, owner, 'instagram', orgId, {
      account: 'Ada',
      fields: { pages: 'Ada Coffee', instagram: 'ada.coffee' },
    }),
  ).toContain('connected=');
  // X allows 100 posts per 15 minutes per account; this test needs its 96 at once.
  await knob('x', 'caps_x', 'publish_cap', 1_000_000);
  await knob('x', 'caps_x', 'latency_ms', X_LATENCY_MS);
  await knob('instagram', 'Ada', 'publish_cap', IG_QUOTA);
  await knob('instagram', 'Ada', 'latency_ms', IG_LATENCY_MS);
  await Promise.all([startWorker(publicUrl), startWorker(publicUrl)]);
}, 240_000);

afterAll(async () => {
  processes.killNow();
  relay?.closeAllConnections();
  relay?.close();
  await processes.stop();
}, 60_000);

describe('caps with two worker processes on one PostgreSQL', () => {
  it(`keeps X at ${X_PUBLISH_LIMITS.concurrency} publications in flight for both workers together`, async () => {
    showWorkersOnFailure();
    const x = await platformId('X');
    const runId = randomBytes(3).toString('hex');
    const texts = Array.from({ length: X_POSTS }, (_, i) => `Caps ${runId} post ${i + 1}`);
    // Due together: each worker fetches up to 64 of them at once. Scheduling 96 posts takes a
    // few seconds, and many more on a machine busy with other work: the margin covers both.
    const dueAt = inWholeSeconds(30_000);
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < X_POSTS) await schedulePost(x, texts[next++]!, dueAt);
      }),
    );
    expect(Date.now(), 'scheduling took longer than the margin before the due time').toBeLessThan(
      dueAt.getTime(),
    );

    await waitFor(
      `all ${X_POSTS} X posts published`,
      async () => (await targetsOf(x)).every((row) => row.status === 'PUBLISHED'),
      120_000,
    );
    const onX = (await sandboxPosts('x')).filter((post) => post.text.startsWith(`Caps ${runId}`));
    expect(onX.map((post) => post.text).sort()).toEqual([...texts].sort());
    console.info(`caps test: at most ${mostInFlight.x} X publications in flight at once`);
    // More than one: the relay saw the workers' calls overlap (it measures something).
    expect(mostInFlight.x).toBeGreaterThan(1);
    expect(mostInFlight.x).toBeLessThanOrEqual(X_PUBLISH_LIMITS.concurrency);
  }, 180_000);

  it(`publishes one Instagram post at a time per account: ${IG_QUOTA} of 4 under a quota of ${IG_QUOTA}, the 4th waits with the reason`, async () => {
    showWorkersOnFailure();
    const instagram = await platformId('Instagram');
    const image: FilePart = { name: 'cap.jpg', type: 'image/jpeg', data: await jpeg(400, 400) };
    // Staggered, so the second is due while the first worker is busy with the first: the other
    // worker takes it.
    const first = inWholeSeconds(12_000);
    const at = (seconds: number) => new Date(first.getTime() + seconds * 1000);
    await schedulePost(instagram, 'Quota post 1', first, [image]);
    await schedulePost(instagram, 'Quota post 2', at(2), [image]);
    await schedulePost(instagram, 'Quota post 3', at(4), [image]);
    await schedulePost(instagram, 'Quota post 4', at(4), [image]);
    expect(Date.now()).toBeLessThan(first.getTime());

    await waitFor(
      'three Instagram posts published and the fourth told why it waits',
      async () => {
        const targets = await targetsOf(instagram);
        return (
          targets.filter((row) => row.status === 'PUBLISHED').length === IG_QUOTA &&
          targets.some((row) => row.status !== 'PUBLISHED' && row.error)
        );
      },
      120_000,
    );
    const targets = await targetsOf(instagram);
    const waiting = targets.filter((row) => row.status !== 'PUBLISHED');
    expect(waiting.map((row) => [row.status, row.error])).toEqual([
      [
        'READY',
        `Instagram allows ${IG_QUOTA} posts from apps per 24 hours, and this account has reached it. Herald tries again when the window frees up.`,
      ],
    ]);
    expect(await sandboxPosts('instagram')).toHaveLength(IG_QUOTA);
    expect(mostInFlight.instagram, 'Instagram calls of one account in flight at once').toBe(1);
  }, 180_000);
});
