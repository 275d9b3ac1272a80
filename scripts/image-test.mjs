#!/usr/bin/env node
// The Docker image, end to end: builds it (on a local Debian base made by
// scripts/build-base-image.sh, or on BASE_IMAGE when set), then runs it as a self-hoster does
// against the local PostgreSQL — `migrate`, then `api` and `worker` containers — signs in, connects
// a sandbox X account, publishes a post and waits for it to be PUBLISHED; `start` serves the web
// app; `docker stop` ends the processes cleanly. Prints `image: N passed, M failed`.
//
//   node scripts/image-test.mjs
//
// Containers use the host's network only (`--network host`): the Docker daemon this script starts
// when none runs has no bridge, and no container gets an address of its own. The processes
// listen on 127.0.0.1. DATABASE_URL names the PostgreSQL server (default
// postgres://postgres@127.0.0.1:5432/postgres); the test makes its own database there and drops it.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const image = process.env.HERALD_IMAGE ?? 'herald:image-test';
const localBase = 'herald-base:bookworm';
const baseImage = process.env.BASE_IMAGE ?? localBase;
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = randomBytes(4).toString('hex');
const database = `herald_image_test_${runId}`;
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).href;
/** Every container this run started, removed at the end whatever happened. */
const containers = [];
const startedAt = Date.now();

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs a command to its end; its output is returned, not shown. */
function run(command, args, options = {}) {
  const res = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (res.error) throw res.error;
  return { code: res.status, output: `${res.stdout ?? ''}${res.stderr ?? ''}` };
}

function mustRun(what, command, args, options) {
  const res = run(command, args, options);
  if (res.code !== 0) throw new Error(`${what} failed (exit ${res.code}):\n${tail(res.output)}`);
  return res.output;
}

const tail = (text, lines = 30) => text.trimEnd().split('\n').slice(-lines).join('\n');

// ---- Docker ----

function dockerAnswers() {
  return run('docker', ['info', '--format', '{{.ServerVersion}}']).code === 0;
}

/**
 * A Docker daemon without the default bridge network, iptables rules or IP forwarding: the
 * containers of this test share the host's network and nothing else is needed.
 */
async function ensureDocker() {
  if (dockerAnswers()) return;
  const log = join(tmpdir(), 'herald-dockerd.log');
  const fd = openSync(log, 'a');
  const daemon = spawn('dockerd', ['--bridge=none', '--iptables=false', '--ip-forward=false'], {
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  daemon.unref();
  closeSync(fd);
  for (let i = 0; i < 60; i++) {
    if (dockerAnswers()) {
      console.log(`Started dockerd (pid ${daemon.pid}, log ${log}); it keeps running.`);
      return;
    }
    await sleep(500);
  }
  throw new Error(`dockerd did not answer within 30 s:\n${tail(readFileSync(log, 'utf8'))}`);
}

/** The certificates of CAs this machine added (a TLS-inspecting proxy's), for the build. */
function extraCaCerts() {
  const file = process.env.HERALD_BUILD_CA_FILE;
  if (file) return readFileSync(file, 'utf8');
  const dir = '/usr/local/share/ca-certificates';
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.crt'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
}

function buildImage() {
  if (baseImage === localBase) {
    console.log(mustRun('the base image', join(root, 'scripts/build-base-image.sh'), [localBase]));
  }
  const previous = docker(['image', 'inspect', image, '--format', '{{.Id}}']).output.trim();
  const began = Date.now();
  const log = join(tmpdir(), 'herald-image-build.log');
  const fd = openSync(log, 'w');
  const args = ['build', '--force-rm', '--network', 'host', '--tag', image];
  args.push('--build-arg', `BASE_IMAGE=${baseImage}`);
  args.push('--build-arg', `EXTRA_CA_CERTS=${extraCaCerts()}`, '.');
  const res = spawnSync('docker', args, { cwd: root, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (res.status !== 0)
    throw new Error(`docker build failed (log: ${log}):\n${tail(readFileSync(log, 'utf8'))}`);
  // The image this tag named before, now untagged: its own layers would only take up the disk.
  const current = docker(['image', 'inspect', image, '--format', '{{.Id}}']).output.trim();
  if (previous.startsWith('sha256:') && previous !== current) docker(['rmi', previous]);
  const size = run('docker', ['image', 'inspect', image, '--format', '{{.Size}}']).output.trim();
  return `on ${baseImage} in ${seconds(began)}, ${Math.round(Number(size) / 1e6)} MB (log: ${log})`;
}

function docker(args) {
  return run('docker', args);
}

/** A detached container on the host's network, recorded for removal at the end. */
function startContainer(name, command, env, extra = []) {
  const full = `herald-image-test-${runId}-${name}`;
  const res = docker([
    'run',
    '--detach',
    '--name',
    full,
    '--network',
    'host',
    ...envArgs(env),
    ...extra,
    image,
    command,
  ]);
  if (res.code !== 0) throw new Error(`docker run ${command}: ${res.output}`);
  containers.push(full);
  return full;
}

const envArgs = (env) => Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
const logsOf = (name) => docker(['logs', '--tail', '60', name]).output;
const inspect = (name, format) => docker(['inspect', '--format', format, name]).output.trim();

/**
 * `docker compose config` on compose.yaml with .env.example's settings (its empty secrets given
 * placeholder values): every service, interpolation and dependency must resolve. The file
 * itself is not run here: its images come from a registry.
 */
function checkCompose() {
  const compose =
    run('docker', ['compose', 'version']).code === 0
      ? ['docker', 'compose']
      : run('docker-compose', ['version']).code === 0
        ? ['docker-compose']
        : null;
  if (!compose) throw new Error('Neither `docker compose` nor `docker-compose` is installed.');
  const dir = mkdtempSync(join(tmpdir(), 'herald-compose-'));
  try {
    copyFileSync(join(root, 'compose.yaml'), join(dir, 'compose.yaml'));
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    writeFileSync(join(dir, '.env'), example.replace(/^(\w+)=$/gm, '$1=placeholder'));
    const [command, ...first] = compose;
    const res = run(command, [...first, '--profile', 'workers', 'config', '--services'], {
      cwd: dir,
    });
    if (res.code !== 0) throw new Error(res.output);
    const services = res.output.trim().split('\n').sort();
    const expected = ['herald', 'minio', 'minio-bucket', 'postgres', 'worker'];
    if (services.join() !== expected.join())
      throw new Error(`services ${services.join(', ')}, expected ${expected.join(', ')}`);
    return `${compose.join(' ')}: ${services.join(', ')}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- HTTP, as a browser ----

/** Cookies by name, enough to follow Herald's own redirects (as apps/server/src/test/app.ts). */
class CookieJar {
  cookies = new Map();
  store(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [k, v = ''] = a.trim().split('=');
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function browser(baseUrl) {
  const jar = new CookieJar();
  async function send(method, path, { body, headers = {} } = {}) {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: jar.header(), origin: baseUrl, ...headers },
    });
    jar.store(res);
    const text = await res.text();
    return { status: res.status, location: res.headers.get('location'), text };
  }
  return {
    baseUrl,
    send,
    async json(method, path, payload) {
      const res = await send(method, path, {
        body: payload === undefined ? undefined : JSON.stringify(payload),
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      });
      return { ...res, body: res.text ? JSON.parse(res.text) : null };
    },
    form: (path, fields) =>
      send('POST', path, {
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
  };
}

/** The first form of a page: its action and the values of its inputs. */
function readForm(html) {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form on the page: ${html.slice(0, 300)}`);
  const unescape = (s) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const fields = {};
  for (const [input] of html.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    if (name) fields[name] = unescape(/value="([^"]*)"/.exec(input)?.[1] ?? '');
  }
  return { action: unescape(action), fields };
}

/**
 * Follows redirects within the API (Herald, its development sign-in and its sandboxes); stops
 * at the first page outside it (the web app) and returns that address as `next`.
 */
async function follow(b, res) {
  for (let i = 0; i < 10 && res.location; i++) {
    const next = new URL(res.location, b.baseUrl);
    if (next.origin !== b.baseUrl || !next.pathname.startsWith('/api/')) return { res, next };
    res = await b.send('GET', `${next.pathname}${next.search}`);
  }
  return { res, next: null };
}

/** The development sign-in, as a browser walks it: Herald → provider's form → consent → Herald. */
async function signIn(b, email) {
  const { res: page } = await follow(b, await b.send('GET', '/api/auth/google'));
  if (page.status !== 200)
    throw new Error(`sign-in page: ${page.status} ${page.text.slice(0, 200)}`);
  const form = readForm(page.text);
  const submitted = await b.form(form.action, { ...form.fields, email, name: 'Image Test' });
  await follow(b, submitted);
  const me = await b.json('GET', '/api/auth/me');
  if (me.status !== 200) throw new Error(`not signed in: ${me.status} ${me.text.slice(0, 200)}`);
  return me.body.data.user;
}

/** Connects the sandbox X account `account` to the organization through X's consent page. */
async function connectSandboxX(b, orgId, account) {
  const start = await b.send('GET', `/api/auth/x?orgId=${orgId}`);
  if (start.status !== 302) throw new Error(`connect: ${start.status} ${start.text.slice(0, 200)}`);
  const consentUrl = new URL(start.location);
  if (!consentUrl.pathname.includes('/sandbox/'))
    throw new Error(`connect went to ${consentUrl.href}, not to the X sandbox`);
  const consent = await b.send('GET', `${consentUrl.pathname}${consentUrl.search}`);
  const form = readForm(consent.text);
  const action = new URL(form.action, consentUrl);
  const approved = await b.form(`${action.pathname}${action.search}`, {
    ...form.fields,
    account,
    decision: 'approve',
  });
  const { res, next } = await follow(b, approved);
  if (!next?.searchParams.get('connected'))
    throw new Error(
      `X not connected: ended at ${next?.href} (${res.status} ${res.text.slice(0, 200)})`,
    );
}

async function waitFor(what, check, timeoutMs, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await check();
      if (last.ok) return last;
    } catch (err) {
      last = { detail: err instanceof Error ? err.message : String(err) };
    }
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}: ${last?.detail}`);
    await sleep(everyMs);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function getStatus(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  await res.arrayBuffer();
  return { ok: res.status === 200, detail: `${url} answered ${res.status}`, status: res.status };
}

async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

// ---- the checks ----

const results = [];
async function check(name, body) {
  const began = Date.now();
  try {
    const detail = await body();
    results.push({ name, ok: true });
    console.log(`  ✓ ${name} (${seconds(began)})${detail ? `: ${detail}` : ''}`);
  } catch (err) {
    results.push({ name, ok: false });
    console.log(
      `  ✗ ${name} (${seconds(began)})\n${indent(err instanceof Error ? err.message : String(err))}`,
    );
  }
}
const indent = (text) => text.replace(/^/gm, '      ');

async function main() {
  await ensureDocker();
  console.log(`image test (${image})`);
  let built = false;
  await check('the image builds (multi-stage, from the repository)', () => {
    const detail = buildImage();
    built = true;
    return detail;
  });
  if (!built) return;
  await check('compose.yaml is valid with the settings of .env.example', checkCompose);

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  try {
    await runChecks();
  } finally {
    for (const name of containers) docker(['rm', '--force', '--volumes', name]);
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

async function runChecks() {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Development mode for the development sign-in and the network sandboxes, with the secrets a
  // production install sets, the same in every process.
  const env = {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };

  await check('runs as a user other than root, who cannot change its code; has ffmpeg', () => {
    const res = docker([
      'run',
      '--rm',
      '--network',
      'host',
      '--entrypoint',
      'sh',
      image,
      '-c',
      'id -u; for f in /app/apps/server/dist/main.js /app/node_modules; do [ -w "$f" ] && echo "writable: $f"; done; ffmpeg -hide_banner -version | head -1 && ffprobe -hide_banner -version >/dev/null',
    ]);
    const [uid, ffmpeg] = res.output.trim().split('\n');
    if (res.code !== 0) throw new Error(res.output);
    if (uid === '0') throw new Error('the image runs as root');
    if (/writable:/.test(res.output)) throw new Error(res.output);
    return `uid ${uid}, ${ffmpeg}`;
  });

  await check('is production by default: refuses to start without production settings', () => {
    const res = docker([
      'run',
      '--rm',
      '--network',
      'host',
      ...envArgs({ DATABASE_URL: databaseUrl }),
      image,
      'api',
    ]);
    if (res.code === 0) throw new Error(`started: ${tail(res.output)}`);
    if (!/production/i.test(res.output)) throw new Error(`exit ${res.code}: ${tail(res.output)}`);
    return res.output.trim().split('\n')[0];
  });

  await check('`migrate` applies the migrations and exits', () => {
    const res = docker(['run', '--rm', '--network', 'host', ...envArgs(env), image, 'migrate']);
    if (res.code !== 0 || !/Migrations applied \(postgres\)/.test(res.output))
      throw new Error(`exit ${res.code}: ${tail(res.output)}`);
    return res.output.trim();
  });

  let api;
  let worker;
  await check(
    '`api` and `worker` start: healthz and readyz 200, Docker reports healthy',
    async () => {
      // The image's own HEALTHCHECK, run every second here instead of every 30.
      api = startContainer('api', 'api', env, [
        '--health-interval',
        '1s',
        '--health-start-period',
        '60s',
      ]);
      // `herald worker` serves no HTTP: the image's check does not apply to it.
      worker = startContainer('worker', 'worker', env, ['--no-healthcheck']);
      try {
        await waitFor('healthz', () => getStatus(`${baseUrl}/api/healthz`), 90_000);
        await waitFor('readyz', () => getStatus(`${baseUrl}/api/readyz`), 30_000);
        await waitFor(
          'Docker to call the api container healthy',
          () => {
            const health = inspect(api, '{{.State.Health.Status}}');
            return { ok: health === 'healthy', detail: health };
          },
          30_000,
        );
        await waitFor(
          'the worker to run',
          () => ({
            ok: /Herald worker is running/.test(logsOf(worker)),
            detail: tail(logsOf(worker), 5),
          }),
          60_000,
        );
      } catch (err) {
        throw new Error(
          `${err.message}\napi:\n${tail(logsOf(api), 15)}\nworker:\n${tail(logsOf(worker), 15)}`,
          { cause: err },
        );
      }
    },
  );

  await check(
    'signs in, connects a sandbox X account and publishes: the post ends PUBLISHED',
    async () => {
      if (!api || !worker) throw new Error('the api and worker did not start');
      const b = browser(baseUrl);
      try {
        await signIn(b, `owner-${runId}@image.test`);
        const created = await b.json('POST', '/api/organizations', { name: 'Image Test Co' });
        if (created.status !== 201)
          throw new Error(`organization: ${created.status} ${created.text}`);
        const orgId = created.body.data.organization.id;
        // Connecting an account needs a subscription: the free trial of a plan.
        const plans = await b.json('GET', '/api/plans');
        const plan = plans.body.data.plans.find((p) => p.name === 'Pro');
        const trial = await b.json('POST', `/api/organizations/${orgId}/subscribe/trial`, {
          planId: plan.id,
        });
        if (trial.status !== 200) throw new Error(`trial: ${trial.status} ${trial.text}`);
        await connectSandboxX(b, orgId, `image_${runId}`);
        const platforms = await b.json('GET', '/api/platforms/supported');
        const x = platforms.body.data.platforms.find((p) => p.name === 'X');
        const text = `Published from the Docker image test ${runId}`;
        const form = new FormData();
        form.set('platformIds', JSON.stringify([x.id]));
        form.set('content', text);
        form.set('action', 'publish');
        const post = await b.send('POST', `/api/organizations/${orgId}/post`, { body: form });
        if (post.status !== 201) throw new Error(`create post: ${post.status} ${post.text}`);
        const postId = JSON.parse(post.text).data.post.id;
        // The api queues the publication; the worker container publishes it to the sandbox,
        // which the api serves.
        const done = await waitFor(
          'the post to be published',
          async () => {
            const res = await b.json('GET', `/api/organizations/${orgId}/posts/${postId}`);
            const p = res.body?.data?.post;
            const targets = (p?.platformPosts ?? []).map(
              (t) => `${t.status}${t.error ? ` (${t.error})` : ''}`,
            );
            const settled = p && !['scheduled', 'publishing'].includes(p.status);
            if (settled && p.status !== 'published')
              throw new Error(`post ${p.status}: ${targets.join(', ')}`);
            return {
              ok: p?.status === 'published',
              detail: `${p?.status} ${targets.join(', ')}`,
              p,
            };
          },
          60_000,
        );
        const target = done.p.platformPosts[0];
        if (target.status !== 'PUBLISHED' || !target.externalId)
          throw new Error(`target ${target.status}, external id ${target.externalId}`);
        return `post ${postId} PUBLISHED on X as ${target.externalId}`;
      } catch (err) {
        throw new Error(
          `${err.message}\napi:\n${tail(logsOf(api), 15)}\nworker:\n${tail(logsOf(worker), 15)}`,
          { cause: err },
        );
      }
    },
  );

  await check('`docker stop` ends api and worker gracefully (exit 0)', () => {
    if (!api || !worker) throw new Error('the api and worker did not start');
    // Longer than SHUTDOWN_GRACE_SECONDS (30): Docker must not kill them in their grace period.
    const stopped = docker(['stop', '--time', '40', api, worker]);
    if (stopped.code !== 0) throw new Error(stopped.output);
    const codes = [api, worker].map((name) => inspect(name, '{{.State.ExitCode}}'));
    if (codes.some((code) => code !== '0'))
      throw new Error(
        `exit codes ${codes.join(', ')}\n${tail(logsOf(api), 10)}\n${tail(logsOf(worker), 10)}`,
      );
    return 'both exited 0';
  });

  await check('`start` serves the web app and the API in one container', async () => {
    // A port of its own: nothing left over from the checks above can answer for it.
    const startPort = await freePort();
    const startUrl = `http://127.0.0.1:${startPort}`;
    const all = startContainer('start', 'start', {
      ...env,
      PORT: String(startPort),
      PUBLIC_URL: startUrl,
    });
    try {
      await waitFor('healthz', () => getStatus(`${startUrl}/api/healthz`), 90_000);
      const res = await fetch(`${startUrl}/`);
      const html = await res.text();
      if (res.status !== 200 || !/<div id="root">/.test(html))
        throw new Error(`/ answered ${res.status}: ${html.slice(0, 200)}`);
      return 'GET / answers the web app';
    } catch (err) {
      throw new Error(`${err.message}\n${tail(logsOf(all), 15)}`, { cause: err });
    } finally {
      docker(['stop', '--time', '40', all]);
    }
  });
}

try {
  await main();
} catch (err) {
  results.push({ name: 'setup', ok: false });
  console.log(`  ✗ ${err instanceof Error ? err.message : String(err)}`);
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`image: ${passed} passed, ${failed} failed (${seconds(startedAt)})`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
