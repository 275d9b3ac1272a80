// API benchmark. In one run and one process tree it measures, side by side:
//
//   - a bare Fastify hello (same Node, same Fastify) and Herald's GET /api/healthz;
//   - GET /api/auth/me signed in;
//   - GET /api/organizations/{id}/posts?page=1&pageSize=20 over an organization of 10,000 posts,
//     next to the raw `pg` cost of the same list + count SQL (and of every query the page ran
//     before, and of the two statements it runs now, also as one with a window count);
//   - the embedded default (PGlite): `herald start` on a fresh and on an existing data folder,
//     time to ready, and its posts page (200 posts) next to the same page on PostgreSQL;
//   - statements and round trips per request (counted by a relay in front of PostgreSQL);
//   - with BENCH_PROFILE=1, CPU profiles of the API (posts page, auth/me, healthz) and of the
//     embedded server (posts page) under load: where their time goes.
//
// The machine is shared and noisy: every figure is taken BENCH_ROUNDS times (2) and the ratios
// are computed within a round. The PostgreSQL half needs DATABASE_URL (an admin URL; the bench
// makes and drops a database of its own); without it only the embedded half runs.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
//
// BENCH_SECONDS (6) per measure, BENCH_POSTS (10000), BENCH_PORT (3210; uses the next three too);
// BENCH_KEEP_DB=1 leaves the bench's database in place (its name is printed) for EXPLAIN in psql.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { summarizeProfile } from './lib/cpu-profile.mjs';
import {
  connectSandboxAccount,
  createDatabase,
  createOrganization,
  ensureServerBuilt,
  inParallel,
  quantile,
  schedulePost,
  signIn,
  startHerald,
  waitReady,
} from './lib/herald.mjs';
import { startCountingProxy } from './lib/pg-count-proxy.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const bigOrgPosts = Number(process.env.BENCH_POSTS ?? 10_000);
const smallOrgPosts = 200;
const port = Number(process.env.BENCH_PORT ?? 3210);
const adminUrl = process.env.DATABASE_URL || '';
const profile = process.env.BENCH_PROFILE === '1';
const CONNECTIONS = 10;
/** The API's performance goals. */
const GOALS = {
  postsVsRaw: 0.7,
  postsP99Ms: 25,
  meVsHealthz: 0.5,
  healthzVsHello: 0.5,
  freshStartMs: 4000,
  existingStartMs: 2000,
  embeddedVsPostgres: 0.5,
  embeddedP99Ms: 50,
};

const temp = [];
const tempDir = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};
/** Run in order at the end: the processes first, then the database. */
const cleanups = [];
const lastCleanups = [];
const secret = randomBytes(32).toString('base64');
const heraldEnv = (extra) => ({
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_DISABLED: 'true',
  TOKEN_ENCRYPTION_KEY: secret,
  ...extra,
});

/** `herald start` on the embedded database in `dataDir`: milliseconds from spawn to ready. */
async function timeEmbeddedStart(dataDir, p) {
  const started = performance.now();
  const herald = startHerald(
    'start',
    heraldEnv({ PORT: String(p), PUBLIC_URL: `http://127.0.0.1:${p}`, HERALD_DATA_DIR: dataDir }),
    'herald start (embedded)',
  );
  try {
    await waitReady(`http://127.0.0.1:${p}`, herald, 120_000, 20);
    return performance.now() - started;
  } finally {
    await herald.stop();
  }
}

function startHello(p) {
  const child = spawn(process.execPath, [new URL('./lib/hello.mjs', import.meta.url).pathname, p], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });
  return once(child.stdout, 'data');
}

/** Signs in, makes an organization with an X sandbox account, schedules `count` posts. */
async function seedOrganization(base, email, count) {
  const session = await signIn(base, email);
  const orgId = await createOrganization(session, `Bench ${email}`);
  await connectSandboxAccount(session, 'x', orgId, email.replace(/\W/g, '_'));
  const supported = await session.json('GET', '/api/platforms/supported');
  const xId = supported.data.platforms.find((p) => p.name === 'X').id;
  // A year ahead: nothing of the bench is due while it runs.
  const later = new Date(Date.now() + 365 * 86_400_000);
  await inParallel(count, 4, (i) =>
    schedulePost(session, orgId, xId, `Bench post ${i + 1} #herald https://example.com`, later),
  );
  return { session, orgId, cookie: session.header() };
}

/**
 * Copies the organization's newest post (and its target) until it holds `total` posts, each copy
 * a second older than the last: the shape the API made, in the numbers a busy organization has.
 */
async function growOrganization(db, orgId, total) {
  const columns = async (table, skip) =>
    (
      await db.query(
        `select column_name from information_schema.columns
          where table_schema = 'public' and table_name = $1 order by ordinal_position`,
        [table],
      )
    ).rows
      .map((r) => `"${r.column_name}"`)
      .filter((c) => !skip.includes(c));
  const postCols = await columns('posts', ['"id"', '"created_at"']);
  const targetCols = await columns('post_targets', ['"id"', '"post_id"', '"job_id"']);
  const {
    rows: [{ n, model }],
  } = await db.query(
    `select count(*)::int as n,
            (select id from posts where organization_id = $1 order by created_at desc limit 1) as model
       from posts where organization_id = $1`,
    [orgId],
  );
  const missing = total - n;
  for (let done = 0; done < missing; done += 2000) {
    const batch = Math.min(2000, missing - done);
    await db.query(
      `with copies as (
         insert into posts (id, created_at, ${postCols.join(', ')})
         select gen_random_uuid(), p.created_at - (g + $3) * interval '1 second', ${postCols.map((c) => `p.${c}`).join(', ')}
           from posts p, generate_series(1, $2::int) g where p.id = $1
         returning id)
       insert into post_targets (id, post_id, ${targetCols.join(', ')})
       select gen_random_uuid(), c.id, ${targetCols.map((c) => `t.${c}`).join(', ')}
         from copies c, post_targets t where t.post_id = $1`,
      [model, batch, done],
    );
  }
  await db.query('analyze posts; analyze post_targets');
}

const measureHttp = (url, headers = {}) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: seconds, headers }, (err, r) => {
      if (err) return reject(err);
      const failed = r.errors + r.non2xx + r.timeouts;
      if (failed > r.requests.total / 100)
        return reject(new Error(`${url}: ${failed} of ${r.requests.total} requests failed`));
      resolve({ rps: r.requests.average, p99: r.latency.p99 });
    }),
  );

/** `step()` run by CONNECTIONS loops for the bench's duration: requests/second and p99. */
async function measureLoop(step) {
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await step();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { rps: latencies.length / seconds, p99: Math.round(quantile(latencies, 0.99)) };
}

/** The posts page's SQL as the repository sends it (drizzle's text, parameters bound). */
const POST_COLUMNS = `"id", "organization_id", "created_by_user_id", "title", "status", "content",
  "content_by_platform", "scheduled_at", "published_at", "created_at", "updated_at"`;
const rawListAndCount = (db, orgId) =>
  Promise.all([
    db.query({
      name: 'bench-list',
      text: `select ${POST_COLUMNS} from "posts" where "posts"."organization_id" = $1
              order by "posts"."created_at" desc, "posts"."id" desc limit $2 offset $3`,
      values: [orgId, 20, 0],
    }),
    db.query({
      name: 'bench-count',
      text: 'select count(*) from "posts" where "posts"."organization_id" = $1',
      values: [orgId],
    }),
  ]);
/** What the page read beside the list before it took its relations as JSON: targets, media, creators. */
async function rawRelations(db, orgId, ids) {
  await Promise.all([
    db.query({
      name: 'bench-targets',
      text: `select t.*, p.name, i.name, i.username, i.picture_url, i.status
               from post_targets t join platforms p on p.id = t.platform_id
               left join integrations i on i.id = t.integration_id
              where t.organization_id = $1 and t.post_id = any($2::uuid[])
              order by p.name, t.account_name, t.created_at`,
      values: [orgId, ids],
    }),
    db.query({
      name: 'bench-media',
      text: `select * from post_media where organization_id = $1 and post_id = any($2::uuid[])
              order by post_id, position`,
      values: [orgId, ids],
    }),
    db.query({
      name: 'bench-creators',
      text: `select p.id, u.id, u.display_name from posts p join users u on u.id = p.created_by_user_id
              where p.organization_id = $1 and p.id = any($2::uuid[])`,
      values: [orgId, ids],
    }),
  ]);
}

/**
 * The page's SQL since it reads the relations with the list (posts.repository.ts): the list with
 * each post's targets and files as JSON aggregates of rows, and the count, run together. (The
 * targets' network and account names now come from a cache, target-names.ts, as do the
 * creators' names, creator-names.ts; Herald sorts the aggregates.)
 */
const PAGE_WITH_RELATIONS = `select ${POST_COLUMNS},
  coalesce((select json_agg(t)
    from (select pt.id, pt.platform_id as "platformId", pt.integration_id as "integrationId",
        pt.account_name as "accountName", pt.account_username as "accountUsername",
        pt.status, pt.external_id as "externalId", pt.permalink, pt.error,
        pt.published_at as "publishedAt", pt.due_at as "dueAt", pt.settings,
        pt.created_at as "createdAt"
      from post_targets pt
      where pt.post_id = "posts"."id" and pt.organization_id = "posts"."organization_id") t),
    '[]'::json),
  coalesce((select json_agg(m)
    from (select pm.id, pm.storage_key as "storageKey", pm.thumbnail_key as "thumbnailKey",
        pm.file_name as "fileName", pm.mime_type as "mimeType", pm.kind, pm.size, pm.width,
        pm.height, pm.duration_sec as "durationSec", pm.platform_ids as "platformIds",
        pm.alt_text as "altText", pm.position
      from post_media pm
      where pm.post_id = "posts"."id" and pm.organization_id = "posts"."organization_id") m),
    '[]'::json)
  from "posts" where "posts"."organization_id" = $1
  order by "posts"."created_at" desc, "posts"."id" desc limit $2 offset $3`;
const rawPageWithRelations = (db, orgId) =>
  Promise.all([
    db.query({ name: 'bench-page-json', text: PAGE_WITH_RELATIONS, values: [orgId, 20, 0] }),
    db.query({
      name: 'bench-count',
      text: 'select count(*) from "posts" where "posts"."organization_id" = $1',
      values: [orgId],
    }),
  ]);
/** The same in one statement, the total as a window over the matching rows (measured, not used). */
const rawPageWindowCount = (db, orgId) =>
  db.query({
    name: 'bench-page-window',
    text: `with page as (
             select p.*, count(*) over () as total from "posts" p where p.organization_id = $1
              order by p.created_at desc, p.id desc limit $2 offset $3)
           ${PAGE_WITH_RELATIONS.replace(
             /from "posts" where[^]*$/,
             ', "posts".total from page "posts" order by "posts"."created_at" desc, "posts"."id" desc',
           )}`,
    values: [orgId, 20, 0],
  });

/** Statements and round trips one request costs, through a counting relay (steady state). */
async function countQueries(database, cases) {
  const url = new URL(database.url);
  const proxy = await startCountingProxy(url.hostname, Number(url.port || 5432));
  url.host = `127.0.0.1:${proxy.port}`;
  const p = port + 3;
  const api = startHerald(
    'api',
    heraldEnv({
      DATABASE_URL: url.toString(),
      PORT: String(p),
      PUBLIC_URL: `http://127.0.0.1:${p}`,
    }),
    'herald api (counted)',
  );
  const counts = [];
  try {
    await waitReady(`http://127.0.0.1:${p}`, api);
    for (const [label, path, headers] of cases) {
      // Warm: first requests may fill caches; the steady state is what load sees.
      for (let i = 0; i < 3; i++)
        await (await fetch(`http://127.0.0.1:${p}${path}`, { headers })).arrayBuffer();
      proxy.reset();
      const n = 20;
      for (let i = 0; i < n; i++) {
        const res = await fetch(`http://127.0.0.1:${p}${path}`, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${path}: ${res.status}`);
      }
      counts.push({
        label,
        statements: proxy.counts.statements / n,
        roundTrips: proxy.counts.roundTrips / n,
      });
    }
  } finally {
    await api.stop();
    await proxy.close();
  }
  return counts;
}

/**
 * A CPU profile of Herald while each case is under load; where each one's time went. `role` is
 * `api` on PostgreSQL, or `start` on the embedded data folder (whose server is stopped first).
 */
async function profileHerald(role, env, cases) {
  const dir = tempDir('herald-bench-prof-');
  const p = port + 3;
  const server = startHerald(
    role,
    heraldEnv({ ...env, PORT: String(p), PUBLIC_URL: `http://127.0.0.1:${p}` }),
    `herald ${role} (profiled)`,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  );
  const windows = [];
  try {
    await waitReady(`http://127.0.0.1:${p}`, server);
    for (const [label, path, headers] of cases) {
      const from = Number(process.hrtime.bigint() / 1000n);
      const r = await measureHttp(`http://127.0.0.1:${p}${path}`, headers);
      windows.push({ label, from, to: Number(process.hrtime.bigint() / 1000n), ...r });
    }
  } finally {
    await server.stop();
  }
  const file = join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.cpuprofile')),
  );
  return windows.map((w) => ({ ...w, summary: summarizeProfile(file, w.from, w.to) }));
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const line = (label, r) =>
  `  ${label.padEnd(58)} ${fmt(r.rps).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
  ensureServerBuilt();
  console.log(
    `Load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  // 1. Embedded start, before anything else loads the machine.
  const starts = { fresh: [], existing: [] };
  let embeddedDir;
  for (let r = 0; r < rounds; r++) {
    embeddedDir = tempDir('herald-bench-data-');
    starts.fresh.push(await timeEmbeddedStart(embeddedDir, port + 1));
    starts.existing.push(await timeEmbeddedStart(embeddedDir, port + 1));
  }
  console.log('\nEmbedded start (herald start, PGlite), spawn → /api/readyz answers:');
  console.log(`  fresh data folder     ${starts.fresh.map((ms) => `${fmt(ms)} ms`).join(', ')}`);
  console.log(`  existing data folder  ${starts.existing.map((ms) => `${fmt(ms)} ms`).join(', ')}`);

  // 2. The servers: bare Fastify, Herald on PostgreSQL, Herald embedded.
  await startHello(port + 2);
  const embeddedBase = `http://127.0.0.1:${port + 1}`;
  const embedded = startHerald(
    'start',
    heraldEnv({ PORT: String(port + 1), PUBLIC_URL: embeddedBase, HERALD_DATA_DIR: embeddedDir }),
    'herald start (embedded)',
  );
  cleanups.push(() => embedded.stop());
  let database = null;
  let db = null;
  let pgHerald = null;
  const pgBase = `http://127.0.0.1:${port}`;
  if (adminUrl) {
    database = await createDatabase(adminUrl);
    db = new pg.Pool({ connectionString: database.url, max: CONNECTIONS });
    lastCleanups.push(
      () => db.end(),
      () => database.drop(),
    );
    pgHerald = startHerald(
      'start',
      heraldEnv({
        DATABASE_URL: database.url,
        PORT: String(port),
        PUBLIC_URL: pgBase,
        HERALD_DATA_DIR: tempDir('herald-bench-pg-'),
      }),
      'herald start (PostgreSQL)',
    );
    cleanups.push(() => pgHerald.stop());
    await waitReady(pgBase, pgHerald);
  }
  await waitReady(embeddedBase, embedded);

  // 3. Data.
  const seededAt = performance.now();
  const embeddedOrg = await seedOrganization(
    embeddedBase,
    'bench-embedded@example.com',
    smallOrgPosts,
  );
  let bigOrg = null;
  let smallOrg = null;
  if (database) {
    bigOrg = await seedOrganization(pgBase, 'bench-big@example.com', 20);
    await growOrganization(db, bigOrg.orgId, bigOrgPosts);
    smallOrg = await seedOrganization(pgBase, 'bench-small@example.com', smallOrgPosts);
  }
  if (db) {
    // The seeding wrote ~30,000 rows: PostgreSQL's own after-work (autovacuum of the grown tables,
    // the checkpoint of what they wrote) is done now, not during the first round's measures.
    await db.query('vacuum (analyze)');
    await db.query('checkpoint');
  }
  console.log(`\nSeeded in ${fmt((performance.now() - seededAt) / 1000, 1)} s.`);

  const page = (orgId) => `/api/organizations/${orgId}/posts?page=1&pageSize=20`;
  // Each measure runs with the other Herald paused (SIGSTOP): both are whole `herald start`
  // servers, and the idle one's background work (pg-boss polling its queues, PGlite in the
  // embedded one) took CPU from the two cores the measured one shares with the load generator.
  // Both used to run throughout every measure.
  const heralds = [embedded, pgHerald].filter(Boolean);
  // A server let go again runs its overdue timers at once (every worker polls): the next measure
  // waits a moment for that to pass.
  const alone = async (active, measure) => {
    const paused = heralds.filter((h) => h !== active && h.child.exitCode === null);
    for (const h of paused) h.child.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      return await measure();
    } finally {
      for (const h of paused) h.child.kill('SIGCONT');
    }
  };
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const m = {};
    m.hello = await alone(null, () => measureHttp(`http://127.0.0.1:${port + 2}/hello`));
    const herald = database ? pgBase : embeddedBase;
    const measured = database ? pgHerald : embedded;
    const meCookie = database ? bigOrg.cookie : embeddedOrg.cookie;
    m.healthz = await alone(measured, () => measureHttp(`${herald}/api/healthz`));
    m.me = await alone(measured, () => measureHttp(`${herald}/api/auth/me`, { cookie: meCookie }));
    if (database) {
      m.posts = await alone(pgHerald, () =>
        measureHttp(`${pgBase}${page(bigOrg.orgId)}`, { cookie: bigOrg.cookie }),
      );
      m.raw = await alone(null, () => measureLoop(() => rawListAndCount(db, bigOrg.orgId)));
      m.rawPage = await alone(null, () =>
        measureLoop(async () => {
          const [list] = await rawListAndCount(db, bigOrg.orgId);
          await rawRelations(
            db,
            bigOrg.orgId,
            list.rows.map((row) => row.id),
          );
        }),
      );
      m.rawJson = await alone(null, () =>
        measureLoop(() => rawPageWithRelations(db, bigOrg.orgId)),
      );
      m.rawWindow = await alone(null, () =>
        measureLoop(() => rawPageWindowCount(db, bigOrg.orgId)),
      );
      m.pgSmall = await alone(pgHerald, () =>
        measureHttp(`${pgBase}${page(smallOrg.orgId)}`, { cookie: smallOrg.cookie }),
      );
    }
    m.embedded = await alone(embedded, () =>
      measureHttp(`${embeddedBase}${page(embeddedOrg.orgId)}`, { cookie: embeddedOrg.cookie }),
    );
    results.push(m);

    console.log(
      `\nRound ${r + 1} of ${rounds} (${seconds} s each, ${CONNECTIONS} connections; load ${loadavg()[0].toFixed(1)}):`,
    );
    console.log(line('bare Fastify hello', m.hello));
    console.log(
      `${line(`GET /api/healthz (${database ? 'PostgreSQL' : 'embedded'})`, m.healthz)}   ${(m.healthz.rps / m.hello.rps).toFixed(2)}× hello`,
    );
    console.log(
      `${line('GET /api/auth/me signed in', m.me)}   ${(m.me.rps / m.healthz.rps).toFixed(2)}× healthz`,
    );
    if (database) {
      console.log(line(`raw pg: list + count SQL (${fmt(bigOrgPosts)} posts)`, m.raw));
      console.log(line('raw pg: every query of the page (+ targets, media, creators)', m.rawPage));
      console.log(line('raw pg: list with JSON relations + count (the page now)', m.rawJson));
      console.log(line('raw pg: the same, total as count(*) over () (one statement)', m.rawWindow));
      console.log(
        `${line(`GET posts page 1 × 20 (${fmt(bigOrgPosts)} posts, PostgreSQL)`, m.posts)}   ${(m.posts.rps / m.raw.rps).toFixed(2)}× raw list + count, ${(m.posts.rps / m.rawPage.rps).toFixed(2)}× raw 5-statement page, ${(m.posts.rps / m.rawJson.rps).toFixed(2)}× raw JSON page`,
      );
      console.log(line(`GET posts page 1 × 20 (${smallOrgPosts} posts, PostgreSQL)`, m.pgSmall));
    }
    console.log(
      `${line(`GET posts page 1 × 20 (${smallOrgPosts} posts, embedded)`, m.embedded)}${database ? `   ${(m.embedded.rps / m.pgSmall.rps).toFixed(2)}× PostgreSQL` : ''}`,
    );
  }

  if (database) {
    const counted = await countQueries(database, [
      ['GET /api/healthz', '/api/healthz', {}],
      ['GET /api/auth/me', '/api/auth/me', { cookie: bigOrg.cookie }],
      ['GET posts page 1 × 20', page(bigOrg.orgId), { cookie: bigOrg.cookie }],
    ]);
    console.log('\nPer request, steady state (counted between Herald and PostgreSQL):');
    for (const c of counted)
      console.log(
        `  ${c.label.padEnd(24)} ${fmt(c.statements, 1)} statements, ${fmt(c.roundTrips, 1)} round trips`,
      );
  }

  if (profile) {
    const profiled = [];
    if (database) {
      profiled.push(
        ...(await profileHerald('api', { DATABASE_URL: database.url }, [
          ['GET posts page 1 × 20', page(bigOrg.orgId), { cookie: bigOrg.cookie }],
          ['GET /api/auth/me', '/api/auth/me', { cookie: bigOrg.cookie }],
          ['GET /api/healthz', '/api/healthz', {}],
        ])),
      );
    }
    // The embedded server holds its data folder: it stops, and a profiled one opens the folder.
    await embedded.stop();
    profiled.push(
      ...(await profileHerald('start', { HERALD_DATA_DIR: embeddedDir }, [
        [
          'GET posts page 1 × 20 (embedded)',
          page(embeddedOrg.orgId),
          { cookie: embeddedOrg.cookie },
        ],
      ])),
    );
    for (const w of profiled) {
      console.log(
        `\nCPU profile of Herald under ${w.label} (${fmt(w.rps)} req/s while profiled; ${fmt(w.summary.busyMs / (w.rps * seconds), 2)} ms CPU per request):`,
      );
      for (const b of w.summary.buckets)
        console.log(`  ${(b.share * 100).toFixed(1).padStart(5)}%  ${b.name}`);
      console.log('  heaviest functions (self time):');
      for (const f of w.summary.functions)
        console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}`);
    }
  }

  // Verdict on the medians of the rounds' ratios.
  const ratio = (a, b) => median(results.map((m) => m[a].rps / m[b].rps));
  const checks = [
    [
      `healthz ${ratio('healthz', 'hello').toFixed(2)}× hello`,
      ratio('healthz', 'hello') >= GOALS.healthzVsHello,
    ],
    [
      `auth/me ${ratio('me', 'healthz').toFixed(2)}× healthz`,
      ratio('me', 'healthz') >= GOALS.meVsHealthz,
    ],
    [`fresh start ${fmt(median(starts.fresh))} ms`, median(starts.fresh) <= GOALS.freshStartMs],
    [
      `existing start ${fmt(median(starts.existing))} ms`,
      median(starts.existing) <= GOALS.existingStartMs,
    ],
    [
      `embedded posts p99 ${median(results.map((m) => m.embedded.p99))} ms`,
      median(results.map((m) => m.embedded.p99)) <= GOALS.embeddedP99Ms,
    ],
  ];
  if (database) {
    const postsP99 = median(results.map((m) => m.posts.p99));
    checks.push(
      [
        `posts ${ratio('posts', 'raw').toFixed(2)}× raw SQL`,
        ratio('posts', 'raw') >= GOALS.postsVsRaw,
      ],
      [`posts p99 ${postsP99} ms`, postsP99 <= GOALS.postsP99Ms],
      [
        `embedded posts ${ratio('embedded', 'pgSmall').toFixed(2)}× PostgreSQL`,
        ratio('embedded', 'pgSmall') >= GOALS.embeddedVsPostgres,
      ],
    );
  }
  const failed = checks.filter(([, ok]) => !ok);
  console.log(
    `\nVerdict: ${failed.length === 0 ? 'every goal met' : `${checks.length - failed.length} of ${checks.length} goals met`} — ${checks.map(([text, ok]) => `${text} ${ok ? '✓' : '✗'}`).join('; ')}`,
  );
} finally {
  for (const cleanup of [...cleanups, ...lastCleanups])
    await cleanup().catch((err) => console.error(err));
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
}
