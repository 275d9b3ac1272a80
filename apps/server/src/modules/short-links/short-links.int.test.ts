import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrgCast, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { shortenLinks, targetShortensLinks } from './short-links.service.js';

/** Short links (docs/analytics.md#short-links): made once at publish, followed, counted. */
let t: TestApp;
let owner: Actor;
let outsider: Actor;
let orgId: string;
let xId: string;
let threadsId: string;

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const SHORT = new RegExp(`${TEST_PUBLIC_URL}/l/[A-Za-z0-9]{10}`, 'g');
const today = new Date().toISOString().slice(0, 10);
const range = `from=${today}&to=${today}&timezone=UTC`;

async function create(fields: Record<string, string>, ids = [xId, threadsId]) {
  const body = await multipart({ integrationIds: JSON.stringify(ids), ...fields });
  return send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
}

async function publish(fields: Record<string, string>) {
  const res = await create(fields);
  expect(res.statusCode, res.body).toBe(201);
  const post = res.json().data.post as { id: string; content: string; shortLinks: boolean | null };
  const now = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
    platforms: ['X', 'Threads'],
  });
  expect(now.status, JSON.stringify(now.body)).toBe(200);
  return post;
}

/** The text each network received for the post whose text starts with `start`. */
async function sent(start: string) {
  const read = async (network: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sandbox/${network}/_emu/posts`,
      headers: { cookie: owner.jar.header() },
    });
    const posts = res.json().posts as Array<{ text: string }>;
    return posts.map((p) => p.text).filter((text) => text.startsWith(start));
  };
  return { x: await read('x'), threads: await read('threads') };
}

const follow = (path: string, userAgent = BROWSER, method = 'GET') =>
  t.app.inject({
    method: method as 'GET' | 'HEAD',
    url: path,
    headers: { 'user-agent': userAgent },
  });

const pathOf = (shortUrl: string) => new URL(shortUrl).pathname;

interface ClickRow {
  postId: string;
  targetId: string;
  platform: string;
  accountName: string | null;
  clicks: number;
  links: Array<{ shortUrl: string; url: string; clicks: number }>;
}
const clicksOf = async (actor: Actor = owner) =>
  actor.call('GET', `/api/organizations/${orgId}/analytics/link-clicks?${range}`);

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId, outsider } = await createOrgCast(t.app, 'shortlinks.test', 'Short Co'));
  const accounts = async () =>
    (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms as Array<{ id: string }>;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  xId = (await accounts())[0]!.id;
  expect(await connectThroughSandbox(t.app, owner, 'threads', orgId)).toContain('connected=');
  threadsId = (await accounts()).find((a) => a.id !== xId)!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('short links', () => {
  let xCodes: string[];
  let threadsCodes: string[];
  let postId: string;

  it('replaces each link of each account once at publish, keeping the stored text as written', async () => {
    const text = 'Spring menu https://cafe.test/menu?day=mon and https://cafe.test/book.';
    const post = await publish({
      content: text,
      shortLinks: 'true',
      linkTracking: JSON.stringify({ campaign: 'spring' }),
    });
    postId = post.id;
    expect(post.content).toBe(text);
    expect(post.shortLinks).toBe(true);
    const { x, threads } = await sent('Spring menu');
    expect(x).toHaveLength(1);
    expect(threads).toHaveLength(1);
    xCodes = x[0]!.match(SHORT) ?? [];
    threadsCodes = threads[0]!.match(SHORT) ?? [];
    expect(xCodes).toHaveLength(2);
    expect(threadsCodes).toHaveLength(2);
    expect(x[0]).toBe(`Spring menu ${xCodes[0]} and ${xCodes[1]}.`);
    // Each account's text has its own links, so each counts its own clicks.
    expect(new Set([...xCodes, ...threadsCodes]).size).toBe(4);
    const stored = await owner.call('GET', `/api/organizations/${orgId}/posts/${post.id}`);
    expect(stored.body.data.post.content).toBe(text);
  });

  it('gives the same text to a target sent again, whatever the codes drawn', async () => {
    const clicks = (await clicksOf()).body.data.targets as ClickRow[];
    const xTarget = clicks.find((r) => r.postId === postId && r.platform === 'X')!;
    const target = { organizationId: orgId, postId, targetId: xTarget.targetId };
    // The text as the publisher sends it again: tracked the same way.
    const utm = 'utm_source=x&utm_medium=social&utm_campaign=spring';
    const text = `Again https://cafe.test/menu?day=mon&${utm} and https://cafe.test/book?${utm}`;
    const base = `${TEST_PUBLIC_URL}/l/`;
    const first = await shortenLinks(t.database.db, target, text, base);
    const second = await shortenLinks(t.database.db, target, text, base);
    expect(second).toBe(first);
    expect(first).toBe(`Again ${xCodes[0]} and ${xCodes[1]}`);
  });

  it('redirects to the link with its UTM parameters and counts clicks per account', async () => {
    const first = await follow(pathOf(xCodes[0]!));
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(
      'https://cafe.test/menu?day=mon&utm_source=x&utm_medium=social&utm_campaign=spring',
    );
    expect(first.headers['cache-control']).toBe('no-store');
    expect((await follow(pathOf(xCodes[0]!))).statusCode).toBe(302);
    const threads = await follow(pathOf(threadsCodes[1]!));
    expect(threads.headers.location).toBe(
      'https://cafe.test/book?utm_source=threads&utm_medium=social&utm_campaign=spring',
    );

    const res = await clicksOf();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = (res.body.data.targets as ClickRow[]).filter((r) => r.postId === postId);
    const byNetwork = Object.fromEntries(rows.map((r) => [r.platform, r]));
    expect(byNetwork.X!.clicks).toBe(2);
    expect(byNetwork.X!.links.map((l) => [l.shortUrl, l.clicks])).toEqual([
      [xCodes[0], 2],
      [xCodes[1], 0],
    ]);
    expect(byNetwork.Threads!.clicks).toBe(1);
    expect(byNetwork.Threads!.links[1]!.url).toBe(
      'https://cafe.test/book?utm_source=threads&utm_medium=social&utm_campaign=spring',
    );
  });

  it('does not count robots, link previews or a HEAD', async () => {
    const path = pathOf(xCodes[1]!);
    for (const agent of [
      'Twitterbot/1.0',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'curl/8.5.0',
      // None at all: browsers always send one.
      '',
    ]) {
      const res = await follow(path, agent);
      expect(res.statusCode, agent).toBe(302);
      expect(res.headers.location).toBe(
        'https://cafe.test/book?utm_source=x&utm_medium=social&utm_campaign=spring',
      );
    }
    expect((await follow(path, BROWSER, 'HEAD')).statusCode).toBe(302);
    const rows = (await clicksOf()).body.data.targets as ClickRow[];
    const x = rows.find((r) => r.postId === postId && r.platform === 'X')!;
    expect(x.links[1]!.clicks).toBe(0);
    // A browser's visit is counted.
    await follow(path);
    const after = (await clicksOf()).body.data.targets as ClickRow[];
    expect(after.find((r) => r.postId === postId && r.platform === 'X')!.links[1]!.clicks).toBe(1);
  });

  it('sends a link written in another script as a Location header can carry it', async () => {
    await publish({ content: 'Menu https://例え.test/メニュー?día=lunes 🍲', shortLinks: 'true' });
    const { x } = await sent('Menu ');
    const [link] = x[0]!.match(SHORT) ?? [];
    const res = await follow(pathOf(link!));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      'https://xn--r8jz45g.test/%E3%83%A1%E3%83%8B%E3%83%A5%E3%83%BC?d%C3%ADa=lunes',
    );
  });

  it('answers an unknown code with a 404 page', async () => {
    for (const path of ['/l/AAAAAAAAAA', '/l/short', '/l/..%2F..%2Fetc']) {
      const res = await follow(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('This link does not exist');
    }
  });

  it('shows the clicks to members who see analytics only, and in the CSV export', async () => {
    expect((await clicksOf(outsider)).status).toBe(403);
    const csv = await send(t.app, owner.jar, {
      method: 'GET',
      url: `/api/organizations/${orgId}/analytics/export.csv?${range}`,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const header = lines[0]!.split(',').map((cell) => cell.replace(/^"|"$/g, ''));
    const column = header.indexOf('short_link_clicks');
    expect(column).toBe(header.length - 1);
    const ours = lines.filter((l) => l.includes(postId));
    expect(ours.map((l) => l.split(',').at(-1)).sort()).toEqual(['1', '3']);
  });

  it('follows the organization’s setting when the post does not choose', async () => {
    const url = `/api/organizations/${orgId}/link-tracking`;
    const saved = await owner.call('PUT', url, {
      enabledByDefault: false,
      tracking: { campaign: '' },
      shortLinks: true,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.settings.shortLinks).toBe(true);
    const post = await publish({ content: 'Org default https://cafe.test/org' });
    expect(post.shortLinks).toBeNull();
    const { x } = await sent('Org default');
    expect(x[0]).toMatch(new RegExp(`^Org default ${TEST_PUBLIC_URL}/l/[A-Za-z0-9]{10}$`));
    // A post that says no keeps its links.
    await publish({ content: 'Opted out https://cafe.test/out', shortLinks: 'false' });
    expect((await sent('Opted out')).x).toEqual(['Opted out https://cafe.test/out']);
    await owner.call('PUT', url, { enabledByDefault: false, tracking: { campaign: '' } });
  });

  it('decides a target that follows the organization on its first run, and keeps to it', async () => {
    const clicks = (await clicksOf()).body.data.targets as ClickRow[];
    const withLinks = clicks.find((r) => r.postId === postId && r.platform === 'X')!.targetId;
    const withoutLinks = '00000000-0000-4000-8000-000000000001';
    const decide = (targetId: string, attempts: number) =>
      targetShortensLinks(t.database.db, { organizationId: orgId, targetId, attempts }, null);
    // The organization's setting is off again: a first run follows it.
    expect(await decide(withLinks, 0)).toBe(false);
    // A later run sends what the first sent, whatever the setting says now.
    expect(await decide(withLinks, 1)).toBe(true);
    const url = `/api/organizations/${orgId}/link-tracking`;
    await owner.call('PUT', url, {
      enabledByDefault: false,
      tracking: { campaign: '' },
      shortLinks: true,
    });
    expect(await decide(withoutLinks, 0)).toBe(true);
    expect(await decide(withoutLinks, 2)).toBe(false);
    await owner.call('PUT', url, { enabledByDefault: false, tracking: { campaign: '' } });
  });

  it('counts each link as the short link it becomes against the text limit', async () => {
    // Threads allows 500: 470 + 1 + "https://a.co" (12) fits; the short link (34) does not.
    const text = `${'a'.repeat(470)} https://a.co`;
    const refused = await create({ content: text, shortLinks: 'true' }, [threadsId]);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The text is too long for Threads: 505 of 500 characters.');
    const fits = await create({ content: text, shortLinks: 'false' }, [threadsId]);
    expect(fits.statusCode, fits.body).toBe(201);
  });
});
