// API benchmark: starts the built all-in-one server on a fresh embedded database and measures
// requests/second of a few endpoints with autocannon, reported as ratios to /api/healthz
// measured in the same run (the machine is shared and noisy; absolute numbers mean little).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.BENCH_PORT ?? 3210);
const base = `http://localhost:${port}`;
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-'));

const server = spawn(process.execPath, [join(root, 'apps/server/bin/herald.mjs'), 'start'], {
  env: {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: base,
    HERALD_DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitReady() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/api/readyz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not become ready');
}

/** Signs in through the development provider as a browser would; returns the Cookie header. */
async function signIn(email) {
  const jar = new Map();
  const keep = (res) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...rest] = pair.split('=');
      jar.set(name.trim(), rest.join('='));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = `${base}/api/auth/google`;
  for (let i = 0; i < 12; i++) {
    let res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    keep(res);
    if (res.status === 200) {
      const action = /action="([^"]+)"/.exec(await res.text())[1];
      res = await fetch(new URL(action, base), {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: cookie(),
          origin: base,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ email, name: 'Bench' }),
      });
      keep(res);
    }
    const next = res.headers.get('location');
    if (!next) throw new Error(`sign-in stopped with ${res.status}`);
    url = new URL(next, base).href;
    if (!url.startsWith(`${base}/api/`)) return cookie();
  }
  throw new Error('sign-in did not finish');
}

const measure = (path, headers = {}) =>
  new Promise((resolve, reject) =>
    autocannon({ url: `${base}${path}`, connections: 10, duration, headers }, (err, r) =>
      err ? reject(err) : resolve(r),
    ),
  );

try {
  await waitReady();
  const cookie = await signIn('bench@example.com');
  const cases = [
    ['GET /api/healthz (baseline)', '/api/healthz', {}],
    ['GET /api/readyz (one database round trip)', '/api/readyz', {}],
    ['GET /api/auth/me signed out (401)', '/api/auth/me', {}],
    ['GET /api/auth/me signed in', '/api/auth/me', { cookie }],
  ];
  const rows = [];
  for (const [label, path, headers] of cases) {
    const r = await measure(path, headers);
    rows.push({ label, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx });
  }
  const baseline = rows[0].rps;
  console.log(`\nAPI benchmark (${duration}s each, 10 connections, embedded database)`);
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  ratio ${(r.rps / baseline).toFixed(2)}  p99 ${r.p99} ms${r.errors ? `  non-2xx ${r.errors}` : ''}`,
    );
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
