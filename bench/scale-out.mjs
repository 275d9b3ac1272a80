// Scale-out benchmark (part of `npm run bench:scheduler`, or alone with `npm run bench:scale`):
// what a second `herald worker` and a second `herald api` add. One PostgreSQL, a round-robin TCP
// balancer standing for the load balancer in front of the API processes (their one PUBLIC_URL,
// through which the workers also reach the network sandboxes), organizations with an account on
// X, Threads, LinkedIn and Facebook each, every sandbox answering after SCALE_LATENCY_MS. In one
// run: a warm-up, then SCALE_TARGETS targets due together with 1 worker + 1 API, then as many
// again with 2 + 2. It reports the throughput of each and their ratio, the most publications
// the sandboxes saw in flight per network against the cluster-wide caps (caps.ts), texts
// published twice, and the CPU each process used.
//
// The publishing caps hold across processes, so a load on one network cannot go past its cap
// however many workers run: the targets are spread over the four networks in proportion to
// what each cap lets through (cap ÷ the time a publication takes there, the fastest of the
// warm-up), so the caps bind as late as they can. The bench prints the ceiling the caps set for
// that mix, to read the ratio against. Threads and LinkedIn count posts per account per day, so
// an account publishes one post at a time there: the posts go to SCALE_ORGS organizations (10),
// each with its own account on every network, so that few posts of one fetch share an account.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale
//
// SCALE_TARGETS (400) targets per measured run, SCALE_LATENCY_MS (1000) the sandboxes' answer
// time, SCALE_ORGS (10, more if the posts need them), SCALE_PORT (3221; the API processes take
// the next two ports).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { backendsCpu, backendsSpent, cpuMs } from './lib/proc-cpu.mjs';
import {
  benchPostgres,
  createDatabase,
  ensureServerBuilt,
  inParallel,
  quantile,
  schedulePost,
  sleep,
  startHerald,
  waitReady,
} from './lib/herald.mjs';
import {
  maxInFlight,
  moveDueTime,
  networkPattern,
  publicationsOf,
  publishCaps,
  readPublishCalls,
  setUpNetworkOrganizations,
  startBalancer,
  TEXT_NETWORKS,
  unsettled,
  workerRunning,
} from './lib/cluster.mjs';

const { adminUrl, embedded } = await benchPostgres();
const targetsPerRun = Number(process.env.SCALE_TARGETS ?? 400);
const latencyMs = Number(process.env.SCALE_LATENCY_MS ?? 1000);
const port = Number(process.env.SCALE_PORT ?? 3221);
const orgCount = Number(process.env.SCALE_ORGS ?? 10);
const base = `http://127.0.0.1:${port}`;
const WARM_UP = 60;
const GOAL_RATIO = 1.8;
/** Posts per organization, within the Pro trial's 250 a day. */
const POSTS_PER_ORG = 200;
const slugs = Object.keys(TEXT_NETWORKS);
const caps = publishCaps(slugs);

const loadAtStart = loadavg()[0];
ensureServerBuilt();
const database = await createDatabase(adminUrl, 'herald_scale');
const dataDir = mkdtempSync(join(tmpdir(), 'herald-scale-bench-'));
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
let balancer;

function startApi(n) {
  const api = startHerald(
    'api',
    { ...common, PORT: String(port + n), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    `herald api ${n}`,
  );
  processes.push(api);
  return api;
}

async function startWorker(n) {
  const worker = startHerald('worker', { ...common, LOG_LEVEL: 'info' }, `herald worker ${n}`);
  processes.push(worker);
  await workerRunning(worker);
  return worker;
}

/** CPU (ms) each running Herald process and this database's backends have used so far. */
async function cpuSnapshot() {
  return {
    herald: new Map(processes.map((p) => [p.label, cpuMs(p.child.pid)])),
    backends: await backendsCpu((text) => db.query(text)),
    bench: process.cpuUsage(),
  };
}

/** Each process's CPU between two snapshots, as a share of one core over `wallMs`. */
function cpuShares(before, after, wallMs) {
  const share = (ms) => ms / wallMs;
  const out = {};
  for (const [label, ms] of after.herald)
    if (before.herald.has(label)) out[label] = share(ms - before.herald.get(label));
  out['PostgreSQL backends'] = share(backendsSpent(before.backends, after.backends));
  const bench = process.cpuUsage(before.bench);
  out['bench (balancer, polling)'] = share((bench.user + bench.system) / 1000);
  return out;
}

let nextOrg = 0;

/**
 * Schedules `count` posts of one target each (networks in the proportions of `weights`),
 * moves them all to one instant two seconds away, and waits until every target is final, reading
 * the sandboxes' call logs as it goes.
 */
async function run(label, count, setup, weights) {
  const tag = `scale-${label}-${randomBytes(3).toString('hex')}`;
  const later = new Date(Date.now() + 3600_000);
  const pattern = networkPattern(count, weights);
  const orgOf = Array.from({ length: count }, () => setup.orgs[nextOrg++ % setup.orgs.length]);
  await inParallel(count, 8, (i) =>
    schedulePost(
      orgOf[i].session,
      orgOf[i].orgId,
      setup.platformIds[pattern[i]],
      `${tag} ${i + 1}`,
      later,
    ),
  );
  const dueAt = new Date(Date.now() + 2000);
  const postIds = await moveDueTime(db, tag, dueAt);
  const before = await cpuSnapshot();
  const calls = new Map();
  const deadline = dueAt.getTime() + 300_000;
  for (let i = 0; ; i++) {
    if ((await unsettled(db, postIds)) === 0) break;
    if (Date.now() > deadline) throw new Error(`${label}: targets never settled`);
    // The call log keeps each network's newest 2,000 calls: read it every few seconds.
    if (i % 10 === 9) await readPublishCalls(db, slugs, dueAt.getTime(), latencyMs, calls);
    await sleep(200);
  }
  const settledAt = Date.now();
  const after = await cpuSnapshot();
  await readPublishCalls(db, slugs, dueAt.getTime(), latencyMs, calls);
  const { rows } = await db.query(
    `select t.status, t.published_at as "publishedAt", t.lateness_ms as "latenessMs",
            lower(pl.name) as network,
            extract(epoch from t.published_at - j.started_on) * 1000 as "workedMs"
       from post_targets t join posts p on p.id = t.post_id
       join platforms pl on pl.id = t.platform_id
       left join pgboss.job j on j.id = t.job_id
      where p.id = any($1::uuid[])`,
    [postIds],
  );
  const published = rows.filter((r) => r.status === 'PUBLISHED');
  const lastMs = Math.max(...published.map((r) => r.publishedAt.getTime())) - dueAt.getTime();
  const perNetwork = {};
  const lastByNetwork = {};
  const fastestByNetwork = {};
  for (const r of published) {
    const worked = Number(r.workedMs);
    if (worked > 0)
      fastestByNetwork[r.network] = Math.min(fastestByNetwork[r.network] ?? Infinity, worked);
    perNetwork[r.network] = (perNetwork[r.network] ?? 0) + 1;
    const ms = r.publishedAt.getTime() - dueAt.getTime();
    lastByNetwork[r.network] = Math.max(lastByNetwork[r.network] ?? 0, ms);
  }
  return {
    label,
    count,
    published: published.length,
    notPublished: rows.length - published.length,
    lastMs,
    throughput: published.length / (lastMs / 1000),
    p50: quantile(
      published.map((r) => r.latenessMs),
      0.5,
    ),
    perNetwork,
    lastByNetwork,
    fastestByNetwork,
    inFlight: maxInFlight(calls),
    cpu: cpuShares(before, after, settledAt - dueAt.getTime()),
    ...(await publicationsOf(setup.orgs, slugs, tag)),
  };
}

/**
 * The most targets per second the caps let through for a mix: each network drains its share at
 * cap ÷ the time a publication takes there; the mix is out when its slowest network is.
 */
function capCeiling(weights, publicationMs) {
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  let slowest = 0;
  for (const slug of slugs) {
    const secondsPerTarget = ((weights[slug] / total) * publicationMs[slug]) / 1000 / caps[slug];
    slowest = Math.max(slowest, secondsPerTarget);
  }
  return 1 / slowest;
}

const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
const pct = (share) => `${Math.round(share * 100)} %`;
let failed;
try {
  const api1 = startApi(1);
  await waitReady(`http://127.0.0.1:${port + 1}`, api1);
  balancer = await startBalancer(port, [port + 1]);
  const total = WARM_UP + 2 * targetsPerRun;
  const setup = await setUpNetworkOrganizations(
    base,
    Math.max(orgCount, Math.ceil(total / POSTS_PER_ORG)),
    slugs,
    latencyMs,
    'scale-bench',
  );
  await startWorker(1);

  // The warm-up, in the caps' proportions: the time a publication takes on each network (the
  // fastest, from its job's start: one that waited for nothing), and the publishing path
  // compiled before anything is timed.
  const warm = await run('warm-up', WARM_UP, setup, caps);
  const publicationMs = Object.fromEntries(
    slugs.map((s) => [s, warm.fastestByNetwork[s] ?? latencyMs]),
  );
  // What each cap lets through per second, as the mix's weights.
  const weights = Object.fromEntries(slugs.map((s) => [s, caps[s] / publicationMs[s]]));

  const one = await run('1-worker', targetsPerRun, setup, weights);
  startApi(2);
  await waitReady(`http://127.0.0.1:${port + 2}`, processes.at(-1));
  balancer.setUpstreams([port + 1, port + 2]);
  await startWorker(2);
  const two = await run('2-workers', targetsPerRun, setup, weights);

  const ceiling = capCeiling(weights, publicationMs);
  const ratio = two.throughput / one.throughput;
  const duplicates = warm.duplicates + one.duplicates + two.duplicates;
  failed = duplicates > 0;
  console.log(
    `\nScale-out benchmark (PostgreSQL, sandboxes answering after ${latencyMs} ms, ` +
      `${setup.orgs.length} organizations with an account on each of ${slugs.join(', ')})`,
  );
  console.log(
    `machine load average (1 min) at start ${loadAtStart.toFixed(1)}, at end ${loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `cluster-wide caps: ${slugs.map((s) => `${s} ${caps[s]}`).join(', ')}; ` +
      `a publication takes (fastest of the warm-up): ${slugs.map((s) => `${s} ${fmt(publicationMs[s])}`).join(', ')}`,
  );
  console.log(
    `mix: ${slugs.map((s) => `${s} ${one.perNetwork[s] ?? 0}`).join(', ')} targets per run; ` +
      `the caps let at most ${ceiling.toFixed(1)} targets/s of it through`,
  );
  for (const r of [one, two]) {
    console.log(`\n${r.count} targets due together, ${r.label}`);
    console.log(
      `  published ${r.published}/${r.count}${r.notPublished ? ` (${r.notPublished} FAILED or UNCERTAIN)` : ''}, ` +
        `last ${fmt(r.lastMs)} after the due time: ${r.throughput.toFixed(1)} targets/s ` +
        `(${pct(r.throughput / ceiling)} of the caps' ceiling), p50 lateness ${fmt(r.p50)}`,
    );
    console.log(
      `  each network's last publication after the due time: ` +
        slugs.map((s) => `${s} ${fmt(r.lastByNetwork[s] ?? 0)}`).join(', '),
    );
    console.log(
      `  most publishing calls in flight at the sandboxes: ` +
        slugs.map((s) => `${s} ${r.inFlight[s] ?? 0}/${caps[s]}`).join(', '),
    );
    console.log(
      `  CPU (share of one core over the run): ` +
        Object.entries(r.cpu)
          .map(([k, v]) => `${k} ${pct(v)}`)
          .join(', '),
    );
    console.log(
      `  publications ${r.publications}, texts published more than once: ${r.duplicates}`,
    );
  }
  const overCap = [one, two].flatMap((r) =>
    slugs.filter((s) => (r.inFlight[s] ?? 0) > caps[s]).map((s) => `${r.label} ${s}`),
  );
  console.log('\ngoals:');
  console.log(
    `  2 workers + 2 APIs ≥ ${GOAL_RATIO}× 1 + 1: ${ratio.toFixed(2)}× ${ratio >= GOAL_RATIO ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  no network over its cap: ${overCap.length === 0 ? 'met' : `MISSED (${overCap.join(', ')})`}`,
  );
  console.log(`  no duplicates: ${duplicates} ${duplicates === 0 ? 'met' : 'MISSED'}`);
  if (overCap.length > 0) failed = true;
} catch (err) {
  for (const p of processes) console.error(`--- ${p.label} output ---\n${p.output()}`);
  throw err;
} finally {
  for (const p of processes) await p.stop().catch(() => {});
  await balancer?.close();
  await db.end().catch(() => {});
  await database.drop().catch((err) => console.error(`could not drop ${database.name}: ${err}`));
  rmSync(dataDir, { recursive: true, force: true });
  await embedded?.stop();
}
if (failed) process.exitCode = 1;
