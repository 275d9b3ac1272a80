// CSV import benchmark: 1,000 rows imported through `POST …/posts/import` of a real
// `herald api` process on PostgreSQL, one row in ten with a media URL fetched from a loopback
// server (allowed through the test-only MEDIA_IMPORT_ALLOW_PRIVATE). Reports the time of the dry
// run and of the import, and the API process's peak resident memory above its idle level for a
// 200-row and a 1,000-row import: flat memory means the second is not five times the first.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/import.mjs
//
// IMPORT_ROWS (1000), BENCH_PORT (3213). Goal: 1,000 rows in under a minute.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  connectSandboxAccount,
  createDatabase,
  createOrganization,
  ensureServerBuilt,
  signIn,
  sleep,
  startHerald,
  waitReady,
} from './lib/herald.mjs';

let embedded;
if (!process.env.DATABASE_URL) {
  const { startEmbeddedPostgres } = await import('../apps/server/src/test/embedded-postgres.ts');
  embedded = await startEmbeddedPostgres();
}
const adminUrl = process.env.DATABASE_URL || embedded.url;
const rows = Number(process.env.IMPORT_ROWS ?? 1000);
const port = Number(process.env.BENCH_PORT ?? 3213);
const base = `http://127.0.0.1:${port}`;
const GOAL_MS = 60_000;

// A small PNG (1×1), served with its length.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const media = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
  res.end(png);
});
await new Promise((resolve) => media.listen(0, '127.0.0.1', resolve));
const mediaPort = media.address().port;

ensureServerBuilt();
const database = await createDatabase(adminUrl, 'herald_bench_import');
const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-import-'));
const api = startHerald(
  'api',
  {
    NODE_ENV: 'development',
    DATABASE_URL: database.url,
    PUBLIC_URL: base,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    HERALD_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${mediaPort}`,
  },
  'herald api',
);

/** Resident memory of the API process (Linux /proc), in MB. */
const rssMb = () => {
  const status = readFileSync(`/proc/${api.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};

function csvOf(count, offsetDays) {
  const lines = ['text,accounts,time,media_urls,title'];
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.now() + (offsetDays + 1) * 86_400_000 + i * 60_000).toISOString();
    const url = i % 10 === 0 ? `http://127.0.0.1:${mediaPort}/image-${i}.png` : '';
    lines.push(`"Imported post ${i + 1}, with a comma",x,${at},${url},Bench ${i + 1}`);
  }
  return `${lines.join('\n')}\n`;
}

async function measured(session, orgId, path, csv) {
  let peak = rssMb();
  const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
  const started = performance.now();
  const body = await session.json('POST', `/api/organizations/${orgId}/posts/${path}`, {
    csv,
    mode: 'schedule',
  });
  const ms = performance.now() - started;
  clearInterval(timer);
  return { ms, peak, body };
}

try {
  await waitReady(base, api);
  const session = await signIn(base, 'import-bench@example.com', 'Import Bench');
  const orgId = await createOrganization(session, 'Import bench');
  // The Pro trial allows 250 posts a day: the bench lifts it so 1,000 rows fit.
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query(
    `update plans set features = jsonb_set(features, '{postsPerDay}', '100000') where name = 'Pro'`,
  );
  await connectSandboxAccount(session, 'x', orgId, 'import_bench');

  // Warm-up (JIT, connection pool), then the idle level.
  await measured(session, orgId, 'import', csvOf(20, 0));
  await sleep(1000);
  const idle = rssMb();
  const small = await measured(session, orgId, 'import', csvOf(200, 10));
  await sleep(1000);
  const bigCsv = csvOf(rows, 20);
  const dry = await measured(session, orgId, 'import/dry-run', bigCsv);
  const big = await measured(session, orgId, 'import', bigCsv);
  const imported = big.body.data?.imported;
  const { rows: countRows } = await db.query('select count(*)::int as n from posts');
  await db.end();

  const growthSmall = Math.max(1, small.peak - idle);
  const growthBig = Math.max(1, big.peak - idle);
  console.log(`CSV import of ${rows} rows (${rows / 10} with a media URL):`);
  console.log(`  dry run       ${(dry.ms / 1000).toFixed(2)} s`);
  console.log(
    `  import        ${(big.ms / 1000).toFixed(2)} s, ${imported} imported, refused ${big.body.data?.refused.length}`,
  );
  console.log(`  200-row import ${(small.ms / 1000).toFixed(2)} s`);
  console.log(
    `  memory        idle ${idle.toFixed(0)} MB; peak +${growthSmall.toFixed(0)} MB at 200 rows, +${growthBig.toFixed(0)} MB at ${rows} rows (ratio ${(growthBig / growthSmall).toFixed(2)} for ${rows / 200}× the rows)`,
  );
  console.log(`  posts stored  ${countRows[0].n}`);
  const pass = big.ms < GOAL_MS && imported === rows;
  console.log(pass ? `PASS: under ${GOAL_MS / 1000} s` : 'FAIL');
  process.exitCode = pass ? 0 : 1;
} finally {
  await api.stop();
  media.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
  await embedded?.stop?.();
}
