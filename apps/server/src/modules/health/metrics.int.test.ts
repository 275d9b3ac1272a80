import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { WEBHOOK_RECEIVERS } from '../../platforms/inbox-receivers.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { listenForMetrics } from './metrics-listener.js';
import { MetricsScrape } from './metrics.service.js';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
const xReceiver = WEBHOOK_RECEIVERS.find((r) => r.provider === 'x')!;

let off: TestApp;
let t: TestApp;
let owner: Actor;
let orgId: string;

beforeAll(async () => {
  off = await createTestApp();
  t = await createTestApp(
    { METRICS_TOKEN: TOKEN, RATE_LIMIT_SIGNIN_PER_MINUTE: '5' },
    {
      // pg-boss runs (its queues are read) but serves no job: what is sent stays queued.
      jobs: 'api',
      // An X receiver whose deliveries carry no event: the webhook lag is measured all the same.
      webhookReceivers: [{ ...xReceiver, parse: () => [] }],
    },
  );
  ({ owner, orgId } = await createOrg(t.app, 'metrics@example.com', 'Metrics Co'));
}, 120_000);

afterAll(async () => {
  await off?.close();
  await t?.close();
});

const scrape = (app = t, authorization: string | null = `Bearer ${TOKEN}`) =>
  app.app.inject({
    method: 'GET',
    url: '/api/metrics',
    headers: authorization ? { authorization } : {},
  });

async function metricsText() {
  const res = await scrape();
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

/** The value of the sample `name` whose labels include `labels` (undefined when none has). */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('who may read the metrics', () => {
  it('is an unknown path while METRICS_TOKEN is unset', async () => {
    const res = await scrape(off);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });

  it('asks for the token, refuses a wrong one, and answers the right one in text format', async () => {
    const missing = await scrape(t, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(missing.json()).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED' });
    expect(missing.json().message).toMatch(/Authorization: Bearer/);

    for (const wrong of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`]) {
      const res = await scrape(t, wrong);
      expect(res.statusCode, wrong).toBe(401);
      expect(res.body).not.toContain(TOKEN.slice(0, 20));
    }

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    // The process's own metrics come along.
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('what the metrics count', () => {
  it('counts requests by route pattern and status, never by their URL', async () => {
    const postId = randomUUID();
    const path = `/api/organizations/${orgId}/posts/${postId}`;
    const route = '/api/organizations/:orgId/posts/:postId';
    const labels = { method: 'GET', route, status: '404' };
    const before = sample(
      await metricsText(),
      'herald_http_request_duration_seconds_count',
      labels,
    );
    for (let i = 0; i < 3; i++) expect((await owner.call('GET', path)).status).toBe(404);
    const unknown = `/api/no-such-thing/${randomUUID()}`;
    expect((await t.app.inject({ method: 'GET', url: unknown })).statusCode).toBe(404);

    const text = await metricsText();
    const count = sample(text, 'herald_http_request_duration_seconds_count', labels);
    expect(count).toBe((before ?? 0) + 3);
    const buckets = sample(text, 'herald_http_request_duration_seconds_bucket', {
      ...labels,
      le: '+Inf',
    });
    expect(buckets).toBe(count);
    expect(
      sample(text, 'herald_http_request_duration_seconds_count', {
        route: 'unmatched',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(postId);
    expect(text).not.toContain(orgId);
    expect(text).not.toContain('no-such-thing');
  });

  it('counts a publication by network and outcome, with its lateness', async () => {
    await connectThroughSandbox(t.app, owner, 'x', orgId);
    const supported = await owner.call('GET', '/api/platforms/supported');
    const xId = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
    const body = await multipart({
      platformIds: JSON.stringify([xId]),
      content: 'Counted on its way out',
      action: 'draft',
    });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL, cookie: owner.jar.header() },
      payload: body.payload,
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().data.post.id;

    const published = { network: 'x', outcome: 'published' };
    const before = await metricsText();
    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${postId}/publish`, {
      platforms: ['X'],
    });
    expect(res.body.results.X.status).toBe('success');

    const after = await metricsText();
    expect(sample(after, 'herald_publications_total', published)).toBe(
      (sample(before, 'herald_publications_total', published) ?? 0) + 1,
    );
    const lateness = 'herald_publish_lateness_seconds_count';
    expect(sample(after, lateness, { network: 'x' })).toBe(
      (sample(before, lateness, { network: 'x' }) ?? 0) + 1,
    );
  });

  it('counts a rate-limit refusal under its limit', async () => {
    const refusals = (text: string) =>
      sample(text, 'herald_rate_limit_refusals_total', { limit: 'signin' }) ?? 0;
    const before = refusals(await metricsText());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/google',
        headers: { 'x-forwarded-for': '203.0.113.77' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
    expect(refusals(await metricsText())).toBe(before + 1);
  });

  it('reads each queue: jobs waiting, jobs not due yet, and how long the oldest has waited', async () => {
    // The readings are kept a few seconds: a scrape of its own reads them at once.
    const read = async () =>
      (
        await new MetricsScrape(TOKEN, {
          database: t.database,
          boss: t.runtime.boss,
          queueNames: t.runtime.queueNames,
        }).render()
      ).body;
    const jobs = (text: string, state: string) =>
      sample(text, 'herald_job_queue_jobs', { queue: PUBLISH_QUEUE, state });
    const before = await read();
    // Nothing serves jobs here: a job due a minute ago is still waiting, one due later deferred.
    await t.publishQueue.retryAt(randomUUID(), new Date(Date.now() - 60_000));
    await t.publishQueue.retryAt(randomUUID(), new Date(Date.now() + 3600_000));
    const text = await read();
    expect(jobs(text, 'ready')).toBe((jobs(before, 'ready') ?? 0) + 1);
    expect(jobs(text, 'deferred')).toBe((jobs(before, 'deferred') ?? 0) + 1);
    expect(
      sample(text, 'herald_job_queue_oldest_ready_seconds', { queue: PUBLISH_QUEUE }),
    ).toBeGreaterThanOrEqual(59);
    // Every queue of the deployment has its series, idle ones at 0.
    for (const name of t.runtime.queueNames)
      expect(
        sample(text, 'herald_job_queue_jobs', { queue: name, state: 'ready' }),
        name,
      ).toBeDefined();
    expect(sample(text, 'herald_publish_targets_overdue')).toBe(0);
    expect(sample(text, 'herald_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(sample(text, 'herald_db_pool_waiting')).toBeGreaterThanOrEqual(0);
  });

  it('measures how long a webhook delivery waited for its events to be stored', async () => {
    const lag = (text: string) =>
      sample(text, 'herald_webhook_ingestion_lag_seconds_count', { provider: 'x' }) ?? 0;
    const before = lag(await metricsText());
    const sync = t.runtime.inbox.sync;
    await sync.storeWebhook('x', Buffer.from('{"for_user_id":"1"}'), {});
    await sync.processPendingWebhooks();
    expect(lag(await metricsText())).toBe(before + 1);
  });
});

describe("the worker's metrics port", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const scrapeWorker = new MetricsScrape(TOKEN, {
      database: t.database,
      boss: t.runtime.boss,
      queueNames: t.runtime.queueNames,
    });
    server = await listenForMetrics(scrapeWorker, {
      port: 0,
      host: '127.0.0.1',
      path: '/api/metrics',
      log: t.app.log,
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

  it('answers the same path and token as the API, and nothing else', async () => {
    const ok = await fetch(`${base}/api/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(await ok.text(), 'herald_job_queue_jobs', { queue: PUBLISH_QUEUE }),
    ).toBeDefined();

    const wrong = await fetch(`${base}/api/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await wrong.json()).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED' });

    const elsewhere = await fetch(`${base}/api/posts`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });
});
