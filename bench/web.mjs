/* global window -- the functions passed to page.evaluate run in the browser */
// Web delivery benchmark: what the browser downloads before the landing page (/) and the
// dashboard (/dashboard) can render, and how fast they paint, against the built all-in-one server.
//
//   npm run bench:web                 builds the web app into a temporary folder, then measures
//   npm run bench:web -- --dist DIR   measures an existing build (e.g. apps/web/dist)
//
// For each page, a fresh browser context (empty cache) opens the page and waits until it shows its
// heading; the scripts that had arrived by the largest contentful paint ("by LCP") and all those
// fetched until the page was ready and settled ("by ready") are listed. Sizes are
// given raw and as gzip (level 9) and brotli (quality 11) of the built files, and the encoding the
// server actually answered with is checked. "Shell" is the entry script and everything index.html
// preloads: what every page waits for. LCP is the median of a few loads, unthrottled and with a
// slow-phone profile (4× CPU slowdown, 1.6 Mbit/s down, 150 ms round trips), where bytes on the
// wire and script work both show.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureServerBuilt, root, startHerald, waitReady } from './lib/herald.mjs';

const args = process.argv.slice(2);
const distFlag = args.indexOf('--dist');
const runs = Number(process.env.BENCH_WEB_RUNS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 3211);
const base = `http://localhost:${port}`;
const temp = mkdtempSync(join(tmpdir(), 'herald-bench-web-'));

let dist;
if (distFlag >= 0) {
  dist = args[distFlag + 1];
} else {
  dist = join(temp, 'web');
  const build = spawnSync(
    'npm',
    ['run', 'build', '-w', '@herald/web', '--', '--outDir', dist, '--emptyOutDir'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (build.status !== 0) throw new Error('building the web app failed');
}
ensureServerBuilt();

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sizes = new Map();
/** Raw, gzip and brotli sizes of a built file, by its URL path. */
function sizeOf(path) {
  if (!sizes.has(path)) {
    const body = readFileSync(join(dist, path));
    sizes.set(path, {
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      brotli: brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
    });
  }
  return sizes.get(path);
}
const sum = (files, key) => files.reduce((n, f) => n + sizeOf(f)[key], 0);

const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const recordLcp = () => {
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

const pages = [
  { name: 'landing', path: '/', ready: (page) => page.locator('h1').first() },
  {
    name: 'dashboard',
    path: '/dashboard',
    signedIn: true,
    ready: (page) => page.getByRole('heading', { level: 1 }).first(),
  },
];

/** Opens `path` in a fresh context; returns the scripts/styles fetched and the LCP. */
async function load(browser, spec, storageState, slow) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    storageState,
  });
  await context.addInitScript(recordLcp);
  const page = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
  }
  const assets = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const url = new URL(response.url());
    if (url.origin !== base) return;
    assets.push({
      path: url.pathname,
      type,
      encoding: response.headers()['content-encoding'] ?? 'identity',
      cache: response.headers()['cache-control'] ?? '',
    });
  });
  await page.goto(`${base}${spec.path}`);
  await spec.ready(page).waitFor({ timeout: 60_000 });
  // LCP entries are final once the page has painted its content and a frame or two passed.
  await page.waitForTimeout(slow ? 1500 : 500);
  const lcp = await page.evaluate(() => window.__lcp);
  // Scripts and stylesheets that had arrived when the largest paint happened: what the page
  // needed (or at least fetched) before it showed its content.
  const beforePaint = await page.evaluate(
    (at) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /\.(js|css)$/.test(new URL(e.name).pathname) && e.responseEnd <= at)
        .map((e) => new URL(e.name).pathname),
    lcp,
  );
  await context.close();
  return { assets, lcp, beforePaint };
}

/** Signs in through the development provider and creates an organization; returns the state. */
async function signedInState(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: /continue with/i }).click();
  await page.getByLabel('Email').fill('bench-web@example.com');
  await page.getByLabel('Name').fill('Bench Web');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/onboarding$/);
  await page.getByRole('button', { name: 'Create Organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Organization' });
  await dialog.getByLabel('Organization name').fill('Bench Web');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/dashboard$/, { waitUntil: 'commit' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  const state = await context.storageState();
  await context.close();
  return state;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const index = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(index)?.[1];
const preloads = [...index.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
  (m) => m[1],
);
const shell = [entry, ...preloads].filter(Boolean);

if (
  await fetch(`${base}/api/readyz`).then(
    () => true,
    () => false,
  )
)
  throw new Error(`port ${port} is taken (set BENCH_PORT)`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: launchArgs,
});
const server = startHerald('start', {
  PORT: String(port),
  PUBLIC_URL: base,
  HERALD_DATA_DIR: join(temp, 'data'),
  WEB_DIST_DIR: dist,
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
  LOG_LEVEL: 'warn',
});
try {
  await waitReady(base, server, 120_000);
  const state = await signedInState(browser);
  const table = [];
  const problems = [];
  for (const spec of pages) {
    const storage = spec.signedIn ? state : undefined;
    const fast = [];
    const slow = [];
    let assets = [];
    let beforePaint = [];
    for (let i = 0; i < runs; i++) {
      const result = await load(browser, spec, storage, false);
      fast.push(result.lcp);
      assets = result.assets;
      beforePaint = result.beforePaint;
    }
    for (let i = 0; i < runs; i++) slow.push((await load(browser, spec, storage, true)).lcp);
    const files = [...new Set(assets.map((a) => a.path))];
    const painted = new Set(beforePaint);
    for (const a of assets) {
      if (a.encoding === 'identity' && sizeOf(a.path).raw > 1024)
        problems.push(`${spec.path}: ${a.path} was served uncompressed`);
      if (a.path.startsWith('/assets/') && !a.cache.includes('immutable'))
        problems.push(`${spec.path}: ${a.path} is not cached as immutable (${a.cache})`);
    }
    table.push({
      spec,
      files,
      early: files.filter((f) => painted.has(f)),
      encodings: new Set(assets.map((a) => a.encoding)),
      fast,
      slow,
    });
  }

  console.log(`\nWeb delivery benchmark (${runs} loads each, fresh cache; build: ${dist})\n`);
  console.log(
    `shell (entry + index.html preloads, ${shell.length} files): JS ${kb(sum(shell, 'raw'))} raw, ${kb(sum(shell, 'gzip'))} gzip, ${kb(sum(shell, 'brotli'))} brotli`,
  );
  const line = (label, list) =>
    `  ${label.padEnd(13)} ${String(list.length).padStart(2)} files  ${kb(sum(list, 'raw')).padStart(9)} raw  ${kb(sum(list, 'gzip')).padStart(9)} gzip  ${kb(sum(list, 'brotli')).padStart(9)} brotli`;
  for (const { spec, files, early, encodings, fast, slow } of table) {
    const js = files.filter((f) => f.endsWith('.js'));
    console.log(`\n${spec.path} (${spec.name})`);
    console.log(
      line(
        'JS by LCP',
        early.filter((f) => f.endsWith('.js')),
      ),
    );
    console.log(line('JS by ready', js));
    console.log(
      line(
        'CSS',
        files.filter((f) => f.endsWith('.css')),
      ),
    );
    console.log(`  served as: ${[...encodings].join(', ')}`);
    console.log(
      `  LCP median ${median(fast).toFixed(0)} ms unthrottled, ${median(slow).toFixed(0)} ms slow phone (${slow.map((v) => v.toFixed(0)).join(' / ')})`,
    );
    if (process.env.BENCH_WEB_VERBOSE)
      for (const f of files)
        console.log(
          `    ${early.includes(f) ? '*' : ' '} ${f.padEnd(48)} ${kb(sizeOf(f).raw).padStart(9)} ${kb(sizeOf(f).gzip)}`,
        );
  }
  const shellGzip = sum(shell, 'gzip') / 1024;
  console.log(
    `\nverdict: shell ${shellGzip.toFixed(1)} KB gzip (goal ≤ 120) ${shellGzip <= 120 ? 'ok' : 'OVER'}; ${problems.length ? `${problems.length} delivery problem(s):` : 'every script and stylesheet compressed and cached as immutable'}`,
  );
  for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(temp, { recursive: true, force: true });
}
