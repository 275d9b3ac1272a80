import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { gif } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { usePostgres } from '../../test/postgres.js';
import { HeraldProcesses } from '../../test/server-process.js';

/**
 * A `herald worker` killed with SIGKILL while it publishes: one post is inside its visible call
 * to X, another is being prepared (its GIF processed at X). Another worker, running as the
 * deployment's second one, notices within its heartbeats that the first is dead and settles both
 * by the watchdog's rules (the first looked up at X, the second queued again) — without waiting
 * PUBLISH_STUCK_AFTER_SECONDS (600 here, as in production) — and each is on X exactly once.
 * Real processes on PostgreSQL: the embedded PGlite database cannot be shared between them.
 */

const ACCOUNT = 'dead_worker_x';
/** Every X call waits this long while the first worker runs: the kill lands inside them. */
const LATENCY_MS = 3000;
/** How long the settling may take after the kill (the second worker's start included). */
const SETTLED_WITHIN_MS = 90_000;
const IN_PROGRESS = ['QUEUED', 'PREPARING', 'READY', 'PUBLISHING'];

let t: TestApp | undefined;
let owner: Actor;
let orgId: string;
let xId: string;
const processes = new HeraldProcesses();

/** `herald worker` on the test database, beating every second and taken for dead after 3. */
async function worker(label: string) {
  const child = processes.spawn('worker', {
    PROCESS_HEARTBEAT_SECONDS: '1',
    PROCESS_LAPSE_SECONDS: '3',
  });
  onTestFailed(() => console.error(`${label} output:\n${child.output()}`));
  await child.waitForLine(/Herald worker is running/, 90_000);
  return child;
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t!.database.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms: ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Target {
  text: string;
  status: string;
  externalId: string | null;
  error: string | null;
}
const targets = () =>
  rows<Target>(sql`
    select p.content as text, t.status, t.external_id as "externalId", t.error
    from post_targets t join posts p on p.id = t.post_id order by p.content`);

async function emu(method: 'GET' | 'POST', path: string, payload?: object) {
  const res = await t!.app.inject({
    method,
    url: `/api/sandbox/x/_emu/${path}`,
    headers: { cookie: owner.jar.header() },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`_emu/${path}: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function schedule(content: string, files: FilePart[] = []) {
  const scheduledAt = new Date(Date.now() + 1500).toISOString();
  const body = await multipart({ platformIds: JSON.stringify([xId]), content, scheduledAt }, files);
  const res = await send(t!.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`create post: ${res.statusCode} ${res.body}`);
}

// First, so the server outlives the app and the processes the hooks below start and stop.
usePostgres();

beforeAll(async () => {
  t = await processes.start('dead-worker');
  ({ owner, orgId } = await createOrg(t.app, 'owner@dead-worker.test', 'Dead Worker Co'));
  const connected = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: ACCOUNT });
  if (!connected.includes('connected')) throw new Error(`X not connected: ${connected}`);
  const supported = await owner.call('GET', '/api/platforms/supported');
  xId = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
}, 180_000);

afterAll(() => processes.stop(), 60_000);

describe('a worker killed mid-publication (on PostgreSQL: separate processes)', () => {
  it('has its publications settled by another worker within a minute or so, each on X exactly once', async () => {
    const run = randomBytes(3).toString('hex');
    const text = `A: in its visible call ${run}`;
    const withGif = `B: being prepared ${run}`;
    await emu('POST', 'scenario', { account: ACCOUNT, knob: 'latency_ms', value: LATENCY_MS });
    await emu('POST', 'scenario', { account: ACCOUNT, knob: 'processing_ms', value: 5000 });

    const first = await worker('worker 1');
    await schedule(text);
    await schedule(withGif, [{ name: 'slow.gif', type: 'image/gif', data: await gif() }]);
    await waitFor(
      'the text post in its visible call and the GIF post being prepared',
      async () => {
        const [a, b] = await targets();
        return a?.status === 'PUBLISHING' && b?.status === 'PREPARING';
      },
      60_000,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    await emu('POST', 'scenario', { account: ACCOUNT, knob: 'latency_ms', on: false });
    // The call the dead worker had sent still reaches X after its latency. Until it has, X could
    // not show the post to anyone who asked, and the settler would rightly call it uncertain:
    // this test is about a call that went out, so it waits for X to hold the post.
    // The second worker starts once a call that reached X before the kill has landed there (a
    // lookup while it is still in flight is rightly uncertain). The target is PUBLISHING just
    // before the call is sent, so on a busy machine the kill may come first and X never hears of
    // it: after the latency and a generous margin, nothing in flight is left either way.
    const landed = Date.now() + LATENCY_MS + 15_000;
    const xHolds = async () =>
      ((await emu('GET', 'posts')).posts as Array<{ text: string }>).some(
        (post) => post.text === text,
      );
    let reachedX = await xHolds();
    while (!reachedX && Date.now() < landed) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reachedX = await xHolds();
    }

    const second = await worker('worker 2');
    await waitFor(
      'both publications to be settled',
      async () => (await targets()).every((row) => !IN_PROGRESS.includes(row.status)),
      SETTLED_WITHIN_MS - (Date.now() - killedAt),
    );
    console.info(
      `dead worker: its publications were settled ${Date.now() - killedAt} ms after the kill`,
    );

    // The visible call had gone out: X is asked, and the post points at what X shows, once.
    // The prepared one was queued again and published once. When the kill beat the call out of
    // the dead worker, X never heard of it and cannot say so: the post is uncertain, asks the
    // person to check, and is on X no times, never twice.
    const onX = (await emu('GET', 'posts')).posts as Array<{ id: string; text: string }>;
    for (const row of await targets()) {
      const published = onX.filter((post) => post.text === row.text);
      if (row.text === text && !reachedX) {
        expect(row.status, `${row.text}: ${row.error}`).toBe('UNCERTAIN');
        expect(row.error).toMatch(/Check X, then mark it as published or retry/);
        expect(published).toEqual([]);
        continue;
      }
      expect(row.status, `${row.text}: ${row.error}`).toBe('PUBLISHED');
      expect(published.map((post) => post.id)).toEqual([row.externalId]);
    }
    expect(second.output()).toContain('settled the publications held by a process that died');

    // The dead worker's row is forgotten once nothing is held under it; a graceful stop
    // removes the stopping worker's own row.
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(await rows(sql`select id, kind, host from herald_processes`)).toEqual([]);
  }, 300_000);
});
