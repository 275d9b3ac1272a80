// Analytics benchmark: an organization with 20,000 published targets and 1,000,000
// metric snapshots on PostgreSQL. In one run it measures, next to each other:
//
//   - the analytics screen's two requests for a 90-day range (GET …/analytics/overview and
//     …/analytics/best-times) through a real `herald api` process: p50/p95 of sequential requests,
//     and the posts page (GET …/posts?page=1&pageSize=20) of the same organization as the
//     baseline measured in the same run (the machine is shared: the ratio says more than the ms);
//   - every query those requests (and the export) run, as the repository builds them (imported
//     from the source, so the plans follow the code): p50/p95 of repeated runs through the driver,
//     and EXPLAIN ANALYZE: which indexes, rollup and latest-reading rows they use; next to them,
//     the former reads (each target's readings searched; the daily series from the raw readings)
//     as references measured in the same run;
//   - the post-metrics CSV export of the whole year (20,000 rows) and of about a tenth of it,
//     the server's RSS sampled while each streams: flat memory means the growth of the big one is
//     not ten times the small one's.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:analytics
//
// Without DATABASE_URL it starts a throwaway embedded PostgreSQL (apps/server/src/test).
// ANALYTICS_TARGETS (20000), ANALYTICS_SNAPSHOTS (1000000), ANALYTICS_REQUESTS (60),
// ANALYTICS_QUERY_RUNS (30), BENCH_PORT (3212).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  benchPostgres,
  connectSandboxAccount,
  createDatabase,
  createOrganization,
  ensureServerBuilt,
  quantile,
  signIn,
  startHerald,
  waitReady,
} from './lib/herald.mjs';

const { adminUrl, embedded } = await benchPostgres();
const targetCount = Number(process.env.ANALYTICS_TARGETS ?? 20_000);
const snapshotCount = Number(process.env.ANALYTICS_SNAPSHOTS ?? 1_000_000);
const requests = Number(process.env.ANALYTICS_REQUESTS ?? 60);
const queryRuns = Number(process.env.ANALYTICS_QUERY_RUNS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 3212);
const base = `http://127.0.0.1:${port}`;
/** The goal: the screen's queries for 90 days answer with p95 under 100 ms. */
const GOAL_P95_MS = 100;
const DAY_MS = 86_400_000;

const dayOf = (d) => d.toISOString().slice(0, 10);
const today = new Date();
const to = dayOf(today);
const from90 = dayOf(new Date(today.getTime() - 89 * DAY_MS));
const fromYear = dayOf(new Date(today.getTime() - 370 * DAY_MS));

/** Fills the organization: posts on two accounts, published over the last year, and readings. */
async function seed(db, orgId) {
  const { rows: accounts } = await db.query(
    `select i.id, i.platform_id as "platformId", coalesce(i.name, i.username) as name
       from integrations i where i.organization_id = $1 order by i.id`,
    [orgId],
  );
  if (accounts.length < 2) throw new Error('the bench needs two connected accounts');
  const posts = Math.ceil(targetCount / 2);
  const perTarget = Math.max(1, Math.floor(snapshotCount / targetCount));
  const started = performance.now();
  // One post every (365 days / posts), the newest now; each goes to both accounts.
  await db.query(
    `insert into posts (id, organization_id, title, status, content, published_at, created_at, updated_at)
     select gen_random_uuid(), $1, 'Bench post ' || g,
            'published', 'Bench post ' || g || ' about the launch #herald https://example.com',
            now() - (g * interval '365 days' / $2::int), now() - (g * interval '365 days' / $2::int), now()
       from generate_series(0, $2::int - 1) g`,
    [orgId, posts],
  );
  for (const [k, a] of accounts.slice(0, 2).entries()) {
    await db.query(
      `insert into post_targets (id, post_id, organization_id, platform_id, integration_id,
                                 account_name, status, external_id, permalink, published_at)
       select gen_random_uuid(), p.id, p.organization_id, $2, $3, $4, 'PUBLISHED',
              'bench-' || $5::int || '-' || p.id, 'https://example.com/p/' || p.id,
              p.published_at - ($5::int * interval '1 minute')
         from posts p where p.organization_id = $1`,
      [orgId, a.platformId, a.id, a.name, k],
    );
  }
  // Loaded in one statement with the per-row triggers off, then the rollup and the latest readings
  // rebuilt in one pass each by the migrations' own functions (docs/analytics.md#rollup).
  await db.query('alter table post_metric_snapshots disable trigger user');
  // `perTarget` readings per target spread over its first 90 days (never in the future),
  // growing; reach only on the first account's network, as X gives none.
  await db.query(
    `insert into post_metric_snapshots (organization_id, post_id, target_id, integration_id,
        checkpoint, taken_at, views, reach, likes, comments, shares, interactions)
     select t.organization_id, t.post_id, t.id, t.integration_id, 'b' || g,
            least(now() - interval '1 minute',
                  t.published_at + interval '1 hour' + (g * interval '90 days' / $2::int)),
            v.views, v.views * 7 / 10, v.views / 20, v.views / 200, v.views / 400,
            v.views / 20 + v.views / 200 + v.views / 400
       from post_targets t
       cross join generate_series(0, $2::int - 1) g
       cross join lateral (select (100 + (g + 1) * (50 + abs(hashtext(t.id::text)) % 400))::bigint as views) v
      where t.organization_id = $1`,
    [orgId, perTarget],
  );
  await db.query('alter table post_metric_snapshots enable trigger user');
  const {
    rows: [{ rollup }],
  } = await db.query(`select to_regproc('analytics_daily_gains_rebuild') is not null as rollup`);
  if (rollup) await db.query('select analytics_daily_gains_rebuild($1)', [orgId]);
  const {
    rows: [{ latest }],
  } = await db.query(`select to_regproc('post_metric_latest_rebuild') is not null as latest`);
  if (latest) await db.query('select post_metric_latest_rebuild($1)', [orgId]);
  // A year of follower counts for both accounts.
  await db.query(
    `insert into account_metric_days (organization_id, integration_id, day, followers, collected_at)
     select i.organization_id, i.id, d::date, 1000 + extract(doy from d)::int * 3, d
       from integrations i, generate_series(now() - interval '364 days', now(), interval '1 day') d
      where i.organization_id = $1
     on conflict do nothing`,
    [orgId],
  );
  await db.query('analyze');
  const { rows } = await db.query(
    `select (select count(*)::int from post_targets where organization_id = $1 and status = 'PUBLISHED') as targets,
            (select count(*)::int from post_metric_snapshots where organization_id = $1) as snapshots`,
    [orgId],
  );
  return { ...rows[0], seconds: (performance.now() - started) / 1000 };
}

/** `count` sequential GETs after a few warm-up ones: p50 and p95 in ms. */
async function timeRequests(session, path, count) {
  const get = async () => {
    let res = await session.fetch(path);
    if (res.status === 401) {
      // The access token lives minutes and a slow run outlives it: refresh, as the web app does.
      await (await session.fetch('/api/auth/refreshToken', { method: 'POST' })).arrayBuffer();
      res = await session.fetch(path);
    }
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
  };
  for (let i = 0; i < 3; i++) await get();
  const times = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await get();
    times.push(performance.now() - t);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/**
 * The SQL each repository function sends, built by the repository itself: a stand-in database
 * keeps the query instead of running it, and drizzle's dialect turns it into text and values.
 */
async function repositoryQueries(orgId) {
  const { PgDialect } = await import('drizzle-orm/pg-core');
  const repo =
    await import('../apps/server/src/modules/analytics/analytics-overview.repository.ts');
  const dialect = new PgDialect();
  const captured = [];
  const fake = {
    execute: async (query) => {
      captured.push(dialect.sqlToQuery(query));
      return { rows: [] };
    },
  };
  const f = { organizationId: orgId };
  const { rows: accounts } = await db.query(
    'select id, platform_id as "platformId" from integrations where organization_id = $1 order by id',
    [orgId],
  );
  const xFilter = { ...f, platformIds: [accounts[0].platformId] };
  const accountFilter = { ...f, integrationIds: [accounts[0].id] };
  const start = new Date(`${from90}T00:00:00Z`);
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS);
  const prevStart = new Date(start.getTime() - 90 * DAY_MS);
  // The daily series' day starts (UTC days here; any zone's are as many quarter-hour bounds).
  const dayStarts = Array.from(
    { length: Math.round((end.getTime() - start.getTime()) / DAY_MS) },
    (_, i) => new Date(start.getTime() + i * DAY_MS),
  );
  const cases = [
    ['KPIs and networks (range)', () => repo.sumTargetReadings(fake, f, start, end, end, true)],
    [
      'KPIs (previous period)',
      () => repo.sumTargetReadings(fake, f, prevStart, start, start, false),
    ],
    [
      'KPIs and networks, one account',
      () => repo.sumTargetReadings(fake, accountFilter, start, end, end, true),
    ],
    ['top posts by views', () => repo.listTopTargets(fake, f, start, end, end, 'views', 10)],
    [
      'top posts by engagement',
      () => repo.listTopTargets(fake, f, start, end, end, 'engagement', 10),
    ],
    ['best times (targets)', () => repo.listReadTargetSlots(fake, f, start, end, end)],
    ['daily gains', () => repo.listDailyGains(fake, f, dayStarts, end)],
    ['daily gains, one network', () => repo.listDailyGains(fake, xFilter, dayStarts, end)],
    ['account days (followers)', () => repo.listAccountDays(fake, f, dayOf(prevStart), to)],
    ['accounts', () => repo.listAccounts(fake, f)],
    ['organization status', () => repo.getOrgStatus(fake, orgId)],
  ];
  const out = [];
  // The daily series as it was read before the rollup (every reading of the organization, each
  // minus the one before it): the reference the rollup is measured against in the same run.
  out.push({
    reference: true,
    label: 'daily gains from the raw readings (no rollup; reference)',
    query: {
      sql: `with gains as (
              select s.taken_at,
                s.views - coalesce(lag(s.views) over w, 0) as views,
                s.interactions - coalesce(lag(s.interactions) over w, 0) as interactions
              from post_metric_snapshots s
              join post_targets t on t.id = s.target_id
              where s.organization_id = $1 and t.organization_id = $1 and s.taken_at < $3
              window w as (partition by s.target_id order by s.taken_at))
            select to_char(taken_at at time zone 'UTC', 'YYYY-MM-DD') as day,
              sum(views)::float8 as views, sum(interactions)::float8 as interactions
            from gains where taken_at >= $2 group by 1 order by 1`,
      params: [orgId, start.toISOString(), end.toISOString()],
    },
  });
  // The targets' readings as they were read before \`post_metric_latest\` (each target's readings
  // searched for the latest before the cutoff, every row sent to the server): the reference the
  // KPIs, top posts and best times are measured against in the same run.
  for (const [label, from, until] of [
    ['range', start, end],
    ['previous period', prevStart, start],
  ])
    out.push({
      reference: true,
      label: `target readings searched, ${label} (no latest row; reference)`,
      query: {
        sql: `select t.id, t.post_id, t.platform_id, p.name, t.account_name,
                to_char(t.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                t.permalink, s.views::float8, s.reach::float8, s.interactions::float8,
                to_char(s.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              from post_targets t
              join platforms p on p.id = t.platform_id
              left join lateral (
                select views, reach, interactions, taken_at from post_metric_snapshots s
                where s.target_id = t.id and s.organization_id = t.organization_id
                  and s.taken_at < $4
                order by s.taken_at desc limit 1
              ) s on true
              where t.organization_id = $1 and t.status = 'PUBLISHED'
                and t.published_at >= $2 and t.published_at < $3`,
        params: [orgId, from.toISOString(), until.toISOString(), until.toISOString()],
      },
    });
  for (const [label, run] of cases) {
    captured.length = 0;
    await run();
    out.push({ reference: false, label, query: captured[0] });
  }
  return out;
}

/**
 * Each query run `runs` times through the driver (p50/p95 in ms, rows and all, as the server
 * sees them), then EXPLAIN ANALYZE once: execution time and the plan's scan lines.
 */
async function explain(db, queries, runs) {
  const out = [];
  for (const { label, query, reference } of queries) {
    await db.query(query.sql, query.params); // warm
    const times = [];
    for (let i = 0; i < (reference ? Math.min(runs, 5) : runs); i++) {
      const t = performance.now();
      await db.query(query.sql, query.params);
      times.push(performance.now() - t);
    }
    const { rows } = await db.query(`explain (analyze, buffers) ${query.sql}`, query.params);
    const lines = rows.map((r) => r['QUERY PLAN']);
    const ms = Number(/Execution Time: ([\d.]+)/.exec(lines.at(-1))?.[1] ?? NaN);
    const scans = lines
      .filter((l) => /Scan|Aggregate|Sort|Hash Join|Nested Loop/.test(l))
      .map((l) => l.replace(/\s+\(cost=[^)]*\)/, '').replace(/\(actual time=[^)]*\)/, ''))
      .map((l) => l.trimEnd());
    out.push({
      label,
      reference,
      ms,
      scans,
      p50: quantile(times, 0.5),
      p95: quantile(times, 0.95),
    });
  }
  return out;
}

/** RSS of a process in MB, from /proc (Linux). */
function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Downloads an export while sampling the server's RSS: rows, MB, seconds, RSS growth. */
async function timeExport(session, path, pid) {
  global.gc?.();
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 10);
  const started = performance.now();
  const res = await session.fetch(path);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  let bytes = 0;
  let rows = -1; // the header line
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    bytes += chunk.length;
    rows += (decoder.decode(chunk, { stream: true }).match(/\r\n/g) ?? []).length;
  }
  clearInterval(timer);
  peak = Math.max(peak, rssMb(pid));
  return {
    rows,
    mb: bytes / 1e6,
    seconds: (performance.now() - started) / 1000,
    before,
    growth: peak - before,
  };
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

const loadAtStart = loadavg()[0];
ensureServerBuilt();
const database = await createDatabase(adminUrl, 'herald_analytics_bench');
const dataDir = mkdtempSync(join(tmpdir(), 'herald-analytics-bench-'));
const db = new pg.Pool({ connectionString: database.url, max: 2 });
const api = startHerald(
  'api',
  {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    DATABASE_URL: database.url,
    PORT: String(port),
    PUBLIC_URL: base,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    HERALD_DATA_DIR: dataDir,
  },
  'herald api',
);
let failed;
try {
  await waitReady(base, api);
  const session = await signIn(base, 'analytics-bench@example.com');
  const orgId = await createOrganization(session, 'Analytics bench');
  await connectSandboxAccount(session, 'x', orgId, 'analytics_bench_x');
  await connectSandboxAccount(session, 'threads', orgId, 'analytics_bench_threads');
  const seeded = await seed(db, orgId);
  console.log(
    `Seeded ${seeded.targets} published targets and ${seeded.snapshots} snapshots in ${fmt(seeded.seconds)} s.`,
  );

  const org = `/api/organizations/${orgId}`;
  const {
    rows: [{ firstAccount }],
  } = await db.query(
    'select id as "firstAccount" from integrations where organization_id = $1 order by id limit 1',
    [orgId],
  );
  const range = `from=${from90}&to=${to}`;
  const cases = [
    ['posts page (baseline)', `${org}/posts?page=1&pageSize=20`],
    ['analytics overview, 90 days', `${org}/analytics/overview?${range}`],
    [
      'overview, 90 days, one account',
      `${org}/analytics/overview?${range}&integrationIds=${firstAccount}`,
    ],
    ['best times, 90 days', `${org}/analytics/best-times?${range}`],
  ];
  console.log(`\nRequests (${requests} sequential each, ms):`);
  const measured = {};
  for (const [label, path] of cases) {
    const m = await timeRequests(session, path, requests);
    measured[label] = m;
    const baseline = measured['posts page (baseline)'].p95;
    console.log(
      `  ${label.padEnd(30)} p50 ${fmt(m.p50).padStart(7)}  p95 ${fmt(m.p95).padStart(7)}  ` +
        `(${fmt(m.p95 / baseline, 2)}× the posts page's p95)`,
    );
  }

  console.log(
    `\nThe overview's, best times' and export's queries (90 days; ${queryRuns} runs each through` +
      ' the driver, then EXPLAIN ANALYZE):',
  );
  const plans = await explain(db, await repositoryQueries(orgId), queryRuns);
  for (const p of plans) {
    console.log(
      `  ${p.label}: p50 ${fmt(p.p50)} ms, p95 ${fmt(p.p95)} ms; executed in ${fmt(p.ms, 2)} ms`,
    );
    for (const line of p.scans) console.log(`     ${line}`);
  }

  const small = await timeExport(
    session,
    `${org}/analytics/export.csv?from=${dayOf(new Date(today.getTime() - 35 * DAY_MS))}&to=${to}`,
    api.child.pid,
  );
  const big = await timeExport(
    session,
    `${org}/analytics/export.csv?from=${fromYear}&to=${to}`,
    api.child.pid,
  );
  console.log('\nCSV export (server RSS sampled every 10 ms while streaming):');
  for (const [label, e] of [
    ['about a tenth', small],
    ['everything', big],
  ])
    console.log(
      `  ${label.padEnd(15)} ${String(e.rows).padStart(6)} rows, ${fmt(e.mb)} MB in ${fmt(e.seconds, 2)} s; ` +
        `RSS ${fmt(e.before)} MB, grew ${fmt(e.growth)} MB`,
    );

  const overviewP95 = measured['analytics overview, 90 days'].p95;
  const bestP95 = measured['best times, 90 days'].p95;
  const verdicts = [
    [`overview p95 ${fmt(overviewP95)} ms < ${GOAL_P95_MS} ms`, overviewP95 < GOAL_P95_MS],
    [`best times p95 ${fmt(bestP95)} ms < ${GOAL_P95_MS} ms`, bestP95 < GOAL_P95_MS],
    ...plans
      .filter((p) => !p.reference)
      .map((p) => [
        `query "${p.label}" p95 ${fmt(p.p95)} ms < ${GOAL_P95_MS} ms`,
        p.p95 < GOAL_P95_MS,
      ]),
    [`export of ${big.rows} rows`, big.rows === seeded.targets],
    [
      `export memory flat: ${fmt(big.growth)} MB for ${big.rows} rows vs ${fmt(small.growth)} MB for ${small.rows}`,
      big.growth < Math.max(30, 3 * small.growth),
    ],
  ];
  console.log(
    `\nLoad average ${fmt(loadAtStart, 2)} at start, ${fmt(loadavg()[0], 2)} at the end.`,
  );
  for (const [text, ok] of verdicts) console.log(`  ${ok ? 'ok  ' : 'MISS'} ${text}`);
  failed = verdicts.some(([, ok]) => !ok);
} catch (err) {
  console.error(err, `\n${api.output().slice(-3000)}`);
  failed = true;
} finally {
  await api.stop();
  await db.end();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
  await embedded?.stop();
}
process.exitCode = failed ? 1 : 0;
