// Crash-recovery benchmark (`npm run bench:crash`): how long the publications of a worker killed
// with SIGKILL take to settle. Two `herald worker` processes and one `herald api` on one
// PostgreSQL, with the heartbeat settings a deployment has by default (PROCESS_HEARTBEAT_SECONDS
// 10, PROCESS_LAPSE_SECONDS 30); CRASH_TARGETS X posts due together, the X sandbox answering
// after CRASH_LATENCY_MS so that publications are in flight. Once one worker holds targets inside
// their visible call, it is killed (`kill -9`: no graceful stop, its connections cut). The bench
// reports the time from the kill until every target the killed worker held is final (published
// once, or flagged for checking), and until every target of the run is (the jobs it had fetched
// but not started included), and the texts published more than once.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:crash
//
// CRASH_TARGETS (150), CRASH_LATENCY_MS (1000), CRASH_PORT (3231). The targets are spread over
// accounts of 30 posts each: the lookup of a lost post reads the account's 100 newest posts
// (X_RECONCILE_LOOKBACK), and one account posting 100 more within the lapse is not a real load
// (X itself allows about 100 per 15 minutes); the post would be flagged for checking then.
//
// How long settling takes: the lapse (30 s), then up to one heartbeat (10 s) until a live worker
// notices, then one lookup at the network per target left inside its visible call, one after the
// other, each taking the sandbox's latency (32 held at 3 s of latency took 121 s in all).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  benchPostgres,
  createDatabase,
  ensureServerBuilt,
  inParallel,
  schedulePost,
  sleep,
  startHerald,
  waitReady,
} from './lib/herald.mjs';
import {
  moveDueTime,
  publicationsOf,
  setUpNetworkOrganizations,
  unsettled,
  workerRunning,
} from './lib/cluster.mjs';

const { adminUrl, embedded } = await benchPostgres();
const count = Number(process.env.CRASH_TARGETS ?? 150);
const latencyMs = Number(process.env.CRASH_LATENCY_MS ?? 1000);
const port = Number(process.env.CRASH_PORT ?? 3231);
const base = `http://127.0.0.1:${port}`;
const GOAL_MS = 90_000;
/** Posts per organization (one X account each); see the header. */
const POSTS_PER_ORG = 30;

const loadAtStart = loadavg()[0];
ensureServerBuilt();
const database = await createDatabase(adminUrl, 'herald_crash');
const dataDir = mkdtempSync(join(tmpdir(), 'herald-crash-bench-'));
const db = new pg.Pool({ connectionString: database.url, max: 2 });
const common = {
  NODE_ENV: 'development',
  DATABASE_URL: database.url,
  PUBLIC_URL: base,
  TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  SESSION_SECRET: randomBytes(32).toString('hex'),
  HERALD_DATA_DIR: dataDir,
};
const processes = [];

/** The herald_processes id of a running process, by its pid. */
async function processIdOf(proc) {
  for (let i = 0; i < 100; i++) {
    const { rows } = await db.query('select id from herald_processes where pid = $1', [
      proc.child.pid,
    ]);
    if (rows[0]) return rows[0].id;
    await sleep(100);
  }
  throw new Error(`${proc.label} never recorded itself`);
}

/** Status of each target of `ids`. */
async function statusesOf(ids) {
  const { rows } = await db.query(
    'select id, status from post_targets where id = any($1::uuid[])',
    [ids],
  );
  return rows;
}

const FINAL = new Set(['PUBLISHED', 'FAILED', 'UNCERTAIN']);
const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
let failed;
try {
  const api = startHerald(
    'api',
    { ...common, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    'herald api',
  );
  processes.push(api);
  await waitReady(base, api);
  const setup = await setUpNetworkOrganizations(
    base,
    Math.ceil(count / POSTS_PER_ORG),
    ['x'],
    latencyMs,
    'crash-bench',
  );
  const workers = [];
  for (const n of [1, 2]) {
    const worker = startHerald('worker', { ...common, LOG_LEVEL: 'info' }, `herald worker ${n}`);
    processes.push(worker);
    workers.push(worker);
  }
  for (const worker of workers) await workerRunning(worker);
  const ids = new Map();
  for (const worker of workers) ids.set(worker, await processIdOf(worker));

  const tag = `crash-${randomBytes(3).toString('hex')}`;
  const later = new Date(Date.now() + 3600_000);
  await inParallel(count, 8, (i) => {
    const org = setup.orgs[i % setup.orgs.length];
    return schedulePost(org.session, org.orgId, setup.platformIds.x, `${tag} ${i + 1}`, later);
  });
  const dueAt = new Date(Date.now() + 2000);
  const postIds = await moveDueTime(db, tag, dueAt);

  // The victim: the first worker seen holding targets inside their visible call, killed half
  // way through that call, when the requests have reached the sandbox.
  let victim;
  const waitUntil = dueAt.getTime() + 60_000;
  while (!victim) {
    if (Date.now() > waitUntil) throw new Error('no worker ever held a target in PUBLISHING');
    const { rows } = await db.query(
      `select held_by as "heldBy", count(*)::int as n from post_targets
        where post_id = any($1::uuid[]) and status = 'PUBLISHING' group by held_by`,
      [postIds],
    );
    const busiest = rows.filter((r) => r.heldBy).sort((a, b) => b.n - a.n)[0];
    if (busiest && busiest.n >= Math.min(8, count)) {
      victim = workers.find((w) => ids.get(w) === busiest.heldBy);
      await sleep(latencyMs / 2);
    } else {
      await sleep(50);
    }
  }
  victim.child.kill('SIGKILL');
  const killedAt = Date.now();
  await victim.stop();
  // What it held at the kill (a run may have moved a target on between the read and the kill:
  // read again now that it cannot move any more).
  const { rows: heldRows } = await db.query(
    `select id, status from post_targets where post_id = any($1::uuid[]) and held_by = $2`,
    [postIds, ids.get(victim)],
  );
  const held = heldRows;
  const heldIds = held.map((r) => r.id);
  const { rows: waiting } = await db.query(
    `select count(*)::int as n from post_targets t join pgboss.job j on j.id = t.job_id
      where t.post_id = any($1::uuid[]) and t.held_by is null and t.status = 'QUEUED'
        and j.state = 'active'`,
    [postIds],
  );
  const unfinishedAtKill = await unsettled(db, postIds);

  let heldSettledMs = held.length === 0 ? 0 : null;
  let allSettledMs = null;
  const deadline = killedAt + 300_000;
  while (allSettledMs === null) {
    if (Date.now() > deadline) throw new Error('targets still unsettled 5 minutes after the kill');
    if (heldSettledMs === null) {
      const statuses = await statusesOf(heldIds);
      if (statuses.every((r) => FINAL.has(r.status))) heldSettledMs = Date.now() - killedAt;
    }
    if ((await unsettled(db, postIds)) === 0) allSettledMs = Date.now() - killedAt;
    else await sleep(250);
  }
  const outcomes = {};
  for (const r of await statusesOf(heldIds)) outcomes[r.status] = (outcomes[r.status] ?? 0) + 1;
  const { rows: finalRows } = await db.query(
    `select status, count(*)::int as n from post_targets where post_id = any($1::uuid[]) group by status`,
    [postIds],
  );
  const { publications, duplicates } = await publicationsOf(setup.orgs, ['x'], tag);
  failed = duplicates > 0;

  console.log(
    `\nCrash-recovery benchmark (PostgreSQL, 2 workers + 1 API, X sandbox answering after ${latencyMs} ms, ` +
      `default PROCESS_HEARTBEAT_SECONDS / PROCESS_LAPSE_SECONDS)`,
  );
  console.log(
    `machine load average (1 min) at start ${loadAtStart.toFixed(1)}, at end ${loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `${count} X targets due together; one worker killed with SIGKILL ${fmt(killedAt - dueAt.getTime())} after the due time, ` +
      `holding ${held.length} targets (${held.filter((r) => r.status === 'PUBLISHING').length} inside their visible call); ` +
      `${unfinishedAtKill} targets of the run unfinished then, ${waiting[0].n} of them fetched by a worker but not started`,
  );
  console.log(
    `  the killed worker's held targets final ${fmt(heldSettledMs)} after the kill: ` +
      Object.entries(outcomes)
        .map(([s, n]) => `${n} ${s}`)
        .join(', '),
  );
  console.log(
    `  every target of the run final ${fmt(allSettledMs)} after the kill: ` +
      finalRows.map((r) => `${r.n} ${r.status}`).join(', '),
  );
  console.log(`  publications on X ${publications}, texts published more than once: ${duplicates}`);
  console.log('\ngoals:');
  console.log(
    `  the killed worker's targets settled within ${fmt(GOAL_MS)}: ${fmt(allSettledMs)} ${allSettledMs <= GOAL_MS ? 'met' : 'MISSED'}`,
  );
  console.log(`  no duplicates: ${duplicates} ${duplicates === 0 ? 'met' : 'MISSED'}`);
} catch (err) {
  for (const p of processes) console.error(`--- ${p.label} output ---\n${p.output()}`);
  throw err;
} finally {
  for (const p of processes) await p.stop().catch(() => {});
  await db.end().catch(() => {});
  await database.drop().catch((err) => console.error(`could not drop ${database.name}: ${err}`));
  rmSync(dataDir, { recursive: true, force: true });
  await embedded?.stop();
}
if (failed) process.exitCode = 1;
