import {
  pickNumbers,
  sumPresent,
  type AdapterSettings,
  type MetricsAdapter,
  type PostMetricValues,
} from '../types.js';
import { createPinterestApi, type PinterestPinAnalytics, type PinterestUrls } from './api.js';
import { PINTEREST_ANALYTICS_DAYS, PINTEREST_METRIC_TYPES } from './limits.js';

const DAY_MS = 24 * 3600_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** A pin's analytics in Herald's names; a metric Pinterest did not give is left out. */
export function valuesOfPin(body: PinterestPinAnalytics): PostMetricValues | null {
  const sums = body.all?.summary_metrics ?? body.all?.lifetime_metrics;
  if (!sums) return null;
  const raw = pickNumbers({
    IMPRESSION: sums.IMPRESSION,
    SAVE: sums.SAVE,
    PIN_CLICK: sums.PIN_CLICK,
    OUTBOUND_CLICK: sums.OUTBOUND_CLICK,
    VIDEO_MRC_VIEW: sums.VIDEO_MRC_VIEW,
  });
  const clicks = sumPresent(raw.PIN_CLICK, raw.OUTBOUND_CLICK);
  const interactions = sumPresent(raw.SAVE, raw.PIN_CLICK, raw.OUTBOUND_CLICK);
  return {
    ...(raw.IMPRESSION !== undefined ? { views: raw.IMPRESSION } : {}),
    ...(raw.SAVE !== undefined ? { saves: raw.SAVE } : {}),
    ...(clicks !== undefined ? { clicks } : {}),
    ...(raw.VIDEO_MRC_VIEW !== undefined ? { videoViews: raw.VIDEO_MRC_VIEW } : {}),
    ...(interactions !== undefined ? { interactions } : {}),
    raw,
  };
}

/**
 * Pinterest's counts (docs/networks.md#pinterest-metrics): `GET /v5/pins/{id}/analytics` summed
 * from the pin's publication (at most 90 days back, Pinterest's reach) to today: impressions,
 * saves, pin clicks, outbound clicks, and video views of video pins. Pinterest gives no
 * account-level numbers Herald reads.
 */
export function createPinterestMetrics(settings: AdapterSettings<PinterestUrls>): MetricsAdapter {
  const api = createPinterestApi(settings);
  return {
    billedReads: false,
    async postMetrics(account, post) {
      const now = new Date();
      const earliest = new Date(now.getTime() - (PINTEREST_ANALYTICS_DAYS - 1) * DAY_MS);
      const start = post.publishedAt > earliest ? post.publishedAt : earliest;
      const body = await api.pinAnalytics(account.tokens.accessToken, post.externalId, {
        startDate: dayOf(start > now ? now : start),
        endDate: dayOf(now),
        metricTypes: PINTEREST_METRIC_TYPES,
      });
      return valuesOfPin(body);
    },
    accountMetrics: async () => null,
  };
}
