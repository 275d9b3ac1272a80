import { pickNumbers, sumPresent, type AdapterSettings, type MetricsAdapter } from '../types.js';
import { createGbpApi, type GbpDate, type GbpUrls } from './api.js';
import { v4ParentOf } from './location.js';
import {
  GBP_ACTION_METRICS,
  GBP_DAILY_METRICS,
  GBP_IMPRESSION_METRICS,
  GBP_METRICS_DAYS,
} from './limits.js';

const dateOf = (d: Date): GbpDate => ({
  year: d.getUTCFullYear(),
  month: d.getUTCMonth() + 1,
  day: d.getUTCDate(),
});
const keyOf = (d: GbpDate | undefined) =>
  d ? `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : '';

/**
 * Business Profile Performance (docs/networks.md#google-business-profile-metrics): the location's
 * daily impressions (Maps and Search, desktop and mobile), calls, website clicks and direction
 * requests from `fetchMultiDailyMetricsTimeSeries`, the newest day Google has figures for; and the
 * reviews' count and average rating. Google gives no figures per local post.
 */
export function createGbpMetrics(settings: AdapterSettings<GbpUrls>): MetricsAdapter {
  const api = createGbpApi(settings);
  return {
    billedReads: false,
    async postMetrics() {
      return null;
    },
    async accountMetrics(account) {
      const now = Date.now();
      const series = await api.dailyMetrics(
        account.tokens.accessToken,
        `locations/${account.externalId}`,
        GBP_DAILY_METRICS,
        {
          start: dateOf(new Date(now - GBP_METRICS_DAYS * 86_400_000)),
          end: dateOf(new Date(now - 86_400_000)),
        },
      );
      // metric → day → value; the newest day any metric has a value for is the one kept.
      const byDay = new Map<string, Record<string, number>>();
      for (const multi of series?.multiDailyMetricTimeSeries ?? [])
        for (const s of multi.dailyMetricTimeSeries ?? [])
          for (const v of s.timeSeries?.datedValues ?? []) {
            if (!s.dailyMetric || v.value === undefined) continue;
            const day = keyOf(v.date);
            byDay.set(day, { ...(byDay.get(day) ?? {}), [s.dailyMetric]: Number(v.value) });
          }
      const newest = [...byDay.keys()].sort().at(-1);
      const values = newest ? byDay.get(newest)! : {};
      const reviews = await api.reviews(account.tokens.accessToken, v4ParentOf(account));
      // Only numbers are kept: every key present has its value.
      const raw = pickNumbers<string>({
        ...values,
        totalReviewCount: reviews?.totalReviewCount,
        averageRating: reviews?.averageRating,
      }) as Record<string, number>;
      const views = sumPresent(...GBP_IMPRESSION_METRICS.map((m) => raw[m]));
      const interactions = sumPresent(...GBP_ACTION_METRICS.map((m) => raw[m]));
      return {
        ...(views !== undefined ? { views } : {}),
        ...(interactions !== undefined ? { interactions } : {}),
        raw,
      };
    },
  };
}
