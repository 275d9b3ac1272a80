// Helpers for benchmarks that drive real Herald processes (the built CLI) over HTTP: building the
// server when its bundle is stale, a throw-away PostgreSQL database, starting `herald <role>`, and
// the few API flows a benchmark needs (development sign-in, an organization on a trial, a
// sandbox account connected through the network's consent step, scheduling posts).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const serverDir = join(root, 'apps/server');
export const cliPath = join(serverDir, 'dist/cli.js');

/** When a file was last modified (0 when it does not exist). */
function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestSourceMtime() {
  let newest = 0;
  for (const dir of [join(serverDir, 'src'), join(root, 'packages/contract/src')]) {
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (/\.(ts|json|sql)$/.test(entry)) newest = Math.max(newest, mtimeOf(join(dir, entry)));
    }
  }
  for (const file of ['package.json', 'scripts/build.mjs'])
    newest = Math.max(newest, mtimeOf(join(serverDir, file)));
  return newest;
}

/** Runs the server's build script when dist/cli.js is missing or older than its sources. */
export function ensureServerBuilt() {
  if (mtimeOf(cliPath) > newestSourceMtime()) return;
  const build = spawnSync(process.execPath, [join(serverDir, 'scripts/build.mjs')], {
    cwd: serverDir,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building the server failed');
}

/** A new, empty database next to the one `adminUrl` names; `drop()` removes it. */
export async function createDatabase(adminUrl, prefix = 'herald_bench') {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      // BENCH_KEEP_DB=1 leaves it for a look with psql (EXPLAIN ANALYZE of what was measured).
      if (process.env.BENCH_KEEP_DB === '1') {
        console.log(`kept database ${name}`);
        return;
      }
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Starts `herald <role>` from the built CLI with exactly `env` (plus PATH and HOME). Its output is
 * kept (the last 20 kB) for when something goes wrong. `stop()` sends SIGTERM and waits.
 * `nodeArgs` go to Node before the script (`--cpu-prof`, say).
 */
export function startHerald(role, env, label = role, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, cliPath, role], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let output = '';
  const keep = (chunk) => {
    output = `${output}${chunk}`.slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit');
  return {
    label,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Polls `{base}/api/readyz` every `everyMs` until it answers 200. */
export async function waitReady(base, process, timeoutMs = 60_000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process && (process.child.exitCode !== null || process.child.signalCode !== null))
      throw new Error(`${process.label} exited:\n${process.output()}`);
    try {
      if ((await fetch(`${base}/api/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${base} did not become ready`);
}

/** A browser's cookies for one site, enough for Herald's own redirects. */
class Session {
  constructor(base) {
    this.base = base;
    this.cookies = new Map();
  }
  keep(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  /** A request with the session's cookies (and a same-site Origin), redirects not followed. */
  async fetch(url, init = {}) {
    const res = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { cookie: this.header(), origin: this.base, ...(init.headers ?? {}) },
    });
    this.keep(res);
    return res;
  }
  async json(method, path, body) {
    const res = await this.fetch(path, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
}

/** Signs in through the development identity provider, as a browser would. */
export async function signIn(base, email, name = 'Bench') {
  const session = new Session(base);
  let url = `${base}/api/auth/google`;
  for (let i = 0; i < 12; i++) {
    let res = await session.fetch(url);
    if (res.status === 200) {
      const action = /action="([^"]+)"/.exec(await res.text())?.[1];
      if (!action) throw new Error('no sign-in form');
      res = await session.fetch(new URL(action.replace(/&amp;/g, '&'), url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, name }),
      });
    } else {
      await res.arrayBuffer();
    }
    const next = res.headers.get('location');
    if (!next) throw new Error(`sign-in stopped with ${res.status}`);
    url = new URL(next, url).href;
    if (!url.startsWith(`${base}/api/`)) return session;
  }
  throw new Error('sign-in did not finish');
}

/** Creates an organization on a trial of `plan` (inviting and posting need a subscription). */
export async function createOrganization(session, name, plan = 'Pro') {
  const created = await session.json('POST', '/api/organizations', { name });
  const orgId = created.data.organization.id;
  const plans = await session.json('GET', '/api/plans');
  const planId = plans.data.plans.find((p) => p.name === plan).id;
  await session.json('POST', `/api/organizations/${orgId}/subscribe/trial`, { planId });
  return orgId;
}

/**
 * Connects a sandbox account to the organization through Herald's connect flow, the sandbox's
 * consent step approving at once as `account` (`emu_auto`).
 */
export async function connectSandboxAccount(session, slug, orgId, account) {
  let res = await session.fetch(`/api/auth/${slug}?orgId=${orgId}`);
  const authorize = new URL(res.headers.get('location'));
  authorize.searchParams.set('emu_auto', '1');
  authorize.searchParams.set('emu_account', account);
  res = await session.fetch(authorize.href);
  const callback = res.headers.get('location');
  if (!callback) throw new Error(`consent: ${res.status} ${await res.text()}`);
  res = await session.fetch(callback);
  const landed = res.headers.get('location') ?? '';
  // Networks whose sign-in offers several accounts (Facebook's pages) land on the picker: the
  // first account offered is chosen, as a person would choose one.
  const pick = new URL(landed, session.base).searchParams.get('pick');
  if (pick) {
    const pending = `/api/organizations/${orgId}/integrations/pending/${pick}`;
    const offered = await session.json('GET', pending);
    const first = offered.data.accounts.find((a) => !a.unavailableReason);
    if (!first) throw new Error(`connect ${slug}: the sign-in offered no account`);
    await session.json('POST', pending, { externalIds: [first.externalId] });
    return;
  }
  if (!landed.includes('connected')) throw new Error(`connect ${slug}: ${res.status} ${landed}`);
}

/**
 * POST or GET on a network sandbox's test-facing endpoints (`/_emu/…`), as the signed-in
 * `session` (the server refuses anonymous callers there).
 */
export async function emu(session, slug, path, body) {
  return session.json(
    body === undefined ? 'GET' : 'POST',
    `/api/sandbox/${slug}/_emu/${path}`,
    body,
  );
}

/** Schedules a text post (multipart, as the web app sends it); returns its id. */
export async function schedulePost(session, orgId, platformId, content, scheduledAt) {
  const form = new FormData();
  form.set('platformIds', JSON.stringify([platformId]));
  form.set('content', content);
  form.set('scheduledAt', scheduledAt.toISOString());
  const res = await session.fetch(`/api/organizations/${orgId}/post`, {
    method: 'POST',
    body: form,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`create post: ${res.status} ${text}`);
  return JSON.parse(text).data.post.id;
}

/** Runs `task(i)` for i in 0…count-1, `width` at a time. */
export async function inParallel(count, width, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The q-quantile (0…1) of numbers, nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * The PostgreSQL server a bench runs on: DATABASE_URL, or else a throwaway embedded one (the test
 * support's, loaded as TypeScript: Node 22.18+ or 24), which the bench stops with `embedded.stop()`.
 */
export async function benchPostgres() {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, embedded: undefined };
  const { startEmbeddedPostgres } = await import('../../apps/server/src/test/embedded-postgres.ts');
  const embedded = await startEmbeddedPostgres();
  console.log('DATABASE_URL is unset: running on a throwaway embedded PostgreSQL.');
  return { adminUrl: embedded.url, embedded };
}
