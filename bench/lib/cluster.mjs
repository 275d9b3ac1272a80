// Helpers for benchmarks of the scaled-out shape: several `herald api` and `herald worker`
// processes on one PostgreSQL, behind one PUBLIC_URL. A round-robin TCP balancer stands for the
// load balancer; organizations get accounts on several network sandboxes (each answering after a
// set latency); the sandboxes' call logs give the publications in flight per network; their
// `/_emu/posts` give what was published, to count texts published twice.
import { readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { connectSandboxAccount, createOrganization, emu, root, signIn, sleep } from './herald.mjs';

/**
 * Listens on `port` and hands each connection to the next of `upstreams` (ports on 127.0.0.1),
 * in turn. `upstreams` may change while it runs (`setUpstreams`): a process added later gets
 * new connections from then on, as behind a real balancer.
 */
export async function startBalancer(port, upstreams) {
  let targets = [...upstreams];
  let next = 0;
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = createConnection({
      host: '127.0.0.1',
      port: targets[next++ % targets.length],
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      // A closed peer ends its pair; the error itself is the client's to see.
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    setUpstreams(list) {
      targets = [...list];
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The networks a text post can go to without media, with the names /api/platforms/supported
 * gives them. Instagram and TikTok need a picture or a video.
 */
export const TEXT_NETWORKS = {
  x: 'X',
  threads: 'Threads',
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
};

/**
 * `count` organizations (a Pro trial each: 250 posts a day), each with one sandbox account on
 * every network of `slugs`, every account answering after `latencyMs`. Returns the organizations
 * and the platform id of each slug.
 */
export async function setUpNetworkOrganizations(base, count, slugs, latencyMs, prefix) {
  const orgs = [];
  for (let k = 0; k < count; k++) {
    const session = await signIn(base, `${prefix}-${k}@example.com`, `Bench ${k}`);
    const orgId = await createOrganization(session, `${prefix} ${k}`);
    for (const slug of slugs) {
      const account = `${prefix}_${slug}_${k}`.replace(/\W/g, '_');
      await connectSandboxAccount(session, slug, orgId, account);
      // X caps posts per account per 15 minutes in its sandbox; the bench is about Herald.
      if (slug === 'x')
        await emu(session, slug, 'scenario', { account, knob: 'publish_cap', value: 1_000_000 });
      await emu(session, slug, 'scenario', { account, knob: 'latency_ms', value: latencyMs });
    }
    orgs.push({ session, orgId });
  }
  const supported = await orgs[0].session.json('GET', '/api/platforms/supported');
  const platformIds = {};
  for (const slug of slugs) {
    const found = supported.data.platforms.find((p) => p.name === TEXT_NETWORKS[slug]);
    if (!found) throw new Error(`no platform named ${TEXT_NETWORKS[slug]}`);
    platformIds[slug] = found.id;
  }
  return { orgs, platformIds };
}

/**
 * Spreads `count` targets over networks in proportion to `weights` ({slug: weight}), in a
 * repeating pattern so that any run of consecutive targets (what one worker fetches at once)
 * has about the same mix.
 */
export function networkPattern(count, weights) {
  const slugs = Object.keys(weights);
  const total = slugs.reduce((sum, s) => sum + weights[s], 0);
  const given = Object.fromEntries(slugs.map((s) => [s, 0]));
  const out = [];
  for (let i = 0; i < count; i++) {
    // The network furthest behind its share so far goes next.
    let best = slugs[0];
    let lag = -Infinity;
    for (const s of slugs) {
      const behind = ((i + 1) * weights[s]) / total - given[s];
      if (behind > lag) [best, lag] = [s, behind];
    }
    given[best]++;
    out.push(best);
  }
  return out;
}

/**
 * The calls that make a post: X `POST /2/tweets`, Threads' container and its publish, LinkedIn
 * `POST /rest/posts`, a Facebook Page's `POST /{page}/feed`.
 */
const PUBLISH_CALL = /^\/2\/tweets$|\/threads(_publish)?$|^\/rest\/posts$|\/feed$/;

/**
 * The publishing calls the sandboxes received since `sinceMs`, per network, read from their call
 * logs in the database (the log keeps each network's newest 2,000 calls: read it during a run).
 * Publishing calls are the POSTs that make a post (PUBLISH_CALL; not the webhook and activity
 * subscriptions the networks' inbox set-up also POSTs). Each is given its interval from the one
 * time the log keeps: emulators that log on answer (with a status) took the latency before it,
 * the others after it.
 */
export async function readPublishCalls(db, slugs, sinceMs, latencyMs, into = new Map()) {
  const { rows } = await db.query(
    `select network, id, data from sandbox_records
      where kind = 'call' and network = any($1::text[]) and (data->>'at')::bigint >= $2`,
    [slugs, sinceMs],
  );
  for (const { network, id, data } of rows) {
    if (data.method !== 'POST' || !PUBLISH_CALL.test(data.path)) continue;
    const at = Number(data.at);
    const [start, end] = data.status === undefined ? [at, at + latencyMs] : [at - latencyMs, at];
    into.set(`${network} ${id}`, { network, path: data.path, start, end });
  }
  return into;
}

/** The most calls of each network that overlapped in time (a sweep over start and end times). */
export function maxInFlight(calls) {
  const byNetwork = new Map();
  for (const c of calls.values()) {
    const events = byNetwork.get(c.network) ?? [];
    events.push([c.start, 1], [c.end, -1]);
    byNetwork.set(c.network, events);
  }
  const result = {};
  for (const [network, events] of byNetwork) {
    // Ends before starts at the same instant: back-to-back calls do not overlap.
    events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let now = 0;
    let most = 0;
    for (const [, step] of events) most = Math.max(most, (now += step));
    result[network] = most;
  }
  return result;
}

/**
 * Publications per text whose text starts with `tag`, over every organization's accounts on
 * every network of `slugs`, read from the sandboxes' `/_emu/posts`.
 */
export async function publicationsOf(orgs, slugs, tag) {
  const perText = new Map();
  for (const { session } of orgs) {
    for (const slug of slugs) {
      const { posts } = await emu(session, slug, 'posts');
      for (const post of posts) {
        if (typeof post.text !== 'string' || !post.text.startsWith(`${tag} `)) continue;
        const key = `${slug} ${post.text}`;
        perText.set(key, (perText.get(key) ?? 0) + 1);
      }
    }
  }
  const counts = [...perText.values()];
  return {
    publications: counts.reduce((a, b) => a + b, 0),
    duplicates: counts.filter((n) => n > 1).length,
  };
}

/**
 * Each network's cluster-wide concurrency cap, read from the engine's caps.ts (a figure written
 * there, or the `concurrency` of the network's limits.ts it names), so the bench follows them.
 */
export function publishCaps(slugs) {
  const caps = readFileSync(join(root, 'apps/server/src/modules/publishing/caps.ts'), 'utf8');
  const result = {};
  for (const slug of slugs) {
    const named = new RegExp(`\\b${slug}:\\s*\\{\\s*concurrency:\\s*([\\w.]+)`).exec(caps)?.[1];
    if (!named) throw new Error(`caps.ts names no concurrency for ${slug}`);
    let figure = Number(named);
    if (Number.isNaN(figure)) {
      const limits = readFileSync(
        join(root, `apps/server/src/platforms/${slug}/limits.ts`),
        'utf8',
      );
      const constant = named.split('.')[0];
      figure = Number(
        new RegExp(`${constant} = \\{[^}]*\\bconcurrency:\\s*(\\d+)`).exec(limits)?.[1] ?? NaN,
      );
    }
    if (!Number.isFinite(figure)) throw new Error(`could not read ${slug}'s concurrency cap`);
    result[slug] = figure;
  }
  return result;
}

/**
 * Moves every scheduled post whose text starts with `tag`, its targets and their waiting jobs to
 * `dueAt`, in one transaction: what the scheduler sees when the clock reaches a time many posts
 * were scheduled for. Returns the posts' ids.
 */
export async function moveDueTime(db, tag, dueAt) {
  const client = await db.connect();
  try {
    await client.query('begin');
    const posts = await client.query(
      `update posts set scheduled_at = $2 where content like $1 and status = 'scheduled' returning id`,
      [`${tag} %`, dueAt],
    );
    const targets = await client.query(
      `update post_targets set due_at = $2 where post_id = any($1::uuid[]) returning job_id`,
      [posts.rows.map((r) => r.id), dueAt],
    );
    const jobs = await client.query(
      `update pgboss.job set start_after = $2 where id = any($1::uuid[]) and state = 'created'`,
      [targets.rows.map((r) => r.job_id), dueAt],
    );
    if (jobs.rowCount !== targets.rowCount)
      throw new Error(`${targets.rowCount} targets but ${jobs.rowCount} waiting jobs`);
    await client.query('commit');
    return posts.rows.map((r) => r.id);
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/** How many targets of `postIds` are not final yet (published, failed or flagged). */
export async function unsettled(db, postIds) {
  const { rows } = await db.query(
    `select count(*)::int as n from post_targets
      where post_id = any($1::uuid[]) and status not in ('PUBLISHED', 'FAILED', 'UNCERTAIN')`,
    [postIds],
  );
  return rows[0].n;
}

/** Waits for a worker's "running" line. */
export async function workerRunning(worker) {
  for (let i = 0; !/Herald (worker )?is running/.test(worker.output()); i++) {
    if (worker.child.exitCode !== null || i > 240)
      throw new Error(`the worker did not start:\n${worker.output()}`);
    await sleep(250);
  }
}
