import {
  type AnalyticsBestTimes,
  type AnalyticsOverview,
  applicableTimeZone,
  type ReportPdfQuery,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { getBestTimes } from '../analytics/analytics-best-times.service.js';
import { getAnalyticsOverview } from '../analytics/analytics-overview.service.js';
import {
  type BrandingDeps,
  readReportBrand,
  type ReportBrand,
} from '../organizations/branding.service.js';
import { getOrganization } from '../organizations/organizations.service.js';

/**
 * Everything one report shows. The figures are the analytics API's own answers for the same
 * range and filters (`getAnalyticsOverview`, `getBestTimes`): a report never computes a number
 * the analytics screen would compute differently.
 */
export interface ReportData {
  brand: ReportBrand;
  query: ReportPdfQuery;
  overview: AnalyticsOverview;
  bestTimes: AnalyticsBestTimes;
  /**
   * The zone the range's days, the best times and the report's own times are read in: the one
   * the analytics screen reads them in for the same reader (docs/reports.md#time-zones).
   */
  timeZone: string;
  /** When the report was made. */
  generatedAt: Date;
}

export interface ReportDataDeps extends BrandingDeps {
  log?: { warn(details: object, message: string): void };
}

/**
 * The zone of a report nobody in particular reads (a report email): the time-zone rule without a
 * member's own zone, so the organization's, else UTC. The one place report emails ask for it.
 */
export async function organizationReportZone(db: Db, organizationId: string): Promise<string> {
  const { defaultTimeZone } = await getOrganization(db, organizationId);
  return applicableTimeZone(defaultTimeZone, null).zone;
}

/**
 * Reads a report's figures in `timeZone`: the range and filters are checked by the analytics
 * services as for the screen (a bad range or another organization's account is refused before
 * anything is drawn), then the overview, the best-time map and the branding are read together.
 */
export async function readReportData(
  deps: ReportDataDeps,
  organizationId: string,
  query: ReportPdfQuery,
  timeZone: string,
  now = new Date(),
): Promise<ReportData> {
  const [overview, bestTimes, brand] = await Promise.all([
    getAnalyticsOverview(deps.db, organizationId, { ...query, sort: 'views' }, timeZone),
    getBestTimes(deps.db, organizationId, query, timeZone),
    readReportBrand(deps, organizationId, deps.log),
  ]);
  return { brand, query, overview, bestTimes, timeZone, generatedAt: now };
}
