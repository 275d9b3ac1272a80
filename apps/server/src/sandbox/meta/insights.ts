import { dailyFigure, followersOn, grownCount } from '../kit/growth.js';
import { GraphFailure } from './errors.js';
import { requireScope, type PublishDeps } from './helpers.js';
import { ownersOf } from './objects.js';
import type { GraphRequest, GraphRouter } from './router.js';

/**
 * Insights metrics the emulator knows, per kind of object, with the scale of each (about a
 * week's total for posts, a day's figure for accounts). Anything else — the removed
 * `*impressions*`, `page_fans*`, Instagram's `plays` and `video_views` — fails the whole call
 * with code 100, as Graph does (docs/analytics.md#deprecated).
 */
const POST_METRICS: Record<string, number> = {
  post_media_view: 2000,
  post_total_media_view_unique: 1400,
  post_clicks: 50,
  post_video_views: 600,
};
const PAGE_METRICS: Record<string, number> = {
  page_media_view: 3000,
  page_total_media_view_unique: 2000,
  page_post_engagements: 150,
  page_views_total: 90,
  page_follows: 0,
  page_daily_follows_unique: 8,
};
const MEDIA_METRICS: Record<string, number> = {
  views: 1800,
  reach: 1200,
  likes: 90,
  comments: 12,
  shares: 7,
  saved: 15,
  total_interactions: 124,
};
const IG_USER_METRICS: Record<string, number> = {
  views: 2500,
  reach: 1500,
  accounts_engaged: 140,
  total_interactions: 260,
};
const REACTIONS = ['like', 'love', 'wow', 'haha'];

const invalidMetric = () =>
  new GraphFailure(400, 100, '(#100) The value must be a valid insights metric');

function metricList(req: GraphRequest, known: Record<string, number>, extra: string[] = []) {
  const metrics = (req.params.metric ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (!metrics.length)
    throw new GraphFailure(
      400,
      3001,
      'No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.',
      1504028,
    );
  if (metrics.some((m) => !(m in known) && !extra.includes(m))) throw invalidMetric();
  return metrics;
}

const DAY_MS = 86_400_000;
const graphDay = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

/**
 * Instagram's `follower_count` (`period=day`, a time series asked alone): the followers gained
 * each day between `since` and `until` (unix seconds; yesterday and today by default), only
 * for the last 30 days, as Graph keeps it (docs/analytics.md#per-network-mapping).
 */
function followerCount(req: GraphRequest, id: string, now: number) {
  if (req.params.period !== 'day' || req.params.metric_type === 'total_value')
    throw new GraphFailure(
      400,
      100,
      '(#100) follower_count supports only period=day and metric_type=time_series',
    );
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const seconds = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) * 1000 : null);
  // Today's gains so far count; nothing older than 30 days is kept.
  const since = Math.max(seconds(req.params.since) ?? today - DAY_MS, today - 30 * DAY_MS);
  const until = Math.min(seconds(req.params.until) ?? today + DAY_MS, today + DAY_MS);
  const values = [];
  for (let day = Math.floor(since / DAY_MS) * DAY_MS; day < until; day += DAY_MS) {
    const end = day + DAY_MS;
    values.push({
      value: followersOn(id, end - 1) - followersOn(id, day - 1),
      end_time: graphDay(end),
    });
  }
  return {
    json: {
      data: [
        {
          name: 'follower_count',
          period: 'day',
          title: 'Follower Count',
          values,
          id: `${id}/insights/follower_count/day`,
        },
      ],
    },
  };
}

/**
 * `GET /{id}/insights` for Page posts, Pages, Instagram media and Instagram users, in Graph's
 * shapes (`values[]` for lifetime and day metrics, `total_value` with `metric_type=total_value`),
 * with numbers that grow with the emulator's clock.
 */
export function addGraphInsights(router: GraphRouter, { kit, state, objects }: PublishDeps) {
  router.add('GET', ':id/insights', async (req, path) => {
    const id = path.id!;
    const auth = await state.authenticate(req.token);
    const now = await kit.now();
    const owners = ownersOf(auth);
    const object = await objects.get(id);
    const lifetime = (name: string, value: unknown) => ({
      name,
      period: 'lifetime',
      values: [{ value }],
      id: `${id}/insights/${name}/lifetime`,
    });

    if (object && owners.has(object.owner) && object.type === 'fb_post') {
      requireScope(auth, 'read_insights');
      const metrics = metricList(req, POST_METRICS, ['post_reactions_by_type_total']);
      const age = now - object.createdAt;
      return {
        json: {
          data: metrics.map((m) =>
            m === 'post_reactions_by_type_total'
              ? lifetime(
                  m,
                  Object.fromEntries(
                    REACTIONS.map((r) => [r, grownCount(id, r, age, r === 'like' ? 60 : 8)]),
                  ),
                )
              : lifetime(m, grownCount(id, m, age, POST_METRICS[m]!)),
          ),
        },
      };
    }
    if (object && owners.has(object.owner) && object.type === 'ig_media') {
      requireScope(auth, 'instagram_manage_insights');
      const metrics = metricList(req, MEDIA_METRICS);
      const age = now - object.createdAt;
      return {
        json: { data: metrics.map((m) => lifetime(m, grownCount(id, m, age, MEDIA_METRICS[m]!))) },
      };
    }
    const isPage =
      owners.has(id) && (auth.page?.id === id || auth.user.pages.some((p) => p.id === id));
    const known = isPage ? PAGE_METRICS : owners.has(id) ? IG_USER_METRICS : null;
    if (!known)
      throw new GraphFailure(
        400,
        100,
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    requireScope(auth, isPage ? 'read_insights' : 'instagram_manage_insights');
    if (!isPage && req.params.metric === 'follower_count') return followerCount(req, id, now);
    const metrics = metricList(req, known);
    const period = req.params.period ?? 'day';
    const totalValue = req.params.metric_type === 'total_value';
    return {
      json: {
        data: metrics.map((m) => {
          const value = dailyFigure(id, m, now, known[m]!);
          return totalValue
            ? { name: m, period, total_value: { value }, id: `${id}/insights/${m}/${period}` }
            : {
                name: m,
                period,
                values: [
                  { value, end_time: new Date(now).toISOString().replace(/\.\d{3}Z$/, '+0000') },
                ],
                id: `${id}/insights/${m}/${period}`,
              };
        }),
      },
    };
  });
}
