import { describe, expect, it } from 'vitest';
import { startSandboxHarness as startGraphHarness } from '../test/graph-harness.js';
import { useHarness } from '../test/network-tests.js';
import { imageMedia, publishRequest, testMedia } from '../test/publish-media.js';
import { startSandboxHarness } from '../test/sandbox-harness.js';
import { createFacebookAdapter } from './facebook/adapter.js';
import { network as facebook } from './facebook/index.js';
import { createInstagramAdapter } from './instagram/adapter.js';
import { network as instagram } from './instagram/index.js';
import { createLinkedInAdapter } from './linkedin/adapter.js';
import { network as linkedin } from './linkedin/index.js';
import { publishInOneGo } from './publish-steps.js';
import { network as threads } from './threads/index.js';
import { createTikTokAdapter } from './tiktok/adapter.js';
import { network as tiktok } from './tiktok/index.js';
import { TIKTOK_TIMING } from './tiktok/limits.js';
import type { ConnectableAccount, PlatformHttp, StoredAccount } from './types.js';
import type { SandboxHarness as GraphHarness } from '../test/graph-harness.js';

/**
 * The metric adapters against the sandboxes: each network's answer mapped to Herald's metric
 * model as docs/analytics.md#per-network-mapping says, checked against what the sandbox
 * answered in the same exchange (its numbers grow with the clock, so they are never guessed),
 * and no deprecated metric asked of Meta (docs/analytics.md#deprecated-not-asked-for).
 */

const DAY = 86_400;
/** As chosen in the composer: TikTok lists only public videos. */
const TIKTOK_PUBLIC = {
  privacyLevel: 'PUBLIC_TO_EVERYONE',
  allowComments: true,
  allowDuet: true,
  allowStitch: true,
};

const stored = (a: ConnectableAccount): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: a.secrets ?? {},
});
const target = (externalId: string) => ({ externalId, publishedAt: new Date() });

/** Signs in on a Graph-harness consent page and connects the first account offered. */
async function connectOn<U>(h: GraphHarness<U>, fields: Record<string, string>, kind?: string) {
  const { code } = await h.authorize({ fields, kind });
  const sent = { code: code!, redirectUri: h.redirectUri, codeVerifier: '', kind };
  return stored((await h.adapter.connect(sent))[0]!);
}

/** A fetch for the adapter that keeps every request it sent and the JSON the sandbox answered. */
function recorder() {
  const exchanges: Array<{ url: URL; status: number; body: any }> = [];
  const http: PlatformHttp = async (url, init) => {
    const res = await fetch(url, init);
    const text = await res.clone().text();
    exchanges.push({ url: new URL(url), status: res.status, body: text ? JSON.parse(text) : null });
    return res;
  };
  /** The latest answer to a request whose path ends with `path` (and whose query fits). */
  const last = (path: string, fits = (_query: URLSearchParams) => true) => {
    const found = exchanges
      .filter((e) => e.url.pathname.endsWith(path) && fits(e.url.searchParams))
      .at(-1);
    if (!found) throw new Error(`No request to …${path}`);
    expect(found.status).toBe(200);
    return found.body;
  };
  /** The `metric=` list of every request that had one. */
  const metricLists = () =>
    exchanges.flatMap((e) => {
      const metric = e.url.searchParams.get('metric');
      return metric === null ? [] : [metric.split(',')];
    });
  return { http, exchanges, last, metricLists };
}

/** A Graph-style `{data: [{name, values | total_value}]}` answer: each metric's latest value. */
const reported = (body: any): Record<string, any> =>
  Object.fromEntries(
    body.data.map((d: any) => [
      d.name,
      d.total_value ? d.total_value.value : d.values.at(-1).value,
    ]),
  );

/** Metrics Meta removed (docs/analytics.md#deprecated-not-asked-for): `*impressions*`, `page_fans*`… */
const DEPRECATED =
  /impressions|^page_fans|^(plays|video_views|clips_replays_count|ig_reels_aggregated_all_plays_count)$/;
const deprecated = (metric: string) => DEPRECATED.test(metric);

/** The sandbox's own log of `metric=` lists since `since`: the recorder must have seen them all. */
const loggedMetricLists = (calls: Array<{ query: Record<string, unknown> }>, since: number) =>
  calls
    .slice(since)
    .filter((c) => typeof c.query.metric === 'string')
    .map((c) => String(c.query.metric).split(','));

describe('Instagram media and account', () => {
  const h = useHarness(() => startGraphHarness(instagram));

  it('maps media insights by name with saved→saves, account figures, and asks no deprecated metric', async () => {
    const account = await connectOn(h, { account: 'Mia', pages: 'Mia', instagram: 'mia.metrics' });
    const fast = { imagePollMs: 5, maxPollMs: 40, finalizeTimeoutMs: 3000 };
    const publishing = createInstagramAdapter(h.settings, fast).publishing!;
    const request = publishRequest('Counting saves', [await imageMedia()]);
    const done = await publishInOneGo(publishing, account, request);
    await h.advanceClock(7 * DAY);

    const rec = recorder();
    const metrics = h.adapterWith({ http: rec.http }).metrics!;
    const since = (await h.calls()).length;
    const post = await metrics.postMetrics(account, target(done.externalId));
    const media = reported(rec.last(`/${done.externalId}/insights`));
    // A week on, every count is above 0: a metric read under the wrong name would show.
    expect(media.saved).toBeGreaterThan(0);
    expect(post).toEqual({
      views: media.views,
      reach: media.reach,
      likes: media.likes,
      comments: media.comments,
      shares: media.shares,
      saves: media.saved,
      interactions: media.total_interactions,
      raw: media,
    });

    const figures = await metrics.accountMetrics(account);
    const totals = (q: URLSearchParams) => q.get('metric_type') === 'total_value';
    const daily = reported(rec.last(`/${account.externalId}/insights`, totals));
    const node = rec.last(`/${account.externalId}`);
    expect(node.followers_count).toEqual(expect.any(Number));
    expect(figures).toMatchObject({
      views: daily.views,
      reach: daily.reach,
      interactions: daily.total_interactions,
      followers: node.followers_count,
    });
    expect(figures!.followersHistory!.at(-1)!.followers).toBe(node.followers_count);

    // Media, account and follower_count insights: none asks for a deprecated metric.
    const asked = rec.metricLists();
    expect(asked).toHaveLength(3);
    expect(asked.flat().filter(deprecated)).toEqual([]);
    expect(loggedMetricLists(await h.calls(), since)).toEqual(asked);
  });
});

describe('Facebook Page posts and the Page', () => {
  const h = useHarness(() => startGraphHarness(facebook));

  it('maps post insights and node counts, the Page figures, and asks no deprecated metric', async () => {
    const account = await connectOn(h, { account: 'Fay', pages: 'Fay Bakery' });
    const publishing = createFacebookAdapter(h.settings, { finalizeTimeoutMs: 3000 }).publishing!;
    const done = await publishInOneGo(publishing, account, publishRequest('Fresh bread at 7'));
    await h.comment(done.externalId, 'Rosa', 'Lovely!');

    const rec = recorder();
    const metrics = h.adapterWith({ http: rec.http }).metrics!;
    const since = (await h.calls()).length;
    // Just published: Graph leaves `shares` out while there are none, and that is 0.
    const fresh = await metrics.postMetrics(account, target(done.externalId));
    expect(rec.last(`/${done.externalId}`).shares).toBeUndefined();
    expect(fresh!.shares).toBe(0);

    await h.advanceClock(3 * DAY);
    const post = await metrics.postMetrics(account, target(done.externalId));
    const insights = reported(rec.last(`/${done.externalId}/insights`));
    const counts = rec.last(`/${done.externalId}`);
    const reactions = insights.post_reactions_by_type_total as Record<string, number>;
    // A breakdown by reaction type, summed into likes.
    expect(Object.keys(reactions).length).toBeGreaterThan(1);
    const likes = Object.values(reactions).reduce((a, b) => a + b, 0);
    const comments = counts.comments.summary.total_count as number;
    const shares = counts.shares.count as number;
    expect(comments).toBeGreaterThanOrEqual(1); // Rosa's comment at least
    expect(shares).toBeGreaterThan(0);
    expect(post).toMatchObject({
      views: insights.post_media_view,
      reach: insights.post_total_media_view_unique,
      likes,
      clicks: insights.post_clicks,
      comments,
      shares,
      interactions: likes + comments + shares + insights.post_clicks,
    });

    const figures = await metrics.accountMetrics(account);
    const pageInsights = reported(rec.last(`/${account.externalId}/insights`));
    const pageNode = rec.last(`/${account.externalId}`);
    expect(pageNode.followers_count).toEqual(expect.any(Number));
    expect(figures).toMatchObject({
      views: pageInsights.page_media_view,
      reach: pageInsights.page_total_media_view_unique,
      interactions: pageInsights.page_post_engagements,
      profileViews: pageInsights.page_views_total,
      followers: pageNode.followers_count,
    });

    // Two post readings and the Page's: no *impressions* and no page_fans*.
    const asked = rec.metricLists();
    expect(asked).toHaveLength(3);
    expect(asked.flat().filter(deprecated)).toEqual([]);
    expect(loggedMetricLists(await h.calls(), since)).toEqual(asked);
  });
});

describe('Threads posts', () => {
  const h = useHarness(() => startSandboxHarness(threads));

  it('maps replies→comments and reposts+quotes+shares→shares, without reach or saves', async () => {
    const { account: connected } = await h.connectAs('Theo Threads');
    const account = stored(connected);
    const done = await publishInOneGo(h.adapter.publishing!, account, publishRequest('Reposts'));
    await h.advanceClock(7 * DAY);

    const rec = recorder();
    const post = await h
      .adapterWith({ http: rec.http })
      .metrics!.postMetrics(account, target(done.externalId));
    const r = reported(rec.last(`/${done.externalId}/insights`));
    // Reposts and quotes there: Herald's shares differ from Threads' own `shares`.
    expect(r.reposts + r.quotes).toBeGreaterThan(0);
    expect(post).toEqual({
      views: r.views,
      likes: r.likes,
      comments: r.replies,
      shares: r.reposts + r.quotes + r.shares,
      interactions: r.likes + r.replies + r.reposts + r.quotes + r.shares,
      raw: r,
    });
    expect(post!.reach).toBeUndefined();
    expect(post!.saves).toBeUndefined();
  });
});

describe('TikTok videos', () => {
  const h = useHarness(() => startSandboxHarness(tiktok));

  it('maps the counts (views = video views) and leaves reach, saves and watch time absent', async () => {
    const { account: connected } = await h.connectAs('Tia Tok');
    await h.setKnob('tia_tok', 'processing_ms', true, 100);
    const fast = { ...TIKTOK_TIMING, statusFirstDelayMs: 50, statusMaxDelayMs: 200 };
    const publishing = createTikTokAdapter(h.settings, fast).publishing!;
    const done = await publishInOneGo(publishing, stored(connected), {
      ...publishRequest('Counting plays', [testMedia('video', { size: 2 * 1024 * 1024 })]),
      settings: TIKTOK_PUBLIC,
    });
    await h.advanceClock(3 * DAY);
    // TikTok access tokens live 2 hours: a fresh one once the clock has moved.
    const account = { ...stored(connected), tokens: await h.adapter.refresh!(stored(connected)) };

    const rec = recorder();
    const post = await h
      .adapterWith({ http: rec.http })
      .metrics!.postMetrics(account, target(done.externalId));
    const videos = rec.last('/v2/video/query/').data.videos as Array<Record<string, any>>;
    const video = videos.find((v) => v.id === done.externalId)!;
    expect(video.comment_count).toBeGreaterThan(0);
    const { view_count, like_count, comment_count, share_count } = video;
    expect(post).toMatchObject({
      views: view_count,
      videoViews: view_count,
      likes: like_count,
      comments: comment_count,
      shares: share_count,
      interactions: like_count + comment_count + share_count,
      raw: { view_count, like_count, comment_count, share_count },
    });
    for (const absent of ['reach', 'saves', 'watchTimeMs', 'clicks'] as const)
      expect(post![absent]).toBeUndefined();
  });
});

describe('LinkedIn organization posts', () => {
  const h = useHarness(() => startGraphHarness(linkedin));

  it('maps impressionCount→views and uniqueImpressionsCount→reach; a member reads nothing', async () => {
    const fields = { account: 'Lin Admin', organizations: 'Metric Labs' };
    const person = await connectOn(h, fields, 'person');
    const org = await connectOn(h, fields, 'organization');
    const publishing = createLinkedInAdapter(h.settings, { finalizeTimeoutMs: 400 }).publishing!;
    const done = await publishInOneGo(publishing, org, publishRequest('Quarterly numbers'));
    await h.advanceClock(3 * DAY);

    const rec = recorder();
    const metrics = h.adapterWith({ http: rec.http }).metrics!;
    const post = await metrics.postMetrics(org, target(done.externalId));
    const [element] = rec.last('/rest/organizationalEntityShareStatistics').elements;
    expect(element.share ?? element.ugcPost).toBe(done.externalId);
    const stats = element.totalShareStatistics;
    expect(stats.uniqueImpressionsCount).not.toBe(stats.impressionCount);
    const { likeCount, commentCount, shareCount, clickCount } = stats;
    expect(post).toEqual({
      views: stats.impressionCount,
      reach: stats.uniqueImpressionsCount,
      likes: likeCount,
      comments: commentCount,
      shares: shareCount,
      clicks: clickCount,
      // Summed counts, not LinkedIn's `engagement` rate.
      interactions: likeCount + commentCount + shareCount + clickCount,
      raw: stats,
    });

    // Member analytics need scopes Herald does not ask for: null, and nothing asked.
    const asked = rec.exchanges.length;
    expect(await metrics.postMetrics(person, target(done.externalId))).toBeNull();
    expect(rec.exchanges).toHaveLength(asked);
  });
});
