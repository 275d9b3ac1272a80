import { Readable } from 'node:stream';
import {
  AnalyticsBestTimesQuerySchema,
  AnalyticsExportQuerySchema,
  AnalyticsBestTimesResponseSchema,
  AnalyticsOverviewQuerySchema,
  AnalyticsOverviewResponseSchema,
  AnalyticsRefreshResponseSchema,
  AnalyticsSettingsResponseSchema,
  LinkClicksQuerySchema,
  LinkClicksResponseSchema,
  OrgParamsSchema,
  PostMetricsResponseSchema,
  PostParamsSchema,
  UpdateAnalyticsSettingsRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireMember } from '../../http/access.js';
import { callerTimeZone } from '../../http/time-zone.js';
import { onlyReachable, reachableAnalyticsQuery } from '../team/account-access.js';
import type { MediaStore } from '../../media/media-store.js';
import {
  getAnalyticsOverview,
  getAnalyticsSettings,
  updateAnalyticsSettings,
} from './analytics-overview.service.js';
import { getBestTimes } from './analytics-best-times.service.js';
import { RefreshCoolingDown, refreshMetrics } from './analytics-refresh.service.js';
import type { AnalyticsCollector } from './analytics.service.js';
import { exportAccountSeriesCsv, exportPostMetricsCsv } from './analytics-export.service.js';
import { getPostMetrics } from './post-metrics.service.js';
import { getLinkClicks } from './link-clicks.service.js';

/** The zone a request's days are in: its `timezone`, else the one that applies to the caller. */
const zoneOf = (request: FastifyRequest, asked: string | undefined) =>
  asked ?? callerTimeZone(request).zone;

/** The analytics screen's API (docs/analytics.md#api). */
/** The caller's analytics query, held to the accounts they reach (team/account-access.ts). */
const reachableQuery = <Q extends { integrationIds?: string[] | undefined }>(
  request: FastifyRequest,
  query: Q,
): Q => reachableAnalyticsQuery(requireMember(request), query);

export async function analyticsRoutes(
  app: FastifyInstance,
  {
    db,
    media,
    collector,
    now,
    shortLinkBase,
  }: {
    db: Db;
    /** `PUBLIC_URL/l/`: how the short links are shown. */
    shortLinkBase: string;
    media?: Pick<MediaStore, 'signedUrl'>;
    /** Reads the networks for "Refresh metrics". */
    collector: AnalyticsCollector;
    now: () => Date;
  },
) {
  const signMediaUrl = media ? (key: string) => media.signedUrl(key) : null;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/organizations/:orgId/analytics/overview',
    {
      config: { access: { org: 'GET /organizations/:orgId/analytics/overview' } },
      schema: {
        tags: ['analytics'],
        params: OrgParamsSchema,
        querystring: AnalyticsOverviewQuerySchema,
        response: { 200: AnalyticsOverviewResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await getAnalyticsOverview(
        db,
        request.params.orgId,
        reachableQuery(request, request.query),
        zoneOf(request, request.query.timezone),
        signMediaUrl,
      ),
    }),
  );

  api.get(
    '/organizations/:orgId/analytics/link-clicks',
    {
      config: { access: { org: 'GET /organizations/:orgId/analytics/link-clicks' } },
      schema: {
        tags: ['analytics'],
        description:
          'Clicks on the short links of the posts published in the range, per post and account (docs/analytics.md#short-links).',
        params: OrgParamsSchema,
        querystring: LinkClicksQuerySchema,
        response: { 200: LinkClicksResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await getLinkClicks(
        db,
        request.params.orgId,
        reachableQuery(request, request.query),
        zoneOf(request, request.query.timezone),
        shortLinkBase,
      ),
    }),
  );

  api.get(
    '/organizations/:orgId/analytics/best-times',
    {
      config: { access: { org: 'GET /organizations/:orgId/analytics/best-times' } },
      schema: {
        tags: ['analytics'],
        params: OrgParamsSchema,
        querystring: AnalyticsBestTimesQuerySchema,
        response: { 200: AnalyticsBestTimesResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await getBestTimes(
        db,
        request.params.orgId,
        reachableQuery(request, request.query),
        zoneOf(request, request.query.timezone),
      ),
    }),
  );

  api.get(
    '/organizations/:orgId/analytics/export.csv',
    {
      config: { access: { org: 'GET /organizations/:orgId/analytics/export.csv' } },
      schema: {
        tags: ['analytics'],
        description: 'Post metrics of the range as CSV, streamed (docs/analytics.md#csv-export).',
        params: OrgParamsSchema,
        querystring: AnalyticsExportQuerySchema,
      },
    },
    async (request, reply) => {
      const csv = await exportPostMetricsCsv(
        db,
        request.params.orgId,
        reachableQuery(request, request.query),
        zoneOf(request, request.query.timezone),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv.lines));
    },
  );

  api.get(
    '/organizations/:orgId/analytics/accounts.csv',
    {
      config: { access: { org: 'GET /organizations/:orgId/analytics/accounts.csv' } },
      schema: {
        tags: ['analytics'],
        description:
          'Daily figures per account of the range as CSV, streamed (docs/analytics.md#account-series-export).',
        params: OrgParamsSchema,
        querystring: AnalyticsExportQuerySchema,
      },
    },
    async (request, reply) => {
      const csv = await exportAccountSeriesCsv(
        db,
        request.params.orgId,
        reachableQuery(request, request.query),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv.lines));
    },
  );

  api.get(
    '/organizations/:orgId/analytics/settings',
    {
      config: { access: { org: 'GET /organizations/:orgId/analytics/settings' } },
      schema: {
        tags: ['analytics'],
        params: OrgParamsSchema,
        response: { 200: AnalyticsSettingsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await getAnalyticsSettings(db, request.params.orgId),
    }),
  );

  api.put(
    '/organizations/:orgId/analytics/settings',
    {
      config: { access: { org: 'PUT /organizations/:orgId/analytics/settings' } },
      schema: {
        tags: ['analytics'],
        params: OrgParamsSchema,
        body: UpdateAnalyticsSettingsRequestSchema,
        response: { 200: AnalyticsSettingsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await updateAnalyticsSettings(db, request.params.orgId, request.body),
    }),
  );

  api.post(
    '/organizations/:orgId/analytics/refresh',
    {
      config: { access: { org: 'POST /organizations/:orgId/analytics/refresh' } },
      schema: {
        tags: ['analytics'],
        description:
          'Reads the networks now for the posts of the last 90 days and the accounts, once per 15 minutes per organization; 429 with Retry-After before then (docs/analytics.md#refresh-metrics).',
        params: OrgParamsSchema,
        response: { 200: AnalyticsRefreshResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        return {
          status: 'success' as const,
          data: await refreshMetrics({ db, collector, now }, request.params.orgId),
        };
      } catch (err) {
        if (err instanceof RefreshCoolingDown)
          reply.header('retry-after', String(err.retryAfterSeconds));
        throw err;
      }
    },
  );

  api.get(
    '/organizations/:orgId/posts/:postId/metrics',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId/metrics' } },
      schema: {
        tags: ['analytics'],
        description:
          "One post's figures per network and its readings (docs/analytics.md#post-metrics).",
        params: PostParamsSchema,
        response: { 200: PostMetricsResponseSchema },
      },
    },
    async (request) => {
      const metrics = await getPostMetrics(db, request.params.orgId, request.params.postId);
      // A member limited to some accounts sees the figures of those accounts' targets only.
      const targets = onlyReachable(
        requireMember(request),
        metrics.targets,
        (t) => t.integrationId,
      );
      return { status: 'success' as const, data: { ...metrics, targets } };
    },
  );
}
