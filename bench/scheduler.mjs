// Scheduler benchmark: many posts due at the same moment, published by the real
// `herald worker` process to the X sandbox served by a `herald api` process, the sandbox answering
// every call after a fixed latency. Runs on PostgreSQL, in a database of its own, and reports
// throughput, lateness and duplicates next to the raw throughput of pg-boss running a no-op
// handler with the engine's own fetch options on the same database, in the same run (the machine
// is shared and noisy: the ratio says more than the absolute numbers).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scheduler
//
// Without DATABASE_URL it starts a throwaway embedded PostgreSQL (apps/server/src/test).
//
// `npm run bench:scheduler` then runs bench/scale-out.mjs: what a second worker and a second API
// add, on several networks (its own header).
//
// SCHED_WORKER_PROFILE=<folder> writes a CPU profile of the worker there (node --cpu-prof).
// SCHED_TARGETS (1000) targets for the throughput run, SCHED_LATENESS_TARGETS (100) for the
// lateness run, SCHED_LATENCY_MS (50) the sandbox's answer time, BENCH_PORT (3211).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { startCountingProxy } from './lib/pg-count-proxy.mjs';
import { backendsCpu, backendsSpent, cpuMs } from './lib/proc-cpu.mjs';
import {
  benchPostgres,
  connectSandboxAccount,
  createDatabase,
  createOrganization,
  emu,
  ensureServerBuilt,
  inParallel,
  quantile,
  root,
  schedulePost,
  signIn,
  sleep,
  startHerald,
  waitReady,
} from './lib/herald.mjs';
import { moveDueTime, unsettled, workerRunning } from './lib/cluster.mjs';

// The scaled-out shape needs PostgreSQL.
const { adminUrl, embedded } = await benchPostgres();
const throughputTargets = Number(process.env.SCHED_TARGETS ?? 1000);
const latenessTargets = Number(process.env.SCHED_LATENESS_TARGETS ?? 100);
const latencyMs = Number(process.env.SCHED_LATENCY_MS ?? 50);
const port = Number(process.env.BENCH_PORT ?? 3211);
const base = `http://127.0.0.1:${port}`;
/** The Pro trial allows 250 posts a day per organization: the posts are spread over several. */
const POSTS_PER_ORG = 200;
/**
 * Goals on a 2-core machine: all out within 10 s (at first 30 s), p50 lateness under 1 s, ≥ 0.8×
 * a no-op pg-boss handler, ≤ 3 ms of worker CPU and ≤ 8 statements per target.
 */
const GOALS = {
  allPublishedMs: 10_000,
  p50LatenessMs: 1_000,
  ratioToNoop: 0.8,
  workerCpuMs: 3,
  statementsPerTarget: 8,
};

/** The engine's fetch options and X concurrency, read from the source so the baseline follows them. */
function engineSettings() {
  const job = readFileSync(join(root, 'apps/server/src/jobs/publish-target.job.ts'), 'utf8');
  const caps = readFileSync(join(root, 'apps/server/src/modules/publishing/caps.ts'), 'utf8');
  const work = /work:\s*(\{[^}]*\})/.exec(job)?.[1];
  if (!work) throw new Error('could not find the work options in publish-target.job.ts');
  // caps.ts names X's figure (`x: { concurrency: X_PUBLISH_LIMITS.concurrency }`) or writes it.
  const limits = readFileSync(join(root, 'apps/server/src/platforms/x/limits.ts'), 'utf8');
  const named = /X_PUBLISH_LIMITS = \{[^}]*\bconcurrency:\s*(\d+)/.exec(limits)?.[1];
  const written = /\bx:\s*\{\s*concurrency:\s*(\d+)/.exec(caps)?.[1];
  return {
    work: new Function(`return (${work});`)(),
    xConcurrency: Number(written ?? named ?? NaN),
  };
}

const settings = engineSettings();
const loadAtStart = loadavg()[0];
ensureServerBuilt();
const database = await createDatabase(adminUrl);
const dataDir = mkdtempSync(join(tmpdir(), 'herald-sched-bench-'));
const db = new pg.Pool({ connectionString: database.url, max: 2 });
const common = {
  NODE_ENV: 'development',
  DATABASE_URL: database.url,
  PUBLIC_URL: base,
  TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  HERALD_DATA_DIR: dataDir,
};
const processes = [];

/** Signs a person in per organization, each connecting its own X sandbox account. */
async function setUpOrganizations(count) {
  const orgs = [];
  for (let k = 0; k < count; k++) {
    const session = await signIn(base, `sched-bench-${k}@example.com`, `Bench ${k}`);
    const orgId = await createOrganization(session, `Scheduler bench ${k}`);
    const account = `sched_bench_${k}`;
    await connectSandboxAccount(session, 'x', orgId, account);
    // X caps posts per account per 15 minutes; the benchmark is about Herald, not that cap.
    await emu(session, 'x', 'scenario', { account, knob: 'publish_cap', value: 1_000_000 });
    await emu(session, 'x', 'scenario', { account, knob: 'latency_ms', value: latencyMs });
    orgs.push({ session, orgId });
  }
  const supported = await orgs[0].session.json('GET', '/api/platforms/supported');
  const xId = supported.data.platforms.find((p) => p.name === 'X').id;
  return { orgs, xId };
}

/** CPU used so far by the api and worker processes and by this database's PostgreSQL backends. */
async function cpuSnapshot(api, worker) {
  const backends = await backendsCpu((text) => db.query(text));
  return { api: cpuMs(api.child.pid), worker: cpuMs(worker.child.pid), backends };
}

/** CPU ms per target spent between two snapshots (backends present in both). */
function cpuPerTarget(before, after, count) {
  const postgres = backendsSpent(before.backends, after.backends);
  const per = (ms) => ms / count;
  return {
    api: per(after.api - before.api),
    worker: per(after.worker - before.worker),
    postgres: per(postgres),
  };
}

/** Posts go to the organizations in turn, so each stays within its plan's posts per day. */
let nextOrg = 0;

async function targetsOf(tag) {
  const { rows } = await db.query(
    `select t.status, t.lateness_ms as "latenessMs", t.published_at as "publishedAt",
            extract(epoch from j.started_on - t.due_at) * 1000 as "fetchedAfterMs",
            extract(epoch from t.published_at - j.started_on) * 1000 as "workedMs"
       from post_targets t
       join posts p on p.id = t.post_id
       left join pgboss.job j on j.id = t.job_id
      where p.content like $1`,
    [`${tag} %`],
  );
  return rows;
}

/**
 * Schedules `count` posts through the API (an hour ahead), moves them all to one instant two
 * seconds away, then waits until every target is final.
 */
async function run(label, count, setup, api, worker, whenDue = () => {}) {
  const tag = `sched-${label}-${randomBytes(3).toString('hex')}`;
  const later = new Date(Date.now() + 3600_000);
  const started = Date.now();
  const orgOf = Array.from({ length: count }, () => setup.orgs[nextOrg++ % setup.orgs.length]);
  await inParallel(count, 8, (i) =>
    schedulePost(orgOf[i].session, orgOf[i].orgId, setup.xId, `${tag} ${i + 1}`, later),
  );
  const scheduledIn = Date.now() - started;
  const dueAt = new Date(Date.now() + 2000);
  // Scheduling 1,000 posts through the API takes longer than any fixed lead on a busy machine:
  // the jobs are the ones the API created, only their time moves, as a reschedule would move them.
  const postIds = await moveDueTime(db, tag, dueAt);
  whenDue();
  const cpuBefore = await cpuSnapshot(api, worker);

  // Watched by the targets' primary keys: the full read (a join over pgboss.job) cost PostgreSQL
  // ~100 ms a time, 5 times a second, on the machine whose CPU the run measures.
  const deadline = dueAt.getTime() + 180_000;
  for (;;) {
    const working = await unsettled(db, postIds);
    if (working === 0) break;
    if (Date.now() > deadline) throw new Error(`${label}: ${working} targets never settled`);
    await sleep(200);
  }
  const cpu = cpuPerTarget(cpuBefore, await cpuSnapshot(api, worker), count);
  const targets = await targetsOf(tag);
  if (targets.length !== count) throw new Error(`${label}: ${targets.length} targets of ${count}`);
  const published = targets.filter((t) => t.status === 'PUBLISHED');
  const times = published.map((t) => t.publishedAt.getTime());
  const lateness = published.map((t) => t.latenessMs);
  const { posts } = await emu(setup.orgs[0].session, 'x', 'posts');
  const perText = new Map();
  for (const post of posts.filter((p) => p.text.startsWith(`${tag} `)))
    perText.set(post.text, (perText.get(post.text) ?? 0) + 1);
  const lastMs = Math.max(...times) - dueAt.getTime();
  return {
    label,
    count,
    scheduledPerSecond: (count / scheduledIn) * 1000,
    published: published.length,
    notPublished: targets.length - published.length,
    firstMs: Math.min(...times) - dueAt.getTime(),
    lastMs,
    throughput: published.length / (lastMs / 1000),
    p50: quantile(lateness, 0.5),
    p99: quantile(lateness, 0.99),
    // Where lateness goes: waiting for the worker to fetch the job, then the worker's own time.
    fetchedP50: quantile(
      published.map((t) => Number(t.fetchedAfterMs)),
      0.5,
    ),
    workedP50: quantile(
      published.map((t) => Number(t.workedMs)),
      0.5,
    ),
    publications: [...perText.values()].reduce((a, b) => a + b, 0),
    duplicates: [...perText.values()].filter((n) => n > 1).length,
    cpu,
  };
}

/** pg-boss alone: `count` jobs drained by a handler that does nothing, with `work` options. */
async function rawQueue(count, work) {
  const boss = new PgBoss({ connectionString: database.url, max: 4, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  const queue = `bench.noop.${randomBytes(3).toString('hex')}`;
  await boss.createQueue(queue);
  for (let i = 0; i < count; i += 500) {
    const size = Math.min(500, count - i);
    await boss.insert(
      queue,
      Array.from({ length: size }, (_, j) => ({ data: { i: i + j } })),
    );
  }
  let done = 0;
  let finished;
  const all = new Promise((resolve) => (finished = resolve));
  const started = Date.now();
  await boss.work(queue, work, async (jobs) => {
    done += jobs.length;
    if (done >= count) finished(Date.now());
  });
  const ended = await all;
  await boss.stop({ graceful: true, timeout: 5000 });
  return (count / (ended - started)) * 1000;
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
let duplicatesFound;
try {
  const api = startHerald(
    'api',
    { ...common, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    'herald api',
  );
  processes.push(api);
  await waitReady(base, api);
  const total = throughputTargets + 2 * latenessTargets;
  const setup = await setUpOrganizations(Math.ceil(total / POSTS_PER_ORG));

  const worker = startHerald(
    'worker',
    { ...common, LOG_LEVEL: 'info' },
    'herald worker',
    process.env.SCHED_WORKER_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SCHED_WORKER_PROFILE}`]
      : [],
  );
  processes.push(worker);
  await workerRunning(worker);

  // The big run first: it also warms the worker up (a worker runs for days; its first seconds,
  // while the JIT compiles the publishing path, are not what lateness is about).
  const throughput = await run('throughput', throughputTargets, setup, api, worker);
  const lateness = await run('lateness', latenessTargets, setup, api, worker);

  // What a target costs in statements: a fresh worker behind a relay that counts everything it
  // sends while the targets go out (pg-boss's fetches, completions and polling included).
  // Counted apart because the relay adds latency to every round trip.
  await worker.stop();
  const proxy = await startCountingProxy('127.0.0.1', Number(new URL(database.url).port || 5432));
  const countedUrl = new URL(database.url);
  countedUrl.host = `127.0.0.1:${proxy.port}`;
  const counted = startHerald(
    'worker',
    { ...common, DATABASE_URL: countedUrl.toString(), LOG_LEVEL: 'info' },
    'herald worker (counted)',
  );
  processes.push(counted);
  await workerRunning(counted);
  const queries = await run('statements', latenessTargets, setup, api, counted, () =>
    proxy.reset(),
  );
  const perTarget = {
    statements: proxy.counts.statements / latenessTargets,
    roundTrips: proxy.counts.roundTrips / latenessTargets,
  };
  for (const p of processes.splice(0)) await p.stop();
  await proxy.close();

  const rawEngine = await rawQueue(throughputTargets, settings.work);
  const rawWide = await rawQueue(throughputTargets, {
    batchSize: 100,
    pollingIntervalSeconds: 0.5,
  });

  duplicatesFound = lateness.duplicates + throughput.duplicates + queries.duplicates;
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  console.log(
    `\nScheduler benchmark (PostgreSQL, X sandbox answering after ${latencyMs} ms, ` +
      `${setup.orgs.length} organizations with one X account each)`,
  );
  console.log(
    `machine load average (1 min) at start ${loadAtStart.toFixed(1)}, at end ${loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `engine settings: work ${JSON.stringify(settings.work)}, X concurrency ${settings.xConcurrency} per worker, 1 worker`,
  );
  for (const r of [throughput, lateness]) {
    console.log(
      `\n${r.count} targets due together (${r.label} run; scheduled at ${r.scheduledPerSecond.toFixed(0)} posts/s through the API)`,
    );
    console.log(
      `  published ${r.published}/${r.count}${r.notPublished ? ` (${r.notPublished} FAILED or UNCERTAIN)` : ''}, ` +
        `first ${fmt(r.firstMs)} and last ${fmt(r.lastMs)} after the due time`,
    );
    console.log(
      `  throughput ${r.throughput.toFixed(1)} targets/s  ratio to no-op pg-boss ${(r.throughput / rawEngine).toFixed(2)}`,
    );
    console.log(
      `  lateness p50 ${fmt(r.p50)}  p99 ${fmt(r.p99)}  (p50 of: job fetched ${fmt(r.fetchedP50)} after the due time, then ${fmt(r.workedP50)} in the worker)`,
    );
    console.log(
      `  CPU per target: worker ${r.cpu.worker.toFixed(1)} ms, api + X sandbox ${r.cpu.api.toFixed(1)} ms, PostgreSQL ${r.cpu.postgres.toFixed(1)} ms`,
    );
    console.log(
      `  publications on X ${r.publications}, texts published more than once: ${r.duplicates}`,
    );
  }
  console.log(
    `\n${queries.count} targets through a counting relay (a fresh worker behind it): ` +
      `${queries.published}/${queries.count} published, ${perTarget.statements.toFixed(1)} statements ` +
      `and ${perTarget.roundTrips.toFixed(1)} round trips per target, pg-boss's own included`,
  );
  console.log(
    `\npg-boss alone, no-op handler, ${throughputTargets} jobs: ${rawEngine.toFixed(1)} jobs/s with the engine's options, ` +
      `${rawWide.toFixed(1)} jobs/s with batchSize 100`,
  );
  const ratio = throughput.throughput / rawEngine;
  console.log('\ngoals (2-core machine):');
  console.log(
    `  ${throughputTargets} targets all published within ${fmt(GOALS.allPublishedMs)}: ${fmt(throughput.lastMs)} ${verdict(throughput.lastMs <= GOALS.allPublishedMs && throughput.published === throughput.count)}`,
  );
  console.log(
    `  throughput ≥ ${GOALS.ratioToNoop}× the no-op pg-boss handler: ${ratio.toFixed(2)}× ${verdict(ratio >= GOALS.ratioToNoop)}`,
  );
  console.log(
    `  worker CPU ≤ ${GOALS.workerCpuMs} ms per target (throughput run): ${throughput.cpu.worker.toFixed(1)} ms ${verdict(throughput.cpu.worker <= GOALS.workerCpuMs)}`,
  );
  console.log(
    `  ≤ ${GOALS.statementsPerTarget} statements per target: ${perTarget.statements.toFixed(1)} ${verdict(perTarget.statements <= GOALS.statementsPerTarget)}`,
  );
  console.log(
    `  p50 lateness under ${fmt(GOALS.p50LatenessMs)} for ${latenessTargets} targets: ${fmt(lateness.p50)} ${verdict(lateness.p50 < GOALS.p50LatenessMs)}`,
  );
  console.log(`  no duplicates: ${duplicatesFound} ${verdict(duplicatesFound === 0)}`);
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
if (duplicatesFound > 0) process.exitCode = 1;
