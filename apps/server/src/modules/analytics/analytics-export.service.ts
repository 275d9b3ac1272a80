import {
  ANALYTICS_ACCOUNT_EXPORT_COLUMNS,
  ANALYTICS_EXPORT_COLUMNS,
  type AnalyticsExportQuery,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { csvLine } from '../../lib/csv.js';
import {
  listAccountExportPage,
  listExportPage,
  type AccountExportRow,
  type ExportRow,
} from './analytics-export.repository.js';
import type { OverviewFilter } from './analytics-overview.repository.js';
import { checkQuery, engagementOf, rangeIn } from './analytics-overview.service.js';

/** Rows read per query: small enough to keep the server's memory flat on a 20,000-row export. */
const PAGE_SIZE = 500;

function lineOf(r: ExportRow): string {
  const rate = engagementOf([r]);
  return csvLine([
    r.publishedAt,
    r.platform,
    r.accountName,
    r.postId,
    r.title,
    r.text,
    r.views,
    r.reach,
    r.likes,
    r.comments,
    r.shares,
    r.saves,
    r.clicks,
    r.videoViews,
    r.interactions,
    rate === null ? null : Number(rate.toFixed(6)),
    r.takenAt,
    r.permalink,
    r.shortLinkClicks,
  ]);
}

async function* linesOf(db: Db, filter: OverviewFilter, start: Date, end: Date) {
  // A byte-order mark, so Excel reads the file as UTF-8 (accents, emoji, ÷).
  yield `\uFEFF${csvLine(ANALYTICS_EXPORT_COLUMNS)}`;
  let after: { publishedKey: string; targetId: string } | null = null;
  for (;;) {
    const page = await listExportPage(db, filter, start, end, end, after, PAGE_SIZE);
    if (page.length) yield page.map(lineOf).join('');
    if (page.length < PAGE_SIZE) return;
    const last = page.at(-1)!;
    after = { publishedKey: last.publishedKey, targetId: last.targetId };
  }
}

/**
 * The post-metrics CSV of a range of days of `zone`: one row per published target, its latest
 * reading taken before the range ended (what the analytics screen shows). The range and filters
 * are checked before the first byte, so a bad request still gets a JSON error; the rows are then
 * read page by page.
 */
export async function exportPostMetricsCsv(
  db: Db,
  organizationId: string,
  q: AnalyticsExportQuery,
  zone: string,
) {
  const { filter } = await checkQuery(db, organizationId, q);
  const { start, end } = rangeIn(q.from, q.to, zone);
  return {
    filename: `herald-post-metrics-${q.from}-to-${q.to}.csv`,
    lines: linesOf(db, filter, start, end),
  };
}

const accountLineOf = (r: AccountExportRow) =>
  csvLine([
    r.day,
    r.platform,
    r.accountName,
    r.integrationId,
    r.followers,
    r.followersChange,
    r.views,
    r.reach,
    r.profileViews,
    r.interactions,
  ]);

async function* accountLinesOf(db: Db, filter: OverviewFilter, fromDay: string, toDay: string) {
  yield `\uFEFF${csvLine(ANALYTICS_ACCOUNT_EXPORT_COLUMNS)}`;
  let after: { day: string; integrationId: string } | null = null;
  for (;;) {
    const page = await listAccountExportPage(db, filter, fromDay, toDay, after, PAGE_SIZE);
    if (page.length) yield page.map(accountLineOf).join('');
    if (page.length < PAGE_SIZE) return;
    const last = page.at(-1)!;
    after = { day: last.day, integrationId: last.integrationId };
  }
}

/**
 * The account-series CSV of a range (docs/analytics.md#account-series-export): one row per
 * account and day with figures (the day they were collected, in UTC: the networks count their own
 * days, so they are not regrouped into another zone's), read and streamed page by page like the
 * post metrics.
 */
export async function exportAccountSeriesCsv(
  db: Db,
  organizationId: string,
  q: AnalyticsExportQuery,
) {
  const { filter } = await checkQuery(db, organizationId, q);
  return {
    filename: `herald-account-series-${q.from}-to-${q.to}.csv`,
    lines: accountLinesOf(db, filter, q.from, q.to),
  };
}
