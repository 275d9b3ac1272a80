// Publish-now benchmark (`npm run bench:publish-now`): how long a member waits between pressing
// Publish now in the composer and seeing every account settled (published or failed). One
// `herald start` (API and worker in one process, as `npm start` runs it) on PostgreSQL, one
// organization with seven sandbox accounts: X, Facebook, Instagram, LinkedIn, Threads, TikTok and
// a second X account. Each run sends the composer's own request (`POST …/post`, multipart, with
// `action=publish` and one picture, as Instagram and TikTok need one) and follows the post as the
// browser does: the live event stream's outcome notifications trigger a read of the post
// (`GET …/posts/{id}`), with a read every PUBLISH_FALLBACK_MS as the floor, until no account is
// QUEUED, PREPARING, READY or PUBLISHING.
//
// In one run: a warm-up, then PUBLISH_RUNS rounds, each publishing once to the first account (X)
// alone and once to all seven. It reports p50/p95 of each and the ratio of the seven-account time
// to the one-account time of the same run (the machine is shared: ratios travel, absolute figures
// less so), with where the time of the slowest account went (waiting in the queue, preparing,
// publishing).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:publish-now
//
// PUBLISH_DB=pglite runs on the embedded database instead; PUBLISH_MEDIA=video sends a video.
// PUBLISH_RUNS (7), PUBLISH_FALLBACK_MS (2000), PUBLISH_PORT (3231), PUBLISH_GOAL_MS (3000: the p50 of
// seven accounts to reach).
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchPostgres,
  connectSandboxAccount,
  createDatabase,
  createOrganization,
  emu,
  ensureServerBuilt,
  quantile,
  signIn,
  startHerald,
  waitReady,
} from './lib/herald.mjs';
import { cpuMs } from './lib/proc-cpu.mjs';

const runs = Number(process.env.PUBLISH_RUNS ?? 7);
const fallbackMs = Number(process.env.PUBLISH_FALLBACK_MS ?? 2000);
const port = Number(process.env.PUBLISH_PORT ?? 3231);
const goalMs = Number(process.env.PUBLISH_GOAL_MS ?? 3000);
const base = `http://127.0.0.1:${port}`;

/** The seven accounts: network slug and the sandbox account's name. */
const ACCOUNTS = [
  ['x', 'bench_x_one'],
  ['facebook', 'bench_facebook'],
  ['instagram', 'bench_instagram'],
  ['linkedin', 'bench_linkedin'],
  ['threads', 'bench_threads'],
  ['tiktok', 'bench_tiktok'],
  ['x', 'bench_x_two'],
];
const TIKTOK_SPACING_MS = 10_500;
const UNSETTLED = new Set(['QUEUED', 'PREPARING', 'READY', 'PUBLISHING']);

/**
 * PUBLISH_MEDIA=video: a 5-second 720 × 1280 MP4 (ffmpeg's test picture) instead of the picture,
 * for the networks' video processing (Threads advises 30 s before the first look, and the bench
 * shows it).
 */
const withVideo = process.env.PUBLISH_MEDIA === 'video';

function verticalMp4() {
  const dir = mkdtempSync(join(tmpdir(), 'herald-publish-now-video-'));
  const file = join(dir, 'clip.mp4');
  const made = spawnSync('ffmpeg', [
    ...['-v', 'error', '-nostdin', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=size=720x1280:rate=30:duration=5'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=5'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-movflags', '+faststart', file],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg could not make the video: ${made.stderr}`);
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** A 1080 × 1080 JPEG: every network here takes a square picture, Instagram's ratio rule too. */
async function squareJpeg() {
  // sharp is the server's own image library (installed with the workspace).
  const { default: sharp } = await import('sharp');
  return sharp({
    create: { width: 1080, height: 1080, channels: 3, background: { r: 40, g: 110, b: 180 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** `pglite`: the embedded database of `npm start` (no DATABASE_URL); else PostgreSQL. */
const onPglite = process.env.PUBLISH_DB === 'pglite';

ensureServerBuilt();
const { adminUrl, embedded } = onPglite
  ? { adminUrl: null, embedded: undefined }
  : await benchPostgres();
const database = onPglite ? null : await createDatabase(adminUrl, 'herald_publish_now');
const dataDir = mkdtempSync(join(tmpdir(), 'herald-publish-now-bench-'));
const herald = startHerald(
  'start',
  {
    NODE_ENV: 'development',
    DATABASE_URL: database?.url ?? '',
    PUBLIC_URL: base,
    PORT: String(port),
    HOST: '127.0.0.1',
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    HERALD_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  'herald start',
);

/** Sends the composer's Publish now for `integrationIds`; resolves with the post id and when. */
async function publishNow(session, orgId, integrationIds, tiktokIds, file, text) {
  const form = new FormData();
  form.set('integrationIds', JSON.stringify(integrationIds));
  form.set('content', text);
  form.set('action', 'publish');
  if (tiktokIds.length > 0)
    form.set(
      'tiktok',
      JSON.stringify(
        Object.fromEntries(
          tiktokIds.map((id) => [id, { mode: 'direct', privacyLevel: 'SELF_ONLY' }]),
        ),
      ),
    );
  form.append('media', new Blob([file.bytes], { type: file.type }), file.name);
  const startedAt = performance.now();
  const res = await session.fetch(`/api/organizations/${orgId}/post`, {
    method: 'POST',
    body: form,
  });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`publish now: ${res.status} ${body}`);
  return { postId: JSON.parse(body).data.post.id, startedAt };
}

/**
 * The browser's live event stream (`GET /api/notifications/stream`): calls `onPost(postId)` for
 * each notification about a post, as the web app refreshes that post on it.
 */
async function openStream(session, orgId, onPost) {
  const controller = new AbortController();
  const res = await session.fetch(`/api/notifications/stream?organizationId=${orgId}`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (res.status !== 200) throw new Error(`event stream: ${res.status}`);
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!/^event: notification$/m.test(event)) continue;
          const data = /^data: (.*)$/m.exec(event)?.[1];
          const postId = data ? JSON.parse(data).postId : null;
          if (postId) onPost(postId);
        }
      }
    } catch {
      // closed at the end of the bench
    }
  })();
  return () => controller.abort();
}

/** Who waits for which post: the stream wakes the wait for its post. */
const waiters = new Map();

/**
 * Reads the post as the browser does until every account is settled: at once, again on each
 * outcome notification of the post (the event stream), and every PUBLISH_FALLBACK_MS anyway (the
 * page's floor when the stream is down). Ms from the click.
 */
async function settle(session, orgId, postId, startedAt) {
  const deadline = Date.now() + 180_000;
  const seen = new Map();
  for (;;) {
    const { data } = await session.json('GET', `/api/organizations/${orgId}/posts/${postId}`);
    const targets = data.post.platformPosts;
    const now = performance.now() - startedAt;
    for (const t of targets) if (!UNSETTLED.has(t.status) && !seen.has(t.id)) seen.set(t.id, now);
    if (targets.length > 0 && targets.every((t) => !UNSETTLED.has(t.status)))
      return { ms: now, targets: targets.map((t) => ({ ...t, seenMs: seen.get(t.id) })) };
    if (Date.now() > deadline)
      throw new Error(`post ${postId} never settled: ${targets.map((t) => t.status).join(', ')}`);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, fallbackMs);
      waiters.set(postId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    waiters.delete(postId);
  }
}

function summary(values) {
  return { p50: quantile(values, 0.5), p95: quantile(values, 0.95) };
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

try {
  await waitReady(base, herald, 120_000);
  const session = await signIn(base, 'publish-now@example.com', 'Bench Publisher');
  const orgId = await createOrganization(session, 'Publish now bench');
  for (const [slug, account] of ACCOUNTS) {
    await connectSandboxAccount(session, slug, orgId, account);
    // X caps posts per account per 15 minutes in its sandbox; the bench is about Herald.
    if (slug === 'x')
      await emu(session, slug, 'scenario', { account, knob: 'publish_cap', value: 1_000_000 });
  }
  const { data } = await session.json('GET', `/api/organizations/${orgId}/integrations`);
  const integrations = data.platforms;
  // The accounts in ACCOUNTS order; the two X accounts told apart by their handle.
  const used = new Set();
  const ids = ACCOUNTS.map(([slug, account]) => {
    const ofNetwork = integrations.filter(
      (i) => i.platform.name.toLowerCase() === slug && !used.has(i.id),
    );
    const found =
      ofNetwork.find((i) => (i.metadata.username ?? '').includes(account)) ?? ofNetwork[0];
    if (!found) throw new Error(`no connected ${slug} account ${account}`);
    used.add(found.id);
    return found.id;
  });
  const tiktokId = ids[ACCOUNTS.findIndex(([slug]) => slug === 'tiktok')];
  const file = withVideo
    ? { bytes: verticalMp4(), type: 'video/mp4', name: 'clip.mp4' }
    : { bytes: await squareJpeg(), type: 'image/jpeg', name: 'square.jpg' };

  let n = 0;
  // TikTok lets a user's token start 6 posts a minute (docs/networks.md#tiktok-limits): a bench
  // going faster measures TikTok's minute-long wait, not Herald. A TikTok post starts at most
  // every TIKTOK_SPACING_MS.
  let lastTikTok = 0;
  const once = async (integrationIds) => {
    if (integrationIds.includes(tiktokId)) {
      const wait = lastTikTok + TIKTOK_SPACING_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastTikTok = Date.now();
    }
    const text = `Publish now bench ${++n} ${randomBytes(3).toString('hex')}`;
    const tiktok = integrationIds.filter((id) => id === tiktokId);
    const { postId, startedAt } = await publishNow(
      session,
      orgId,
      integrationIds,
      tiktok,
      file,
      text,
    );
    const cpuBefore = cpuMs(herald.child.pid);
    const settled = await settle(session, orgId, postId, startedAt);
    return { ...settled, cpuMs: cpuMs(herald.child.pid) - cpuBefore };
  };

  const closeStream = await openStream(session, orgId, (postId) => waiters.get(postId)?.());
  const loadAtStart = loadavg()[0];
  console.log(`warm-up (load average ${loadAtStart.toFixed(1)})…`);
  await once([ids[0]]);
  await once(ids);

  const one = [];
  const seven = [];
  const cpuOne = [];
  const cpuSeven = [];
  const ratios = [];
  let slowest = null;
  for (let r = 0; r < runs; r++) {
    const a = await once([ids[0]]);
    const b = await once(ids);
    one.push(a.ms);
    seven.push(b.ms);
    cpuOne.push(a.cpuMs);
    cpuSeven.push(b.cpuMs);
    ratios.push(b.ms / a.ms);
    const failed = b.targets.filter((t) => t.status !== 'PUBLISHED');
    console.log(
      `run ${r + 1}: 1 account ${fmt(a.ms)}, 7 accounts ${fmt(b.ms)} (×${(b.ms / a.ms).toFixed(2)}); Herald's CPU ${a.cpuMs} / ${b.cpuMs} ms` +
        (failed.length
          ? `; not published: ${failed.map((t) => `${t.platformName} ${t.status} (${t.error})`).join('; ')}`
          : ''),
    );
    if (!slowest || b.ms > slowest.ms) slowest = b;
  }
  const oneS = summary(one);
  const sevenS = summary(seven);
  const ratioS = summary(ratios);
  console.log('');
  console.log(
    `Publish now → every account settled, ${runs} runs (load average ${loadavg()[0].toFixed(1)}):`,
  );
  console.log(`  1 account (X):     p50 ${fmt(oneS.p50)}  p95 ${fmt(oneS.p95)}`);
  console.log(`  7 accounts:        p50 ${fmt(sevenS.p50)}  p95 ${fmt(sevenS.p95)}`);
  console.log(`  7 ÷ 1 (same run):  p50 ×${ratioS.p50.toFixed(2)}  p95 ×${ratioS.p95.toFixed(2)}`);
  console.log(
    `  Herald's CPU:      1 account p50 ${quantile(cpuOne, 0.5)} ms, 7 accounts p50 ${quantile(cpuSeven, 0.5)} ms`,
  );
  if (slowest) {
    console.log('  slowest 7-account run, each account seen settled (from the click):');
    for (const t of slowest.targets)
      console.log(`    ${t.platformName.padEnd(10)} ${t.status.padEnd(10)} ${fmt(t.seenMs)}`);
  }
  closeStream();
  const verdict = sevenS.p50 <= goalMs ? 'met' : 'NOT met';
  console.log(`\ngoal: 7 accounts p50 ≤ ${fmt(goalMs)} — ${verdict}`);
} finally {
  await herald.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  await embedded?.stop();
}
