import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { usePostgres } from '../../test/postgres.js';
import { HeraldProcesses } from '../../test/server-process.js';

/**
 * Fault test of the publishing engine: 200 posts due in the same minute, a real
 * `herald worker` process publishing them to the X sandbox served by an API on a real port, and
 * that worker killed with SIGKILL twice while it publishes. Whatever was in flight must end
 * PUBLISHED (nothing had been sent yet, or the watchdog found on X what the visible call made) or
 * UNCERTAIN with an explanation (X could not vouch for it) — and the sandbox must show every text
 * at most once, PUBLISHED ones exactly once.
 *
 * It needs PostgreSQL: the worker is a separate process, and the embedded PGlite database cannot
 * be shared between processes (`herald worker` refuses to start without it). It uses the server at
 * DATABASE_URL, or a throwaway embedded one when that is unset.
 */

const POSTS = 200;
/** Every 4th post carries an image: its upload keeps the target a while before the visible call. */
const WITH_IMAGE_EVERY = 4;
/**
 * Publications seen on X when the worker is killed. The first comes early in the first fetched
 * batch, so some fetched targets have not started yet (their jobs die with the worker).
 */
const KILL_AT = [20, 120];
/** The worker in this test gives up on a silent target after this long (production: 600). */
const STUCK_AFTER_SECONDS = 3;
/** Every X call waits this long, so a kill lands while calls are in flight. */
const LATENCY_MS = 75;
const ACCOUNT = 'fault_x';

const IN_PROGRESS = ['QUEUED', 'PREPARING', 'READY', 'PUBLISHING'];

interface TargetRow {
  id: string;
  status: string;
  error: string | null;
  externalId: string | null;
  text: string;
}
interface SandboxPost {
  id: string;
  text: string;
}

let t: TestApp | undefined;
let owner: Actor;
let orgId: string;
const processes = new HeraldProcesses();
let workerLog = '';

function keepLog(label: string, chunk: Buffer) {
  workerLog = `${workerLog}${chunk
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => `[${label}] ${line}\n`)
    .join('')}`.slice(-40_000);
}

/** Starts `herald worker` (the built CLI) against the test database and the API's sandbox. */
function startWorker(label: string): ChildProcess {
  const { child } = processes.spawn('worker', {
    LOG_LEVEL: 'warn',
    PUBLISH_STUCK_AFTER_SECONDS: String(STUCK_AFTER_SECONDS),
  });
  child.stdout!.on('data', (chunk: Buffer) => keepLog(label, chunk));
  child.stderr!.on('data', (chunk: Buffer) => keepLog(label, chunk));
  child.on('exit', (code, signal) => keepLog(label, Buffer.from(`exited (${signal ?? code})`)));
  return child;
}

async function kill(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t!.database.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

const allTargets = () =>
  rows<TargetRow>(sql`
    select t.id, t.status, t.error, t.external_id as "externalId", p.content as text
    from post_targets t join posts p on p.id = t.post_id`);

/** QUEUED targets whose only job is one a worker had taken (active): stranded if it died. */
const queuedWithTakenJob = () =>
  rows<{ id: string }>(sql`
    select t.id from post_targets t
    where t.status = 'QUEUED'
      and exists (select 1 from pgboss.job j
                  where j.singleton_key = t.id::text and j.state = 'active')
      and not exists (select 1 from pgboss.job j
                      where j.singleton_key = t.id::text and j.state in ('created', 'retry'))`);

async function statusCounts(): Promise<Record<string, number>> {
  const counted = await rows<{ status: string; n: number }>(
    sql`select status, count(*)::int as n from post_targets group by status`,
  );
  return Object.fromEntries(counted.map((r) => [r.status, r.n]));
}

/** Everything the X sandbox actually published. */
async function sandboxPosts(): Promise<SandboxPost[]> {
  const res = await t!.app.inject({
    method: 'GET',
    url: '/api/sandbox/x/_emu/posts',
    headers: { cookie: owner.jar.header() },
  });
  if (res.statusCode !== 200) throw new Error(`_emu/posts: ${res.statusCode} ${res.body}`);
  return (res.json() as { posts: SandboxPost[] }).posts;
}

async function knob(name: string, value: number) {
  const res = await t!.app.inject({
    method: 'POST',
    url: '/api/sandbox/x/_emu/scenario',
    headers: { cookie: owner.jar.header() },
    payload: { account: ACCOUNT, knob: name, value },
  });
  if (res.statusCode !== 200) throw new Error(`knob ${name}: ${res.statusCode} ${res.body}`);
}

async function schedulePost(
  xId: string,
  content: string,
  scheduledAt: string,
  files: FilePart[] = [],
) {
  const body = await multipart({ platformIds: JSON.stringify([xId]), content, scheduledAt }, files);
  const res = await send(t!.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`create post: ${res.statusCode} ${res.body}`);
}

/** Runs `task` for 0…count-1, `width` at a time. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

// First, so the server outlives the app and worker the hooks below start and stop.
usePostgres();

beforeAll(async () => {
  t = await processes.start('fault');
  ({ owner, orgId } = await createOrg(t.app, 'fault@engine.test', 'Fault Co'));
  const connected = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: ACCOUNT });
  if (!connected.includes('connected')) throw new Error(`X not connected: ${connected}`);
  // X allows 100 posts per 15 minutes per account; this test needs 200 at once.
  await knob('publish_cap', 1_000_000);
  await knob('latency_ms', LATENCY_MS);
}, 120_000);

afterAll(() => processes.stop(), 60_000);

describe('publishing with a worker process killed mid-publish (on PostgreSQL: a separate worker cannot share PGlite)', () => {
  it('publishes 200 posts due together exactly once, or flags them UNCERTAIN with an explanation', async () => {
    onTestFailed(() => {
      console.error(`Worker output (last 40 kB):\n${workerLog}`);
    });
    const supported = await owner.call('GET', '/api/platforms/supported');
    const xId: string = supported.body.data.platforms.find(
      (p: { name: string }) => p.name === 'X',
    ).id;

    // 200 posts due at the same instant, scheduled through the API (each gets its pg-boss job).
    const dueAt = new Date(Date.now() + 20_000);
    dueAt.setUTCMilliseconds(0);
    const runId = randomBytes(3).toString('hex');
    const texts = Array.from({ length: POSTS }, (_, i) => `Fault test ${runId} post ${i + 1}`);
    const image: FilePart = { name: 'fault.jpg', type: 'image/jpeg', data: await jpeg(320, 240) };
    const startedAt = Date.now();
    await inParallel(POSTS, 6, (i) =>
      schedulePost(xId, texts[i]!, dueAt.toISOString(), i % WITH_IMAGE_EVERY === 0 ? [image] : []),
    );
    const schedulingMs = Date.now() - startedAt;
    expect(Date.now(), 'scheduling took longer than the margin before the due time').toBeLessThan(
      dueAt.getTime(),
    );
    const jobs = await rows<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = 'publish.target.v1' and state = 'created'`,
    );
    expect(jobs[0]!.n).toBe(POSTS);

    // Kill the worker twice while it publishes: once a threshold of publications is passed and
    // some target is past the point of no return (PUBLISHING). Restart it after the stuck delay,
    // so its start-up watchdog finds what the dead one left.
    const leftPublishing = new Set<string>();
    const leftBeforeVisibleCall = new Set<string>();
    const stranded = new Set<string>();
    let worker = startWorker('worker 1');
    for (const [round, threshold] of KILL_AT.entries()) {
      await waitFor(
        `${threshold} publications with a target in PUBLISHING (worker ${round + 1})`,
        async () => {
          const published = (await sandboxPosts()).length;
          const busy = (await statusCounts()).PUBLISHING ?? 0;
          return published >= threshold && busy > 0;
        },
        (ready) => ready,
        90_000,
        20,
      );
      await kill(worker);
      for (const { id } of await queuedWithTakenJob()) stranded.add(id);
      for (const target of await allTargets()) {
        if (target.status === 'PUBLISHING') leftPublishing.add(target.id);
        if (target.status === 'PREPARING' || target.status === 'READY')
          leftBeforeVisibleCall.add(target.id);
      }
      await new Promise((resolve) => setTimeout(resolve, STUCK_AFTER_SECONDS * 1000 + 700));
      worker = startWorker(`worker ${round + 2}`);
    }
    expect(leftPublishing.size, 'the kills landed while calls to X were in flight').toBeGreaterThan(
      0,
    );

    // Everything settles, including targets whose jobs died with a worker before they started
    // (the watchdog gives overdue QUEUED targets their job back).
    await waitFor(
      'every target to leave QUEUED/PREPARING/READY/PUBLISHING',
      statusCounts,
      (counts) => IN_PROGRESS.every((s) => !counts[s]),
      150_000,
      500,
    );
    const settledAfterDueMs = Date.now() - dueAt.getTime();

    const targets = await allTargets();
    const published = await sandboxPosts();
    const byStatus = (status: string) => targets.filter((row) => row.status === status);
    const timesOnX = new Map<string, SandboxPost[]>();
    for (const post of published)
      timesOnX.set(post.text, [...(timesOnX.get(post.text) ?? []), post]);

    expect(targets).toHaveLength(POSTS);
    expect(
      byStatus('FAILED').map((row) => `${row.text}: ${row.error}`),
      'nothing fails (the sandbox refused nothing)',
    ).toEqual([]);
    expect(byStatus('PUBLISHED').length + byStatus('UNCERTAIN').length).toBe(POSTS);
    // No duplicates, and nothing the test did not schedule.
    expect([...timesOnX].filter(([, posts]) => posts.length > 1).map(([text]) => text)).toEqual([]);
    expect(published.every((post) => texts.includes(post.text))).toBe(true);
    // PUBLISHED: on X exactly once, and Herald points at that very post.
    for (const row of byStatus('PUBLISHED')) {
      const onX = timesOnX.get(row.text) ?? [];
      expect(
        onX.map((post) => post.id),
        row.text,
      ).toEqual([row.externalId]);
    }
    // UNCERTAIN: at most once on X, and the people concerned are told what to do.
    for (const row of byStatus('UNCERTAIN')) {
      expect((timesOnX.get(row.text) ?? []).length, row.text).toBeLessThanOrEqual(1);
      expect(row.error, row.text).toMatch(/Check X, then mark it as published or retry/);
    }
    // A target the dead worker held after the visible call is looked up at X by the watchdog:
    // found, it is PUBLISHED and points at that post (checked above). Otherwise X cannot vouch
    // that the cut-off call will not still land: UNCERTAIN, never sent again. One held before
    // the visible call was never sent: it went out, once.
    const statusOf = new Map(targets.map((row) => [row.id, row.status]));
    const reconciled = [...leftPublishing].filter((id) => statusOf.get(id) === 'PUBLISHED');
    expect(
      [...leftPublishing].filter((id) => !['PUBLISHED', 'UNCERTAIN'].includes(statusOf.get(id)!)),
    ).toEqual([]);
    expect(
      reconciled.length,
      'the watchdog found on X what the dead workers had sent',
    ).toBeGreaterThan(0);
    expect([...leftBeforeVisibleCall].map((id) => statusOf.get(id))).toEqual(
      [...leftBeforeVisibleCall].map(() => 'PUBLISHED'),
    );
    // Fetched by the dead worker but not started: the watchdog gives them a job again.
    expect([...stranded].map((id) => statusOf.get(id))).toEqual(
      [...stranded].map(() => 'PUBLISHED'),
    );
    console.info(
      `fault test: ${byStatus('PUBLISHED').length} published, ${byStatus('UNCERTAIN').length} uncertain ` +
        `(the kills left ${leftPublishing.size} in PUBLISHING, of which ${reconciled.length} were found on X, ${leftBeforeVisibleCall.size} before the visible call, ` +
        `${stranded.size} queued with a job the dead worker held), ` +
        `${published.length} publications on X; scheduling took ${schedulingMs} ms, ` +
        `all settled ${settledAfterDueMs} ms after the due time`,
    );
  }, 240_000);
});
