import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { png } from '../../test/media-fixtures.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { checkDueFeeds, checkFeed, type FeedsDeps } from './feed-check.js';
import * as repo from './feeds.repository.js';

/**
 * Feeds served by a local server on loopback (allowed by the test-only MEDIA_IMPORT_ALLOW_PRIVATE
 * for its port alone). Each path answers what the test puts there, honours If-None-Match with
 * a 304, and counts what it was asked.
 */
let t: TestApp;
let server: Server;
let port: number;
let mediaDir: string;
let owner: Actor;
let orgId: string;
let xId: string;
let image: Buffer;

interface Served {
  body: string | Buffer;
  type: string;
  etag?: string;
  lastModified?: string;
}
const served = new Map<string, Served>();
const asked = new Map<string, IncomingHttpHeaders[]>();
const urlOf = (path: string) => `http://127.0.0.1:${port}${path}`;
const base = () => `/api/organizations/${orgId}/feeds`;

beforeAll(async () => {
  image = await png(400, 300);
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    asked.set(path, [...(asked.get(path) ?? []), req.headers]);
    const answer = served.get(path);
    if (!answer) return res.writeHead(404).end('not here');
    if (answer.etag && req.headers['if-none-match'] === answer.etag)
      return res.writeHead(304).end();
    if (answer.lastModified && req.headers['if-modified-since'] === answer.lastModified)
      return res.writeHead(304).end();
    res
      .writeHead(200, {
        'content-type': answer.type,
        ...(answer.etag ? { etag: answer.etag } : {}),
        ...(answer.lastModified ? { 'last-modified': answer.lastModified } : {}),
      })
      .end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  served.set('/image.png', { body: image, type: 'image/png' });
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-feeds-'));
  t = await createTestApp({
    MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${port}`,
    MEDIA_DIR: join(mediaDir, 'store'),
    MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
  });
  ({ owner, orgId } = await createOrg(t.app, 'feeds.owner@feeds.test', 'Feeds Co'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const accounts = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
  xId = (accounts.body.data.platforms as Array<{ id: string }>)[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(mediaDir, { recursive: true, force: true });
});

const rss = (items: Array<{ guid: string; title: string; image?: boolean; date?: string }>) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>Example &amp; Co blog</title><link>https://blog.example.com/</link><ttl>5</ttl>
${items
  .map(
    (i) => `<item><title>${i.title}</title><link>https://blog.example.com/${i.guid}</link>
<guid isPermaLink="false">${i.guid}</guid><description>&lt;p&gt;About ${i.title}.&lt;/p&gt;</description>
<pubDate>${i.date ?? 'Tue, 01 Dec 2026 10:00:00 GMT'}</pubDate>
${i.image ? `<enclosure url="${urlOf('/image.png')}" length="${image.length}" type="image/png"/>` : ''}</item>`,
  )
  .join('\n')}
</channel></rss>`;

async function addFeed(body: Record<string, unknown>, actor = owner) {
  return actor.call('POST', base(), { integrationIds: [xId], ...body });
}

const postOf = async (postId: string) =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${postId}`)).body.data.post;

const itemsOf = async (feedId: string) =>
  (await owner.call('GET', `${base()}/${feedId}`)).body.data.items as Array<{
    title: string;
    outcome: string;
    postId: string | null;
    error: string | null;
  }>;

const deps = (): FeedsDeps => ({
  db: t.database.db,
  media: t.runtime.media,
  lifecycle: { scheduled: async () => {}, unscheduled: async () => {} },
  now: () => new Date(),
  mediaImport: { maxBytes: 10 * 1024 * 1024, allowPrivate: [`127.0.0.1:${port}`] },
  minIntervalMs: 15 * 60_000,
  log: t.app.log,
});

describe('RSS 2.0', () => {
  it('takes the importLatest newest items at the first check, as drafts with their image and source', async () => {
    served.set('/rss.xml', {
      type: 'application/rss+xml',
      etag: '"v1"',
      body: rss([
        { guid: 'c', title: 'Third', image: true, date: 'Thu, 03 Dec 2026 10:00:00 GMT' },
        { guid: 'b', title: 'Second', date: 'Wed, 02 Dec 2026 10:00:00 GMT' },
        { guid: 'a', title: 'First', date: 'Tue, 01 Dec 2026 10:00:00 GMT' },
      ]),
    });
    const res = await addFeed({ url: urlOf('/rss.xml'), importLatest: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const feed = res.body.data.feed;
    expect(feed.title).toBe('Example & Co blog');
    expect(res.body.data.check).toMatchObject({ changed: true, itemCount: 3, posted: 1 });

    const items = await itemsOf(feed.id);
    expect(items.map((i) => [i.title, i.outcome]).sort()).toEqual([
      ['First', 'seen'],
      ['Second', 'seen'],
      ['Third', 'posted'],
    ]);
    const post = await postOf(items.find((i) => i.outcome === 'posted')!.postId!);
    expect(post.status).toBe('draft');
    expect(post.content).toBe('Third\n\nhttps://blog.example.com/c');
    expect(post.media).toHaveLength(1);
    expect(post.media[0].mimeType).toBe('image/png');
    expect(post.source).toEqual({
      kind: 'feed',
      feedId: feed.id,
      name: 'Example & Co blog',
      itemUrl: 'https://blog.example.com/c',
    });

    // The server's ETag comes back: an unchanged feed answers 304 and nothing happens.
    const again = await owner.call('POST', `${base()}/${feed.id}/check`);
    expect(again.body.data.check).toMatchObject({ changed: false, posted: 0 });
    expect(asked.get('/rss.xml')!.at(-1)!['if-none-match']).toBe('"v1"');
    expect(await itemsOf(feed.id)).toHaveLength(3);

    // A new item (and the old ones again): only the new one becomes a post, once.
    served.set('/rss.xml', {
      type: 'application/rss+xml',
      etag: '"v2"',
      body: rss([
        { guid: 'd', title: 'Fourth', date: 'Fri, 04 Dec 2026 10:00:00 GMT' },
        { guid: 'c', title: 'Third (edited)', date: 'Sat, 05 Dec 2026 10:00:00 GMT' },
        { guid: 'b', title: 'Second' },
        { guid: 'a', title: 'First' },
      ]),
    });
    const third = await owner.call('POST', `${base()}/${feed.id}/check`);
    expect(third.body.data.check).toMatchObject({ changed: true, itemCount: 4, posted: 1 });
    const after = await itemsOf(feed.id);
    expect(
      after
        .filter((i) => i.outcome === 'posted')
        .map((i) => i.title)
        .sort(),
    ).toEqual(['Fourth', 'Third']);
    // The ttl (5 minutes) is shorter than the minimum interval: the next check waits 15.
    const [row] = [await repo.findFeed(t.database.db, orgId, feed.id)];
    expect(row!.ttlMinutes).toBe(5);
    expect(row!.nextCheckAt.getTime() - row!.lastCheckedAt!.getTime()).toBe(15 * 60_000);
  });

  it('sends Last-Modified back as If-Modified-Since; a 304 changes nothing', async () => {
    const stamp = 'Tue, 01 Dec 2026 10:00:00 GMT';
    served.set('/dated.xml', {
      type: 'application/rss+xml',
      lastModified: stamp,
      body: rss([{ guid: 'd0', title: 'Dated' }]),
    });
    const res = await addFeed({ url: urlOf('/dated.xml') });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const again = await owner.call('POST', `${base()}/${res.body.data.feed.id}/check`);
    expect(again.body.data.check).toMatchObject({ changed: false, itemCount: 0, posted: 0 });
    expect(again.body.data.feed.lastError).toBeNull();
    expect(asked.get('/dated.xml')!.at(-1)!['if-modified-since']).toBe(stamp);
  });

  it('makes one post of an item when two checks run at once', async () => {
    served.set('/race.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'r0', title: 'Old' }]),
    });
    const res = await addFeed({ url: urlOf('/race.xml') });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.check.posted).toBe(0);
    served.set('/race.xml', {
      type: 'application/rss+xml',
      body: rss([
        { guid: 'r2', title: 'Race two' },
        { guid: 'r1', title: 'Race one' },
        { guid: 'r0', title: 'Old' },
      ]),
    });
    const row = (await repo.findFeed(t.database.db, orgId, res.body.data.feed.id))!;
    const checks = await Promise.all([checkFeed(deps(), row), checkFeed(deps(), row)]);
    expect(checks[0]!.posted + checks[1]!.posted).toBe(2);
    const items = await itemsOf(row.id);
    expect(items.filter((i) => i.outcome === 'posted')).toHaveLength(2);
    expect(new Set(items.map((i) => i.postId).filter(Boolean)).size).toBe(2);
  });
});

describe('Atom and JSON Feed', () => {
  it('reads an Atom feed: entry id, alternate link, summary and a media:content image', async () => {
    served.set('/atom.xml', {
      type: 'application/atom+xml',
      body: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
  <title type="text">Atom news</title><id>urn:uuid:feed</id><updated>2026-12-01T10:00:00Z</updated>
  <entry><title>Atom entry</title><id>urn:uuid:entry-1</id><updated>2026-12-01T10:00:00Z</updated>
    <link rel="alternate" href="https://atom.example.com/entry-1"/>
    <summary>A short &lt;b&gt;summary&lt;/b&gt;.</summary>
    <media:content url="${urlOf('/image.png')}" medium="image"/></entry>
</feed>`,
    });
    const res = await addFeed({
      url: urlOf('/atom.xml'),
      importLatest: 5,
      template: '{feed}: {title}\n{summary}\n{link}',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [item] = await itemsOf(res.body.data.feed.id);
    const post = await postOf(item!.postId!);
    expect(post.content).toBe(
      'Atom news: Atom entry\nA short summary.\nhttps://atom.example.com/entry-1',
    );
    expect(post.media).toHaveLength(1);
  });

  it('reads a JSON Feed: id, url, content_text and image', async () => {
    served.set('/feed.json', {
      type: 'application/feed+json',
      body: JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'JSON news',
        items: [
          {
            id: 'j1',
            url: 'https://json.example.com/j1',
            title: 'JSON item',
            content_text: 'Plain text.',
            image: urlOf('/image.png'),
            date_published: '2026-12-01T10:00:00Z',
          },
        ],
      }),
    });
    const res = await addFeed({ url: urlOf('/feed.json'), importLatest: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [item] = await itemsOf(res.body.data.feed.id);
    const post = await postOf(item!.postId!);
    expect(post.content).toBe('JSON item\n\nhttps://json.example.com/j1');
    expect(post.media).toHaveLength(1);
    expect(post.source.name).toBe('JSON news');
  });
});

describe('refusals', () => {
  it('refuses a web page, a 404 and broken JSON with a sentence, storing nothing', async () => {
    served.set('/page.html', {
      type: 'text/html',
      body: '<!doctype html><html><body>Hi</body></html>',
    });
    const page = await addFeed({ url: urlOf('/page.html') });
    expect(page.status).toBe(400);
    expect(page.body.message).toMatch(/web page, not a feed/);
    const missing = await addFeed({ url: urlOf('/nothing.xml') });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(
      "The feed's server answered HTTP 404 (nothing is at this address).",
    );
    const before = (await owner.call('GET', base())).body.data.feeds.length;
    served.set('/bad.json', { type: 'application/json', body: '{"version": "1"' });
    expect((await addFeed({ url: urlOf('/bad.json') })).status).toBe(400);
    expect((await owner.call('GET', base())).body.data.feeds).toHaveLength(before);
  });

  it('refuses private and local addresses', async () => {
    const privateAddress = await addFeed({ url: 'http://10.1.2.3/feed.xml' });
    expect(privateAddress.status).toBe(400);
    expect(privateAddress.body.message).toBe(
      'The feed address points at a private or local address (10.1.2.3), which Herald does not fetch from.',
    );
    // Loopback on a port the allowance does not name.
    const otherPort = await addFeed({ url: `http://127.0.0.1:${port + 1}/feed.xml` });
    expect(otherPort.status).toBe(400);
    expect(otherPort.body.message).toMatch(/private or local address \(127\.0\.0\.1\)/);
  });

  it('never expands entities: a billion-laughs feed reads as written', async () => {
    const lol = (n: number) => `&lol${n === 0 ? '' : n};`.repeat(10);
    const declarations = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${lol(i)}">`),
    ].join('\n');
    served.set('/laughs.xml', {
      type: 'application/rss+xml',
      body: `<?xml version="1.0"?>
<!DOCTYPE rss [
${declarations}
]>
<rss version="2.0"><channel><title>Laughs &lol9;</title>
<item><title>Ha &lol9;</title><link>https://laughs.example.com/1</link><guid>l1</guid></item>
</channel></rss>`,
    });
    const res = await addFeed({ url: urlOf('/laughs.xml'), importLatest: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.feed.title).toBe('Laughs &lol9;');
    const [item] = await itemsOf(res.body.data.feed.id);
    const post = await postOf(item!.postId!);
    expect(post.content).toBe('Ha &lol9;\n\nhttps://laughs.example.com/1');
  });

  it('refuses a feed declaring an external entity, reading nothing it names', async () => {
    served.set('/xxe.xml', {
      type: 'application/rss+xml',
      body: `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "${urlOf('/secret.txt')}">]>
<rss version="2.0"><channel><title>XXE</title>
<item><title>Secret &xxe;</title><link>https://xxe.example.com/1</link></item>
</channel></rss>`,
    });
    served.set('/secret.txt', { type: 'text/plain', body: 'the secret' });
    const res = await addFeed({ url: urlOf('/xxe.xml'), importLatest: 1 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'This address does not answer a feed Herald can read: the XML is broken (External entities are not supported).',
    );
    expect(asked.get('/secret.txt')).toBeUndefined();
  });

  it('refuses a feed larger than the cap', async () => {
    served.set('/huge.xml', {
      type: 'application/rss+xml',
      body: `<rss version="2.0"><channel><title>${'x'.repeat(6 * 1024 * 1024)}</title></channel></rss>`,
    });
    const res = await addFeed({ url: urlOf('/huge.xml') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The feed is larger than the 5 MB Herald reads.');
  });

  it('stores a failed check in plain words and backs off', async () => {
    served.set('/flaky.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'f', title: 'F' }]),
    });
    const res = await addFeed({ url: urlOf('/flaky.xml') });
    const id = res.body.data.feed.id;
    served.delete('/flaky.xml');
    const first = await owner.call('POST', `${base()}/${id}/check`);
    expect(first.body.data.feed.lastError).toBe(
      "The feed's server answered HTTP 404 (nothing is at this address).",
    );
    expect(first.body.data.feed.errorCount).toBe(1);
    const second = await owner.call('POST', `${base()}/${id}/check`);
    expect(second.body.data.feed.errorCount).toBe(2);
    const row = (await repo.findFeed(t.database.db, orgId, id))!;
    // 15 minutes doubled once after the second failure in a row.
    expect(row.nextCheckAt.getTime() - row.lastCheckedAt!.getTime()).toBe(30 * 60_000);
  });
});

describe('destinations and access', () => {
  it('queues at the next free slot, or submits for approval', async () => {
    const slots = await owner.call('PUT', `/api/organizations/${orgId}/queue/${xId}`, {
      slots: [{ weekday: 1, time: '09:00' }],
    });
    expect(slots.status, JSON.stringify(slots.body)).toBe(200);
    served.set('/queue.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'q', title: 'Queued' }]),
    });
    const queued = await addFeed({
      url: urlOf('/queue.xml'),
      destination: 'queue',
      importLatest: 1,
    });
    expect(queued.status, JSON.stringify(queued.body)).toBe(201);
    const [qItem] = await itemsOf(queued.body.data.feed.id);
    const qPost = await postOf(qItem!.postId!);
    expect(qPost.status).toBe('scheduled');
    expect(new Date(qPost.scheduledAt).getTime()).toBeGreaterThan(Date.now());

    served.set('/approve.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'p', title: 'Please' }]),
    });
    const approval = await addFeed({
      url: urlOf('/approve.xml'),
      destination: 'approval',
      importLatest: 1,
    });
    expect(approval.status, JSON.stringify(approval.body)).toBe(201);
    const [aItem] = await itemsOf(approval.body.data.feed.id);
    const aPost = await postOf(aItem!.postId!);
    expect(aPost.status).toBe('pending_approval');
    const waiting = await owner.call('GET', `/api/organizations/${orgId}/approvals`);
    expect(JSON.stringify(waiting.body)).toContain(aPost.id);
  });

  it('cuts the text to the network limit without cutting the link', async () => {
    const long = 'word '.repeat(200).trim();
    served.set('/long.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'long', title: long }]),
    });
    const res = await addFeed({ url: urlOf('/long.xml'), importLatest: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [item] = await itemsOf(res.body.data.feed.id);
    expect(item!.outcome).toBe('posted');
    const post = await postOf(item!.postId!);
    const forX = post.content[xId] as string;
    expect(forX.endsWith('…\n\nhttps://blog.example.com/long')).toBe(true);
  });

  it('lets a member limited to some accounts target only those, and hides other feeds', async () => {
    const { actor: limited, memberId } = await addMember(t.app, owner, orgId, 'limited@feeds.test');
    await owner.call('PUT', `/api/organizations/${orgId}/members/${memberId}/accounts`, {
      integrationIds: [],
    });
    served.set('/limited.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'x', title: 'X' }]),
    });
    const refused = await addFeed({ url: urlOf('/limited.xml') }, limited);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/You don't have access to/);
    expect((await limited.call('GET', base())).body.data.feeds).toEqual([]);
  });
});

describe('preview', () => {
  it("shows the newest item's post text through the template, storing nothing", async () => {
    served.set('/preview.xml', {
      type: 'application/rss+xml',
      body: rss([
        { guid: 'p2', title: 'Newest', date: 'Thu, 03 Dec 2026 10:00:00 GMT' },
        { guid: 'p1', title: 'Older', date: 'Wed, 02 Dec 2026 10:00:00 GMT' },
      ]),
    });
    const before = (await owner.call('GET', base())).body.data.feeds.length;
    const res = await owner.call('POST', `${base()}/preview`, {
      url: urlOf('/preview.xml'),
      template: 'New: {title} {link}',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.preview).toEqual({
      title: 'Example & Co blog',
      itemCount: 2,
      firstItem: {
        title: 'Newest',
        link: 'https://blog.example.com/p2',
        text: 'New: Newest https://blog.example.com/p2',
      },
    });
    expect((await owner.call('GET', base())).body.data.feeds).toHaveLength(before);
    const unknown = await owner.call('POST', `${base()}/preview`, {
      url: urlOf('/preview.xml'),
      template: '{title} {body}',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/uses \{body\}, which Herald does not know/);
  });
});

describe('editing and the cron', () => {
  it('pauses, resumes, edits and removes a feed; the cron checks only due, running feeds', async () => {
    served.set('/cron.xml', {
      type: 'application/rss+xml',
      body: rss([{ guid: 'c0', title: 'Zero' }]),
    });
    const created = await addFeed({ url: urlOf('/cron.xml') });
    const id = created.body.data.feed.id as string;

    const paused = await owner.call('PATCH', `${base()}/${id}`, { paused: true });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data.feed).toMatchObject({ paused: true, nextCheckAt: null });

    served.set('/cron.xml', {
      type: 'application/rss+xml',
      body: rss([
        { guid: 'c1', title: 'One' },
        { guid: 'c0', title: 'Zero' },
      ]),
    });
    const later = new Date(Date.now() + 60 * 60_000);
    await checkDueFeeds({ ...deps(), now: () => later });
    expect((await itemsOf(id)).map((i) => i.title)).toEqual(['Zero']);

    const resumed = await owner.call('PATCH', `${base()}/${id}`, {
      paused: false,
      template: '{title}! {link}',
      destination: 'draft',
    });
    expect(resumed.body.data.feed).toMatchObject({ paused: false, template: '{title}! {link}' });
    await checkDueFeeds({ ...deps(), now: () => later });
    const items = await itemsOf(id);
    const one = items.find((i) => i.title === 'One')!;
    expect(one.outcome).toBe('posted');
    expect((await postOf(one.postId!)).content).toBe('One! https://blog.example.com/c1');

    // Not due again before the interval: the cron leaves it alone.
    served.set('/cron.xml', {
      type: 'application/rss+xml',
      body: rss([
        { guid: 'c2', title: 'Two' },
        { guid: 'c1', title: 'One' },
      ]),
    });
    await checkDueFeeds({ ...deps(), now: () => new Date(later.getTime() + 60_000) });
    expect(await itemsOf(id)).toHaveLength(2);

    const nothing = await owner.call('PATCH', `${base()}/${id}`, {});
    expect(nothing.status).toBe(400);
    const removed = await owner.call('DELETE', `${base()}/${id}`);
    expect(removed.status).toBe(200);
    expect((await owner.call('GET', `${base()}/${id}`)).status).toBe(404);
    // Its post stays.
    expect((await postOf(one.postId!)).source.name).toBe('Example & Co blog');
  });
});
