import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { listIntegrations } from '../integrations/integrations.repository.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import * as external from './analytics-external.repository.js';
import { SNAPSHOT_QUEUE } from './analytics-queue.js';
import { AnalyticsCollector } from './analytics.service.js';

/**
 * Posts published outside Herald on a connected account (docs/analytics.md#posts-published-outside-herald),
 * Facebook's comments and shares, and Instagram's daily follower_count, against the sandboxes.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;
let collector: AnalyticsCollector;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

const today = () => new Date().toISOString().slice(0, 10);
/**
 * Herald's clock a little ahead of the networks': a post listed must be 15 minutes old. From
 * 23:40 UTC it is already the next day for Herald (its readings are stamped with that day).
 */
const heraldNow = () => new Date(Date.now() + 20 * 60_000);
const heraldDay = () => heraldNow().toISOString().slice(0, 10);

/** Moves a network sandbox's clock forward; answers how far ahead of the real one it now is (ms). */
async function moveNetworkClock(network: string, seconds: number): Promise<number> {
  const moved = await t.app.inject({
    method: 'POST',
    url: `/api/sandbox/${network}/_emu/clock`,
    headers: { cookie: owner.jar.header(), origin: TEST_PUBLIC_URL },
    payload: { advance_seconds: seconds },
  });
  expect(moved.statusCode, moved.body).toBeLessThan(300);
  return (moved.json() as { offset_seconds: number }).offset_seconds * 1000;
}

async function integrationOf(platform: string, org = orgId) {
  const all = await listIntegrations(t.database.db, org);
  const found = all.find((r) => r.platform.name === platform);
  return found!.integration;
}

async function publishThroughHerald(platform: string, content: string) {
  const supported = await owner.call('GET', '/api/platforms/supported');
  const id = supported.body.data.platforms.find((p: { name: string }) => p.name === platform).id;
  const body = await multipart({ platformIds: JSON.stringify([id]), content, action: 'draft' });
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  const post = res.json().data.post as { id: string };
  const published = await owner.call(
    'PATCH',
    `/api/organizations/${orgId}/post/${post.id}/publish`,
    { platforms: [platform] },
  );
  expect(published.status).toBe(200);
  const [target] = await rows<{ id: string; external_id: string }>(
    sql`select id, external_id from post_targets where post_id = ${post.id} and status = 'PUBLISHED'`,
  );
  return { postId: post.id, targetId: target!.id, externalId: target!.external_id };
}

/** Someone posts on the Page with Facebook itself (the Graph API, not Herald). */
async function postOnFacebookDirectly(message: string, org = orgId) {
  const integration = await integrationOf('Facebook', org);
  const account = toStoredAccount(t.cipher, integration);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/sandbox/facebook/v24.0/${account.externalId}/feed`,
    headers: {
      authorization: `OAuth ${account.tokens.accessToken}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ message }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

beforeAll(async () => {
  // The owner also moves the networks' clocks, which every organization shares: an operator.
  t = await createTestApp(
    { ADMIN_EMAILS: 'outside@example.com' },
    { jobs: 'all', queues: [PUBLISH_QUEUE, SNAPSHOT_QUEUE] },
  );
  ({ owner, orgId } = await createOrg(t.app, 'outside@example.com', 'Outside Co'));
  await connectThroughSandbox(t.app, owner, 'facebook', orgId, {
    account: 'outsideco',
    fields: { pages: 'Outside Co Page' },
  });
  await connectThroughSandbox(t.app, owner, 'instagram', orgId, {
    account: 'Ada',
    fields: { pages: 'Ada Coffee', instagram: 'ada.coffee' },
  });
  collector = new AnalyticsCollector({
    db: t.database.db,
    networks: t.runtime.networks,
    cipher: t.cipher,
    queue: t.runtime.analyticsQueue,
    log: t.app.log,
    now: heraldNow,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('posts published outside Herald', () => {
  it('are stored apart with their text and permalink, read, and ranked in top posts, never as Herald posts', async () => {
    const ours = await publishThroughHerald('Facebook', 'Our launch, sent by Herald');
    const outsideId = await postOnFacebookDirectly('Posted from the Facebook app');
    // Six hours on the network's clock: the post has been seen by then.
    await moveNetworkClock('facebook', 6 * 3600);

    const outcomes = await collector.collectAccounts(orgId);
    const fb = await integrationOf('Facebook');
    expect(outcomes[fb.id]).toBe('COLLECTED');

    const stored = await rows<{
      id: string;
      external_id: string;
      text: string;
      permalink: string;
    }>(
      sql`select id, external_id, text, permalink from external_posts where organization_id = ${orgId}`,
    );
    // Only the post Herald did not publish.
    expect(stored.map((s) => s.external_id)).toEqual([outsideId]);
    expect(stored[0]!.external_id).not.toBe(ours.externalId);
    expect(stored[0]!.text).toBe('Posted from the Facebook app');
    expect(stored[0]!.permalink).toMatch(/^https:\/\/www\.facebook\.com\//);

    const [reading] = await rows<{
      views: string | null;
      comments: string | null;
      shares: string | null;
    }>(
      sql`select views, comments, shares from external_post_metric_snapshots
          where external_post_id = ${stored[0]!.id}`,
    );
    expect(reading!.views).not.toBeNull();
    expect(reading!.comments).not.toBeNull();
    expect(reading!.shares).not.toBeNull();

    // The next day's run refreshes the same row and adds a reading: no duplicate post.
    await collector.collectAccounts(orgId);
    const again = await rows<{ n: number; readings: number }>(
      sql`select count(distinct e.id)::int as n, count(s.id)::int as readings
          from external_posts e join external_post_metric_snapshots s on s.external_post_id = e.id
          where e.organization_id = ${orgId}`,
    );
    expect(again[0]).toEqual({ n: 1, readings: 2 });

    // Top posts: the outside post is there, marked, without a Herald post to link to.
    const overview = await owner.call(
      'GET',
      `/api/organizations/${orgId}/analytics/overview?from=${today()}&to=${heraldDay()}`,
    );
    expect(overview.status).toBe(200);
    const top = overview.body.data.topPosts as Array<Record<string, unknown>>;
    const outside = top.find((p) => p.source === 'external');
    expect(outside).toMatchObject({
      postId: null,
      targetId: stored[0]!.id,
      text: 'Posted from the Facebook app',
      platform: 'Facebook',
      permalink: stored[0]!.permalink,
    });
    expect(outside!.views).toEqual(expect.any(Number));
    // The daily series counts its readings too (the rollup's trigger).
    const daily = overview.body.data.daily as Array<{ views: number | null }>;
    expect(daily.at(-1)!.views).toBeGreaterThan(0);

    // Calendar, library, publisher: Herald's posts only.
    const posts = await owner.call('GET', `/api/organizations/${orgId}/posts?pageSize=50`);
    expect(posts.status).toBe(200);
    const texts = JSON.stringify(posts.body.data);
    expect(texts).toContain('Our launch, sent by Herald');
    expect(texts).not.toContain('Posted from the Facebook app');

    // Another organization sees nothing of it.
    const other = await createOrg(t.app, 'someone.else@example.com', 'Someone Else');
    const theirs = await other.owner.call(
      'GET',
      `/api/organizations/${other.orgId}/analytics/overview?from=${today()}&to=${today()}`,
    );
    expect(theirs.body.data.topPosts).toEqual([]);
  });

  it('reads a Facebook post’s comments and shares from the post node', async () => {
    const ours = await publishThroughHerald('Facebook', 'Counting comments');
    await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/facebook/_emu/comments',
      headers: { cookie: owner.jar.header(), origin: TEST_PUBLIC_URL },
      payload: { postId: ours.externalId, fromName: 'Rosa', message: 'Lovely!' },
    });
    expect(await collector.collectSnapshot({ targetId: ours.targetId, checkpoint: '1h' })).toBe(
      'COLLECTED',
    );
    const [snap] = await rows<{
      comments: string;
      shares: string;
      likes: string;
      clicks: string;
      interactions: string;
      raw: Record<string, number>;
    }>(
      sql`select comments, shares, likes, clicks, interactions, raw from post_metric_snapshots
          where target_id = ${ours.targetId}`,
    );
    // The visitor's comment counts; shares are 0 while Graph leaves the field out, never absent.
    expect(Number(snap!.comments)).toBeGreaterThanOrEqual(1);
    expect(Number(snap!.shares)).toBeGreaterThanOrEqual(0);
    expect(snap!.raw['comments.summary.total_count']).toBe(Number(snap!.comments));
    expect(Number(snap!.interactions)).toBe(
      Number(snap!.likes) + Number(snap!.comments) + Number(snap!.shares) + Number(snap!.clicks),
    );
  });
});

describe('Instagram daily follower_count', () => {
  it('fills the account series of the past days from the day gains, counted back from the total', async () => {
    const ig = await integrationOf('Instagram');
    // The network's clock as far ahead as Herald's: after 23:40 UTC both are on the next day, and
    // the total read now is that day's, not a second copy of the day before.
    await moveNetworkClock('instagram', 20 * 60);
    const outcomes = await collector.collectAccounts(orgId);
    expect(outcomes[ig.id]).toBe('COLLECTED');
    const days = await rows<{ day: string; followers: string }>(
      sql`select to_char(day, 'YYYY-MM-DD') as day, followers from account_metric_days
          where integration_id = ${ig.id} order by day`,
    );
    // About a month of days, from one collection.
    expect(days.length).toBeGreaterThan(20);
    const counts = days.map((d) => Number(d.followers));
    // The sandbox's followers grow every day: each past day had fewer than the next.
    for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeGreaterThan(counts[i - 1]!);
    // A day already read is never replaced by the back-count.
    await t.database.db.execute(
      sql`update account_metric_days set followers = 1 where integration_id = ${ig.id} and day = ${days[0]!.day}::date`,
    );
    await collector.collectAccounts(orgId);
    const [first] = await rows<{ followers: string }>(
      sql`select followers from account_metric_days
          where integration_id = ${ig.id} and day = ${days[0]!.day}::date`,
    );
    expect(Number(first!.followers)).toBe(1);
  });
});

describe('listing Threads and TikTok accounts', () => {
  it('keeps a Threads post made in the Threads app, never Herald’s own, and lists TikTok videos', async () => {
    await connectThroughSandbox(t.app, owner, 'threads', orgId, { account: 'ada.threads' });
    await connectThroughSandbox(t.app, owner, 'tiktok', orgId, { account: 'ada.tok' });
    const threads = await integrationOf('Threads');
    const tiktok = await integrationOf('TikTok');
    const ours = await publishThroughHerald('Threads', 'Herald wrote this thread');

    // Someone posts with Threads itself: a container, then threads_publish.
    const account = toStoredAccount(t.cipher, threads);
    const auth = { authorization: `Bearer ${account.tokens.accessToken}` };
    const container = await t.app.inject({
      method: 'POST',
      url: `/api/sandbox/threads/v1.0/${account.externalId}/threads?media_type=TEXT&text=${encodeURIComponent('Typed in the Threads app')}`,
      headers: auth,
    });
    expect(container.statusCode, container.body).toBe(200);
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/sandbox/threads/v1.0/${account.externalId}/threads_publish?creation_id=${container.json().id}`,
      headers: auth,
    });
    expect(published.statusCode, published.body).toBe(200);
    const outsideId = published.json().id as string;

    const outcomes = await collector.collectAccounts(orgId);
    expect(outcomes[threads.id]).toBe('COLLECTED');
    expect(outcomes[tiktok.id]).toBe('COLLECTED');
    const stored = await rows<{ external_id: string; text: string; permalink: string | null }>(
      sql`select external_id, text, permalink from external_posts where integration_id = ${threads.id}`,
    );
    expect(stored).toEqual([
      { external_id: outsideId, text: 'Typed in the Threads app', permalink: expect.any(String) },
    ]);
    expect(stored.map((r) => r.external_id)).not.toContain(ours.externalId);
    const [reading] = await rows<{ n: number }>(
      sql`select count(*)::int as n from external_post_metric_snapshots s
          join external_posts e on e.id = s.external_post_id where e.integration_id = ${threads.id}`,
    );
    expect(reading!.n).toBe(1);

    // TikTok was asked for its videos with the list call.
    const calls = (
      await t.app.inject({
        method: 'GET',
        url: '/api/sandbox/tiktok/_emu/calls?path=/v2/video/list/',
        headers: { cookie: owner.jar.header() },
      })
    ).json().calls as Array<{ method: string; query: Record<string, string> }>;
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.at(-1)!.query.fields).toContain('create_time');
  });
});

describe('an outside post that a Herald target turns out to have', () => {
  let other: { owner: Actor; orgId: string };
  let fbId: string;

  interface Gain {
    integration_id: string;
    bucket: string;
    views: string | null;
    interactions: string | null;
    readings: number;
  }
  const gains = () =>
    rows<Gain>(
      // As text: PostgreSQL's driver gives bigint as a string, PGlite's as a number.
      sql`select integration_id,
                 to_char(bucket at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as bucket,
                 views::text as views, interactions::text as interactions, readings
          from analytics_daily_gains where organization_id = ${other.orgId}
          order by bucket, integration_id`,
    );
  /** What the rollup must hold when counted again from the readings kept. */
  async function rebuilt() {
    const kept = await gains();
    await t.database.db.execute(sql`select analytics_daily_gains_rebuild(${other.orgId}::uuid)`);
    const counted = await gains();
    return { kept, counted };
  }
  /** The gains of Herald's readings alone, by the rollup's rule (each over the target's previous). */
  const heraldOnly = () =>
    rows<Gain>(
      sql`select integration_id, bucket, sum(views)::text as views,
                 sum(interactions)::text as interactions, count(*)::int as readings
          from (select s.integration_id,
                       to_char(date_trunc('hour', s.taken_at at time zone 'UTC')
                         + floor(extract(minute from s.taken_at at time zone 'UTC') / 15)
                           * interval '15 minutes', 'YYYY-MM-DD"T"HH24:MI') as bucket,
                       s.views - coalesce(lag(s.views) over w, 0) as views,
                       s.interactions - coalesce(lag(s.interactions) over w, 0) as interactions
                from post_metric_snapshots s where s.organization_id = ${other.orgId}
                window w as (partition by s.target_id order by s.taken_at)) g
          group by 1, 2 order by 2, 1`,
    );
  const readings = (days: Gain[]) => days.reduce((n, d) => n + d.readings, 0);
  const externalCount = async () =>
    (
      await rows<{ posts: number; readings: number }>(
        sql`select (select count(*)::int from external_posts where organization_id = ${other.orgId}) as posts,
                   (select count(*)::int from external_post_metric_snapshots
                     where organization_id = ${other.orgId}) as readings`,
      )
    )[0]!;
  const advance = async (seconds: number) => {
    networkAhead = await moveNetworkClock('facebook', seconds);
  };
  // Herald's clock follows the network's (moved by the tests before too), 20 minutes ahead: a
  // post listed must be 15 minutes old.
  let networkAhead = 0;
  let collector: AnalyticsCollector;

  beforeAll(async () => {
    other = await createOrg(t.app, 'twice@example.com', 'Twice Co');
    await connectThroughSandbox(t.app, other.owner, 'facebook', other.orgId, {
      account: 'twiceco',
      fields: { pages: 'Twice Co Page' },
    });
    fbId = (await integrationOf('Facebook', other.orgId)).id;
    collector = new AnalyticsCollector({
      db: t.database.db,
      networks: t.runtime.networks,
      cipher: t.cipher,
      queue: t.runtime.analyticsQueue,
      log: t.app.log,
      now: () => new Date(Date.now() + networkAhead + 20 * 60_000),
    });
  }, 60_000);

  it('stops reading it, drops it, and the daily gains are the Herald readings’ alone', async () => {
    const outsideId = await postOnFacebookDirectly('Listed before Herald recorded it', other.orgId);
    await advance(6 * 3600);
    expect((await collector.collectAccounts(other.orgId))[fbId]).toBe('COLLECTED');
    expect(await externalCount()).toEqual({ posts: 1, readings: 1 });
    const [withExternal] = await gains();
    expect(Number(withExternal!.views)).toBeGreaterThan(0);

    // Herald's own target of that post, its network id recorded only now.
    const supported = await other.owner.call('GET', '/api/platforms/supported');
    const platformId = supported.body.data.platforms.find(
      (p: { name: string }) => p.name === 'Facebook',
    ).id;
    const body = await multipart({
      platformIds: JSON.stringify([platformId]),
      content: 'Listed before Herald recorded it',
      action: 'draft',
    });
    const created = await send(t.app, other.owner.jar, {
      method: 'POST',
      url: `/api/organizations/${other.orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const postId = created.json().data.post.id as string;
    const [target] = await rows<{ id: string }>(
      sql`update post_targets set status = 'PUBLISHED', external_id = ${outsideId}, published_at = now()
          where post_id = ${postId} returning id`,
    );
    expect(await collector.collectSnapshot({ targetId: target!.id, checkpoint: '1h' })).toBe(
      'COLLECTED',
    );
    // The daily listing no longer offers it for reading.
    expect(
      await external.listExternalPostsToRead(t.database.db, other.orgId, fbId, new Date(0)),
    ).toEqual([]);

    await advance(3600);
    expect((await collector.collectAccounts(other.orgId))[fbId]).toBe('COLLECTED');
    // Not read again, and gone with its reading.
    expect(await externalCount()).toEqual({ posts: 0, readings: 0 });
    const only = await heraldOnly();
    expect(only.length).toBeGreaterThan(0);
    expect(await gains()).toEqual(only);
    const { kept, counted } = await rebuilt();
    expect(kept).toEqual(counted);
  });

  it('takes an outside post’s gains back when its readings or the post are deleted', async () => {
    const before = await gains();
    await postOnFacebookDirectly('Posted from the Facebook app, read three times', other.orgId);
    for (let i = 0; i < 3; i++) {
      await advance(3 * 3600);
      expect((await collector.collectAccounts(other.orgId))[fbId]).toBe('COLLECTED');
    }
    expect(await externalCount()).toEqual({ posts: 1, readings: 3 });
    const read = await gains();
    expect(read).not.toEqual(before);
    expect(readings(read)).toBe(readings(before) + 3);

    // One reading in the middle: the next one's gain is counted over the first again.
    await t.database.db.execute(
      sql`delete from external_post_metric_snapshots where id = (
            select id from external_post_metric_snapshots where organization_id = ${other.orgId}
            order by taken_at offset 1 limit 1)`,
    );
    const middle = await rebuilt();
    expect(middle.kept).toEqual(middle.counted);
    expect(readings(middle.kept)).toBe(readings(before) + 2);

    // The post itself: its readings cascade and their gains go.
    await t.database.db.execute(
      sql`delete from external_posts where organization_id = ${other.orgId}`,
    );
    expect(await externalCount()).toEqual({ posts: 0, readings: 0 });
    expect(await gains()).toEqual(before);
    expect(await gains()).toEqual(await heraldOnly());
  });
});

describe('a network refusing a metrics read', () => {
  async function knob(name: string, value: number | boolean) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/facebook/_emu/scenario',
      headers: { cookie: owner.jar.header(), origin: TEST_PUBLIC_URL },
      payload:
        typeof value === 'boolean'
          ? { account: 'outsideco', knob: name, on: value }
          : { account: 'outsideco', knob: name, on: true, value },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const statusOf = async (integrationId: string) =>
    (
      await rows<{ stale_reason: string | null; backoff_until: Date | null }>(
        sql`select stale_reason, backoff_until from analytics_account_status
            where integration_id = ${integrationId}`,
      )
    )[0]!;

  it('marks the account stale with the reason, backs off a rate limit, and never stops publishing', async () => {
    const fb = await integrationOf('Facebook');
    const first = await publishThroughHerald('Facebook', 'Read me when you can');

    // A Business Use Case throttle saying to wait 17 minutes.
    await knob('buc_throttle_minutes', 17);
    expect(await collector.collectSnapshot({ targetId: first.targetId, checkpoint: '1h' })).toBe(
      'REFUSED',
    );
    const limited = await statusOf(fb.id);
    expect(limited.stale_reason).toBeTruthy();
    const wait = new Date(limited.backoff_until!).getTime() - heraldNow().getTime();
    expect(wait).toBeGreaterThan(16 * 60_000);
    expect(wait).toBeLessThanOrEqual(17 * 60_000 + 5_000);
    // Until then, the account is not asked again.
    expect(await collector.collectSnapshot({ targetId: first.targetId, checkpoint: '6h' })).toBe(
      'BACKING_OFF',
    );

    // Publishing to the stale account goes on as before.
    const second = await publishThroughHerald('Facebook', 'Still publishing while stale');
    expect(second.externalId).toBeTruthy();

    // The screen says why.
    const overview = await owner.call(
      'GET',
      `/api/organizations/${orgId}/analytics/overview?from=${today()}&to=${today()}`,
    );
    const account = (
      overview.body.data.accounts as Array<{
        integrationId: string;
        isStale: boolean;
        staleReason: string;
      }>
    ).find((a) => a.integrationId === fb.id);
    expect(account).toMatchObject({ isStale: true, staleReason: limited.stale_reason });
  });

  it('records a revoked token as the reason; the next good read clears it', async () => {
    const fb = await integrationOf('Facebook');
    await t.database.db.execute(
      sql`update analytics_account_status set backoff_until = null where integration_id = ${fb.id}`,
    );
    await knob('token_revoked', true);
    const outcomes = await collector.collectAccounts(orgId);
    expect(outcomes[fb.id]).toBe('REFUSED');
    const revoked = await statusOf(fb.id);
    expect(revoked.stale_reason).toMatch(/Facebook/);
    expect(revoked.backoff_until).toBeNull();

    await knob('token_revoked', false);
    expect((await collector.collectAccounts(orgId))[fb.id]).toBe('COLLECTED');
    expect((await statusOf(fb.id)).stale_reason).toBeNull();
  });
});
