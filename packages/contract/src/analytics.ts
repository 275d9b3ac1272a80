import { z } from 'zod';
import { WebUrlSchema } from './web-url.js';
import { successEnvelope } from './envelope.js';
import { timeZoneParam } from './time-zone-rule.js';

/** A calendar day as the analytics range takes it (`2026-05-31`), read in the range's zone. */
const day = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a day written like 2026-05-31.`)
    .refine((value) => {
      const time = Date.parse(`${value}T00:00:00Z`);
      // Round-trips only for a real day: 2026-02-30 would otherwise read as 2 March.
      return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
    }, `${label} is not a day of the calendar.`);

/** Comma-separated ids (`a,b`) or a repeated parameter, read as one list. */
const idList = (label: string) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
        : value,
    z.array(z.uuid(`${label} must be a list of ids (UUIDs).`)).max(100),
  );

export const TOP_POSTS_SORTS = ['views', 'interactions', 'engagement'] as const;

/** The longest range the analytics screen reads at once. */
export const ANALYTICS_MAX_RANGE_DAYS = 731;

export const AnalyticsOverviewQuerySchema = z.object({
  /** First day of the range, inclusive, in `timezone`. */
  from: day('from'),
  /** Last day of the range, inclusive, in `timezone`. */
  to: day('to'),
  /**
   * The IANA zone whose days the range and the daily series are counted in; left out, the zone
   * that applies to the caller (the organization's, else their own, else UTC).
   */
  timezone: timeZoneParam(),
  /** Only these networks (platform ids). */
  platformIds: idList('platformIds').optional(),
  /** Only these connected accounts (integration ids). */
  integrationIds: idList('integrationIds').optional(),
  /** How the top posts are ordered. */
  sort: z.enum(TOP_POSTS_SORTS).optional(),
});
export type AnalyticsOverviewQuery = z.infer<typeof AnalyticsOverviewQuerySchema>;

/** A figure for the range, the previous period of equal length, and the relative change. */
const KpiSchema = z.object({
  /** Null when no post or account in the range gave this metric (absent, never 0). */
  value: z.number().nullable(),
  previous: z.number().nullable(),
  /** (value − previous) ÷ previous; null when either is absent or previous is 0. */
  change: z.number().nullable(),
});
export type AnalyticsKpi = z.infer<typeof KpiSchema>;

const RateSchema = z.number().nullable();

export const AnalyticsOverviewSchema = z.object({
  /** The zone the range's days and the daily series are counted in. */
  timezone: z.string(),
  range: z.object({
    from: z.string(),
    to: z.string(),
    previousFrom: z.string(),
    previousTo: z.string(),
    days: z.number().int(),
  }),
  /** How engagement rate is computed, in a sentence the screen shows. */
  engagementFormula: z.string(),
  kpis: z.object({
    views: KpiSchema,
    reach: KpiSchema,
    interactions: KpiSchema,
    engagementRate: KpiSchema,
    followersGained: KpiSchema,
    postsPublished: KpiSchema,
  }),
  /** Per day of `timezone`: views and interactions gained by the readings taken that day. */
  daily: z.array(
    z.object({
      day: z.string(),
      views: z.number().nullable(),
      interactions: z.number().nullable(),
    }),
  ),
  followers: z.array(
    z.object({
      integrationId: z.uuid(),
      name: z.string(),
      platform: z.string(),
      points: z.array(z.object({ day: z.string(), followers: z.number() })),
      /** The last count of the range minus the last one before it (else the range's first). */
      gained: z.number().nullable(),
    }),
  ),
  networks: z.array(
    z.object({
      platformId: z.uuid(),
      platform: z.string(),
      posts: z.number().int(),
      views: z.number().nullable(),
      reach: z.number().nullable(),
      interactions: z.number().nullable(),
      engagementRate: RateSchema,
    }),
  ),
  topPosts: z.array(
    z.object({
      /**
       * `herald`: a target of a Herald post (links to its details); `external`: a post published
       * outside Herald on a connected account (no Herald post: `postId` is null, `targetId` is
       * the external post's id, the link is its permalink).
       */
      source: z.enum(['herald', 'external']),
      postId: z.uuid().nullable(),
      targetId: z.uuid(),
      title: z.string().nullable(),
      text: z.string(),
      platform: z.string(),
      accountName: z.string().nullable(),
      publishedAt: z.string().nullable(),
      permalink: WebUrlSchema.nullable(),
      views: z.number().nullable(),
      reach: z.number().nullable(),
      interactions: z.number().nullable(),
      engagementRate: RateSchema,
      takenAt: z.string(),
      /**
       * A signed URL of the post's first picture (an image, or a video's poster frame); null for
       * a post without media or a video without a poster. For an external post, the network's
       * own picture URL as it was listed.
       */
      thumbnailUrl: WebUrlSchema.nullable(),
    }),
  ),
  accounts: z.array(
    z.object({
      integrationId: z.uuid(),
      name: z.string(),
      platform: z.string(),
      isStale: z.boolean(),
      staleReason: z.string().nullable(),
      staleSince: z.string().nullable(),
      lastSuccessAt: z.string().nullable(),
    }),
  ),
  /** The organization as a whole (not the filters), so the screen can say what to do first. */
  status: z.object({
    connectedAccounts: z.number().int(),
    publishedTargets: z.number().int(),
    /** Whether any reading was taken yet. */
    hasReadings: z.boolean(),
    /** When the first reading is due (10 min after the first publishing), while none is taken. */
    firstCollectionAt: z.string().nullable(),
  }),
});
export type AnalyticsOverview = z.infer<typeof AnalyticsOverviewSchema>;
export const AnalyticsOverviewResponseSchema = successEnvelope(AnalyticsOverviewSchema);

export const AnalyticsSettingsSchema = z.object({
  xEnabled: z.boolean(),
  xMonthlyReadBudget: z.number().int(),
  /** The UTC month the count is for (`2026-05`) and the X reads used in it. */
  month: z.string(),
  xReadsUsed: z.number().int(),
  /** What X charges Herald per post read, in US dollars, for the cost estimate. */
  xCostPerReadUsd: z.number(),
  /** When someone last used "Refresh metrics" (null: never). */
  refreshedAt: z.string().nullable(),
  /** From when "Refresh metrics" may be used again (null: never used, so now). */
  nextRefreshAt: z.string().nullable(),
});
export type AnalyticsSettings = z.infer<typeof AnalyticsSettingsSchema>;
export const AnalyticsSettingsResponseSchema = successEnvelope(AnalyticsSettingsSchema);

/**
 * "Refresh metrics" (`POST …/analytics/refresh`) may be used once per this many minutes per
 * organization: each use reads every recent post from the networks, which count (and X bills)
 * every read (docs/analytics.md#refresh-metrics).
 */
export const ANALYTICS_REFRESH_COOLDOWN_MINUTES = 15;

/** What one collection of an organization's metrics did ("Refresh metrics", "collect now"). */
export const AnalyticsReadCountsSchema = z.object({
  /** Published targets (a post on one network) it looked at. */
  targets: z.number().int(),
  /** Of them, those read now. */
  collected: z.number().int(),
  /**
   * Of them, those put off because the network asked Herald to wait (a rate limit): read when
   * the wait is over. The rest were not read: X metrics off or the month's X budget spent, an
   * account to reconnect, or the network refused (the screen's stale notices say which).
   */
  queued: z.number().int(),
  /** Connected accounts whose figures (followers…) were read now. */
  accounts: z.number().int(),
});
export type AnalyticsReadCounts = z.infer<typeof AnalyticsReadCountsSchema>;

export const AnalyticsRefreshResultSchema = AnalyticsReadCountsSchema.extend({
  refreshedAt: z.string(),
  /** From when the next refresh is allowed. */
  nextAllowedAt: z.string(),
});
export type AnalyticsRefreshResult = z.infer<typeof AnalyticsRefreshResultSchema>;
export const AnalyticsRefreshResponseSchema = successEnvelope(AnalyticsRefreshResultSchema);

/** The `details` of the 429 a refresh too soon gets (with `Retry-After`). */
export const AnalyticsRefreshRefusalSchema = z.object({
  nextAllowedAt: z.string(),
  retryAfterSeconds: z.number().int(),
});
export type AnalyticsRefreshRefusal = z.infer<typeof AnalyticsRefreshRefusalSchema>;

export const UpdateAnalyticsSettingsRequestSchema = z.object({
  xEnabled: z.boolean(),
  xMonthlyReadBudget: z
    .number()
    .int('The monthly budget is a whole number of reads.')
    .min(0, 'The monthly budget cannot be negative.')
    .max(1_000_000, 'The monthly budget can be at most 1,000,000 reads.'),
});
export type UpdateAnalyticsSettingsRequest = z.infer<typeof UpdateAnalyticsSettingsRequestSchema>;

/** `GET …/analytics/best-times`: the overview's range and filters, bucketed in `timezone`. */
export const AnalyticsBestTimesQuerySchema = AnalyticsOverviewQuerySchema.omit({ sort: true });
export type AnalyticsBestTimesQuery = z.infer<typeof AnalyticsBestTimesQuerySchema>;

/**
 * When the organization's own posts did best: published targets of the range with a reading,
 * bucketed by the weekday and hour they were published in `timezone`. Only cells with posts are
 * listed (an empty hour is unknown, not 0).
 */
export const AnalyticsBestTimesSchema = z.object({
  timezone: z.string(),
  /** How many published targets (one per network a post went to) the map rests on. */
  posts: z.number().int(),
  engagementFormula: z.string(),
  cells: z.array(
    z.object({
      /** 0 = Monday … 6 = Sunday, in `timezone`. */
      weekday: z.number().int().min(0).max(6),
      hour: z.number().int().min(0).max(23),
      posts: z.number().int(),
      /** Σ interactions ÷ Σ (views, else reach) of the cell's posts; null when none has both. */
      engagementRate: RateSchema,
      /** Mean interactions of the cell's posts that gave interactions; null when none did. */
      interactionsPerPost: z.number().nullable(),
    }),
  ),
});
export type AnalyticsBestTimes = z.infer<typeof AnalyticsBestTimesSchema>;
export const AnalyticsBestTimesResponseSchema = successEnvelope(AnalyticsBestTimesSchema);

/** `GET …/analytics/export.csv` and `accounts.csv`: the overview's range, zone and filters. */
export const AnalyticsExportQuerySchema = AnalyticsOverviewQuerySchema.omit({ sort: true });
export type AnalyticsExportQuery = z.infer<typeof AnalyticsExportQuerySchema>;

/**
 * The post-metrics CSV's columns, in order (docs/analytics.md#csv-export). Stable: a spreadsheet
 * or script built on one export keeps working on the next.
 */
export const ANALYTICS_EXPORT_COLUMNS = [
  'published_at',
  'network',
  'account',
  'post_id',
  'title',
  'text',
  'views',
  'reach',
  'likes',
  'comments',
  'shares',
  'saves',
  'clicks',
  'video_views',
  'interactions',
  'engagement_rate',
  'read_at',
  'permalink',
  'short_link_clicks',
] as const;

/**
 * The account-series CSV's columns, in order (docs/analytics.md#account-series-export): one row
 * per connected account and day that has figures (the day Herald collected them, in UTC: the
 * networks count their own days). Stable, as the post-metrics columns.
 */
export const ANALYTICS_ACCOUNT_EXPORT_COLUMNS = [
  'day',
  'network',
  'account',
  'account_id',
  'followers',
  'followers_change',
  'views',
  'reach',
  'profile_views',
  'interactions',
] as const;

/** One published target's latest figures; a metric the network does not give is null. */
const PostMetricValuesSchema = z.object({
  views: z.number().nullable(),
  reach: z.number().nullable(),
  likes: z.number().nullable(),
  comments: z.number().nullable(),
  shares: z.number().nullable(),
  saves: z.number().nullable(),
  clicks: z.number().nullable(),
  interactions: z.number().nullable(),
  /** interactions ÷ views, else ÷ reach; null when either side is missing. */
  engagementRate: z.number().nullable(),
});
export type PostMetricValues = z.infer<typeof PostMetricValuesSchema>;

/** `GET …/posts/:postId/metrics`: per published target, its latest figures and its curve. */
export const PostMetricsSchema = z.object({
  engagementFormula: z.string(),
  targets: z.array(
    z.object({
      targetId: z.uuid(),
      integrationId: z.uuid().nullable(),
      platformId: z.uuid(),
      platform: z.string(),
      accountName: z.string().nullable(),
      publishedAt: z.string().nullable(),
      /** When the latest reading was taken; null (and every value null) before the first one. */
      takenAt: z.string().nullable(),
      latest: PostMetricValuesSchema,
      /** Every reading, oldest first. */
      series: z.array(
        z.object({
          takenAt: z.string(),
          views: z.number().nullable(),
          interactions: z.number().nullable(),
        }),
      ),
    }),
  ),
});
export type PostMetrics = z.infer<typeof PostMetricsSchema>;
export const PostMetricsResponseSchema = successEnvelope(PostMetricsSchema);
