import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { checkFeed, type FeedsDeps } from './feed-check.js';
import * as repo from './feeds.repository.js';
import { renewSubscriptions, secretOf } from './websub.js';

/**
 * WebSub, Cache-Control and retries (docs/feeds.md): a local server serves the feeds and plays
 * the hub (it records the subscription requests it is sent); the hub's calls to Herald's
 * callback are made by the test, as the hub would make them.
 */
let t: TestApp;
let server: Server;
let port: number;
let owner: Actor;
let orgId: string;
let xId: string;

const served = new Map<string, { body: string; type: string; cacheControl?: string }>();
const hubRequests: URLSearchParams[] = [];
let hubStatus = 202;
const urlOf = (path: string) => `http://127.0.0.1:${port}${path}`;
const base = () => `/api/organizations/${orgId}/feeds`;

const atom = (entries: Array<{ id: string; title: string }>, hub = true) =>
  `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Harbour news</title><id>urn:harbour</id>
${hub ? `<link rel="hub" href="${urlOf('/hub')}"/>` : ''}
<link rel="self" href="${urlOf('/topic.xml')}"/>
<updated>2026-12-01T10:00:00Z</updated>
${entries
  .map(
    (e) =>
      `<entry><id>urn:${e.id}</id><title>${e.title}</title><link href="https://harbour.example/${e.id}"/><updated>2026-12-01T10:00:00Z</updated></entry>`,
  )
  .join('\n')}
</feed>`;

const deps = (now = () => new Date()): FeedsDeps => ({
  db: t.database.db,
  media: t.runtime.media,
  lifecycle: { scheduled: async () => {}, unscheduled: async () => {} },
  now,
  mediaImport: { maxBytes: 10 * 1024 * 1024, allowPrivate: [`127.0.0.1:${port}`] },
  minIntervalMs: 15 * 60_000,
  websub: t.runtime.feedsWebSub,
  log: t.app.log,
});

const feedRow = async (id: string) => (await repo.findFeedById(t.database.db, id))!;
const itemsOf = async (feedId: string) =>
  (await owner.call('GET', `${base()}/${feedId}`)).body.data.items as Array<{
    title: string;
    outcome: string;
    postId: string | null;
    error: string | null;
    attempts: number;
  }>;

const callback = (feedId: string) => `/api/websub/feeds/${feedId}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/hub' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        hubRequests.push(new URLSearchParams(body));
        res.writeHead(hubStatus).end();
      });
      return;
    }
    const answer = served.get(path);
    if (!answer) return res.writeHead(404).end('not here');
    res
      .writeHead(200, {
        'content-type': answer.type,
        ...(answer.cacheControl ? { 'cache-control': answer.cacheControl } : {}),
      })
      .end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  t = await createTestApp({ MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${port}` });
  ({ owner, orgId } = await createOrg(t.app, 'websub.owner@feeds.test', 'Harbour Co'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const accounts = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
  xId = (accounts.body.data.platforms as Array<{ id: string }>)[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('WebSub', () => {
  let feedId: string;
  let secret: string;

  it('subscribes to the hub the feed advertises, with a callback on the public URL', async () => {
    served.set('/topic.xml', {
      type: 'application/atom+xml',
      body: atom([{ id: 'one', title: 'Boats are back' }]),
    });
    const res = await owner.call('POST', base(), {
      url: urlOf('/topic.xml'),
      integrationIds: [xId],
      importLatest: 0,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    feedId = res.body.data.feed.id;
    expect(hubRequests).toHaveLength(1);
    const asked = hubRequests[0]!;
    expect(asked.get('hub.mode')).toBe('subscribe');
    expect(asked.get('hub.topic')).toBe(urlOf('/topic.xml'));
    expect(asked.get('hub.callback')).toBe(`${TEST_PUBLIC_URL}/api/websub/feeds/${feedId}`);
    expect(asked.get('hub.lease_seconds')).toBe(String(10 * 24 * 3600));
    secret = asked.get('hub.secret')!;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const row = await feedRow(feedId);
    expect(row.websubState).toBe('pending');
    // The secret is not stored, only what it is derived from.
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(secretOf(t.runtime.feedsWebSub.secretKey, row.websubNonce!)).toBe(secret);
  });

  it("verifies the hub's intent for its own topic only", async () => {
    const wrong = await t.app.inject({
      method: 'GET',
      url: `${callback(feedId)}?hub.mode=subscribe&hub.topic=${encodeURIComponent(urlOf('/other.xml'))}&hub.challenge=nope`,
    });
    expect(wrong.statusCode).toBe(404);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${callback('00000000-0000-4000-8000-000000000000')}?hub.mode=subscribe&hub.topic=x&hub.challenge=nope`,
    });
    expect(unknown.statusCode).toBe(404);
    const verified = await t.app.inject({
      method: 'GET',
      url: `${callback(feedId)}?hub.mode=subscribe&hub.topic=${encodeURIComponent(urlOf('/topic.xml'))}&hub.challenge=c-4711&hub.lease_seconds=3600`,
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.body).toBe('c-4711');
    const row = await feedRow(feedId);
    expect(row.websubState).toBe('subscribed');
    const lease = row.websubLeaseExpiresAt!.getTime() - Date.now();
    expect(lease).toBeGreaterThan(3500_000);
    expect(lease).toBeLessThanOrEqual(3600_000);

    // A hub's lease is taken up to 30 days, however long it offers.
    const verify = (seconds: number) =>
      t.app.inject({
        method: 'GET',
        url: `${callback(feedId)}?hub.mode=subscribe&hub.topic=${encodeURIComponent(urlOf('/topic.xml'))}&hub.challenge=renew&hub.lease_seconds=${seconds}`,
      });
    expect((await verify(999_999_999_999)).statusCode).toBe(200);
    const long = (await feedRow(feedId)).websubLeaseExpiresAt!.getTime() - Date.now();
    expect(long).toBeGreaterThan(29 * 24 * 3600_000);
    expect(long).toBeLessThanOrEqual(30 * 24 * 3600_000);
    expect((await verify(3600)).statusCode).toBe(200);
  });

  it('makes posts of a signed push only, and polls less often while pushes come', async () => {
    const body = atom([
      { id: 'two', title: 'Regatta on Sunday' },
      { id: 'one', title: 'Boats are back' },
    ]);
    const push = (signature?: string) =>
      t.app.inject({
        method: 'POST',
        url: callback(feedId),
        headers: {
          'content-type': 'application/atom+xml',
          ...(signature ? { 'x-hub-signature': signature } : {}),
        },
        payload: body,
      });
    const forged = createHmac('sha256', 'not the secret').update(body).digest('hex');
    for (const signature of [undefined, `sha256=${forged}`, 'md5=abc']) {
      const res = await push(signature);
      expect(res.statusCode, signature).toBe(202);
    }
    expect((await itemsOf(feedId)).filter((i) => i.outcome === 'posted')).toHaveLength(0);

    const signed = createHmac('sha1', secret).update(body).digest('hex');
    const res = await push(`sha1=${signed}`);
    expect(res.statusCode, res.body).toBe(204);
    const posted = (await itemsOf(feedId)).filter((i) => i.outcome === 'posted');
    expect(posted.map((i) => i.title)).toEqual(['Regatta on Sunday']);
    // The same push again makes no second post.
    expect((await push(`sha1=${signed}`)).statusCode).toBe(204);
    expect((await itemsOf(feedId)).filter((i) => i.outcome === 'posted')).toHaveLength(1);
    const row = await feedRow(feedId);
    expect(row.nextCheckAt.getTime() - row.lastCheckedAt!.getTime()).toBe(6 * 3_600_000);
  });

  it('renews the lease before it ends, with the same secret', async () => {
    const before = hubRequests.length;
    const row = await feedRow(feedId);
    const soon = new Date(row.websubLeaseExpiresAt!.getTime() - 5 * 60_000);
    expect(await renewSubscriptions(deps(() => soon))).toBe(1);
    expect(hubRequests).toHaveLength(before + 1);
    expect(hubRequests.at(-1)!.get('hub.secret')).toBe(secret);
    expect((await feedRow(feedId)).websubState).toBe('pending');
    // Far from the end, nothing is asked.
    const verified = await t.app.inject({
      method: 'GET',
      url: `${callback(feedId)}?hub.mode=subscribe&hub.topic=${encodeURIComponent(urlOf('/topic.xml'))}&hub.challenge=again&hub.lease_seconds=3600`,
    });
    expect(verified.body).toBe('again');
    expect(await renewSubscriptions(deps())).toBe(0);
    expect(hubRequests).toHaveLength(before + 1);
  });

  it('falls back to polling at once when the lease ends unrenewed or the hub refuses', async () => {
    const row = await feedRow(feedId);
    const after = new Date(row.websubLeaseExpiresAt!.getTime() + 60_000);
    await renewSubscriptions(deps(() => after));
    const lapsed = await feedRow(feedId);
    expect(lapsed.websubState).toBe('failed');
    expect(lapsed.websubError).toContain('polling');
    expect(lapsed.nextCheckAt.getTime()).toBe(after.getTime());
    // Whoever knows the callback cannot bring a lapsed subscription back, with any lease.
    const revived = await t.app.inject({
      method: 'GET',
      url: `${callback(feedId)}?hub.mode=subscribe&hub.topic=${encodeURIComponent(urlOf('/topic.xml'))}&hub.challenge=back&hub.lease_seconds=999999999999`,
    });
    expect(revived.statusCode).toBe(404);
    expect((await feedRow(feedId)).websubState).toBe('failed');

    // A hub that refuses: the feed is polled as before, the refusal said in words.
    served.set('/refused.xml', {
      type: 'application/atom+xml',
      body: atom([{ id: 'r', title: 'Refused' }]).replaceAll(
        urlOf('/topic.xml'),
        urlOf('/refused.xml'),
      ),
    });
    hubStatus = 403;
    const res = await owner.call('POST', base(), {
      url: urlOf('/refused.xml'),
      integrationIds: [xId],
      importLatest: 0,
    });
    hubStatus = 202;
    expect(res.status).toBe(201);
    const refused = await feedRow(res.body.data.feed.id);
    expect(refused.websubState).toBe('failed');
    expect(refused.websubError).toBe(
      "The feed's WebSub hub refused the subscription (HTTP 403); Herald checks the feed by polling.",
    );
    expect(refused.nextCheckAt.getTime() - refused.lastCheckedAt!.getTime()).toBe(15 * 60_000);
  });
});

describe('Cache-Control', () => {
  it('takes max-age as the least wait before the next poll', async () => {
    served.set('/cached.xml', {
      type: 'application/atom+xml',
      cacheControl: 'public, max-age=7200',
      body: atom([{ id: 'c', title: 'Cached' }], false),
    });
    const res = await owner.call('POST', base(), {
      url: urlOf('/cached.xml'),
      integrationIds: [xId],
      importLatest: 0,
    });
    expect(res.status).toBe(201);
    const row = await feedRow(res.body.data.feed.id);
    expect(row.nextCheckAt.getTime() - row.lastCheckedAt!.getTime()).toBe(2 * 3_600_000);
    // Shorter than the minimum interval: the minimum holds.
    served.set('/cached.xml', { ...served.get('/cached.xml')!, cacheControl: 'max-age=60' });
    await checkFeed(deps(), row);
    const again = await feedRow(row.id);
    expect(again.nextCheckAt.getTime() - again.lastCheckedAt!.getTime()).toBe(15 * 60_000);
  });
});

describe('failed items', () => {
  it('tries an item whose post could not be made again at the next checks, up to three times', async () => {
    // No queue slot: a queued post cannot be made.
    const none = await owner.call('PUT', `/api/organizations/${orgId}/queue/${xId}`, { slots: [] });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    served.set('/queue.xml', {
      type: 'application/atom+xml',
      body: atom([{ id: 'q', title: 'Queued later' }], false),
    });
    const res = await owner.call('POST', base(), {
      url: urlOf('/queue.xml'),
      integrationIds: [xId],
      destination: 'queue',
      importLatest: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.feed.id as string;
    let [item] = await itemsOf(id);
    expect(item).toMatchObject({ outcome: 'failed', attempts: 1 });
    expect(item!.error).toMatch(/queue/i);

    await checkFeed(deps(), await feedRow(id));
    [item] = await itemsOf(id);
    expect(item).toMatchObject({ outcome: 'failed', attempts: 2 });

    // The queue gets a slot: the next try makes the post.
    const slots = await owner.call('PUT', `/api/organizations/${orgId}/queue/${xId}`, {
      slots: [{ weekday: 1, time: '09:00' }],
    });
    expect(slots.status, JSON.stringify(slots.body)).toBe(200);
    await checkFeed(deps(), await feedRow(id));
    [item] = await itemsOf(id);
    expect(item).toMatchObject({ outcome: 'posted', attempts: 3, error: null });
    expect(item!.postId).toBeTruthy();
    await checkFeed(deps(), await feedRow(id));
    expect(await itemsOf(id)).toHaveLength(1);
  });

  it('stops trying after the third failure, keeping its reason', async () => {
    await owner.call('PUT', `/api/organizations/${orgId}/queue/${xId}`, { slots: [] });
    served.set('/stuck.xml', {
      type: 'application/atom+xml',
      body: atom([{ id: 's', title: 'Never queued' }], false),
    });
    const res = await owner.call('POST', base(), {
      url: urlOf('/stuck.xml'),
      integrationIds: [xId],
      destination: 'queue',
      importLatest: 1,
    });
    const id = res.body.data.feed.id as string;
    for (let i = 0; i < 4; i++) await checkFeed(deps(), await feedRow(id));
    const [item] = await itemsOf(id);
    expect(item).toMatchObject({ outcome: 'failed', attempts: 3 });
    expect(item!.error).toMatch(/queue/i);
  });
});
