import {
  addDaysTo,
  ANALYTICS_MAX_RANGE_DAYS,
  dayIn,
  dayStartIn,
  type AnalyticsKpi,
  type AnalyticsOverview,
  type AnalyticsOverviewQuery,
  type AnalyticsSettings,
  type UpdateAnalyticsSettingsRequest,
  webUrlOrNull,
  X_PRICES,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { type ExternalReading, listExternalReadings } from './analytics-external.repository.js';
import * as repo from './analytics-overview.repository.js';
import type { TargetReading } from './analytics-overview.repository.js';
import { FIRST_READING_AFTER_MS } from './analytics-queue.js';
import { refreshTimes } from './analytics-refresh.service.js';
import { getSettings, saveXSettings } from './analytics.repository.js';

const DAY_MS = 86_400_000;

export const ENGAGEMENT_FORMULA =
  'Engagement rate = interactions ÷ views, or ÷ reach where a network gives no views; posts without either are left out.';

/** The same formula in the few words a small card has room for (the dashboard's). */
export const ENGAGEMENT_FORMULA_SHORT = 'interactions ÷ views (or reach)';

/** The first instant of `day` in `zone` (its midnight; days of a clock change are not 24 h). */
export const dayStart = (day: string, zone: string) => new Date(dayStartIn(day, zone));

/**
 * The instants a range of days covers in `zone`: [start, end), `end` being the start of the day
 * after `to`.
 */
export function rangeIn(from: string, to: string, zone: string) {
  return { start: dayStart(from, zone), end: dayStart(addDaysTo(to, 1), zone) };
}

/** The engagement rate of readings: Σ interactions ÷ Σ (views, else reach) over those having both. */
export function engagementOf(rows: Array<Pick<TargetReading, 'views' | 'reach' | 'interactions'>>) {
  let interactions = 0;
  let base = 0;
  for (const r of rows) {
    const denominator = r.views ?? r.reach;
    if (r.interactions === null || denominator === null) continue;
    interactions += r.interactions;
    base += denominator;
  }
  return base > 0 ? interactions / base : null;
}

const kpi = (value: number | null, previous: number | null): AnalyticsKpi => ({
  value,
  previous,
  change:
    value !== null && previous !== null && previous !== 0 ? (value - previous) / previous : null,
});

/** Followers gained per account over [from, to]: last figure minus the one before the range. */
function followersGained(
  days: Array<{ integrationId: string; day: string; followers: number | null }>,
  from: string,
  to: string,
) {
  const byAccount = new Map<string, Array<{ day: string; followers: number }>>();
  for (const d of days) {
    if (d.followers === null || d.day > to) continue;
    const series = byAccount.get(d.integrationId) ?? [];
    series.push({ day: d.day, followers: d.followers });
    byAccount.set(d.integrationId, series);
  }
  const gains: number[] = [];
  for (const series of byAccount.values()) {
    const before = series.filter((p) => p.day < from).at(-1);
    const inside = series.filter((p) => p.day >= from);
    const last = inside.at(-1);
    const base = before ?? inside[0];
    if (last && base) gains.push(last.followers - base.followers);
  }
  return gains.length ? gains.reduce((a, b) => a + b, 0) : null;
}

/** The KPI figures of summed readings: the engagement rate from its numerator and denominator. */
function totalsOf(row: repo.ReadingTotals | undefined) {
  return {
    views: row?.views ?? null,
    reach: row?.reach ?? null,
    interactions: row?.interactions ?? null,
    engagementRate:
      row && row.rateBase !== null && row.rateBase > 0
        ? row.rateInteractions! / row.rateBase
        : null,
    posts: row?.posts ?? 0,
  };
}

/**
 * The targets published in [start, end) and in [prevStart, start), each with its latest reading
 * taken before its period ended, summed up (with `byNetwork`, the range per network too): the one
 * computation behind the KPIs, shared by the analytics screen and the dashboard's engagement card.
 */
async function comparePeriods(
  db: Db,
  filter: repo.OverviewFilter,
  prevStart: Date,
  start: Date,
  end: Date,
  byNetwork = false,
) {
  const [current, previous] = await Promise.all([
    repo.sumTargetReadings(db, filter, start, end, end, byNetwork),
    repo.sumTargetReadings(db, filter, prevStart, start, start, false),
  ]);
  const networks = current
    .filter((r) => r.platformId !== null)
    .map((r) => ({ platformId: r.platformId!, platform: r.platform!, ...totalsOf(r) }));
  return {
    networks,
    now: totalsOf(current.find((r) => r.platformId === null)),
    then: totalsOf(previous.find((r) => r.platformId === null)),
  };
}

/** The dashboard card's period: the last 30 days, today included (/analytics?range=30). */
export const DASHBOARD_ENGAGEMENT_DAYS = 30;

/**
 * The organization's engagement rate over the last 30 days of `zone` against the 30 before,
 * computed as the analytics screen's KPI is (so the card and `/analytics?range=30`, read in the
 * same zone, agree).
 */
export async function getEngagementTrend(
  db: Db,
  organizationId: string,
  zone: string,
  today = new Date(),
  /** Only these accounts (a member limited to some, never none); null: every account. */
  accountIds: string[] | null = null,
) {
  const to = dayIn(today.getTime(), zone);
  const from = addDaysTo(to, 1 - DASHBOARD_ENGAGEMENT_DAYS);
  const { start, end } = rangeIn(from, to, zone);
  const prevStart = dayStart(addDaysTo(from, -DASHBOARD_ENGAGEMENT_DAYS), zone);
  const filter = accountIds ? { organizationId, integrationIds: accountIds } : { organizationId };
  const { now, then } = await comparePeriods(db, filter, prevStart, start, end);
  return {
    ...kpi(now.engagementRate, then.engagementRate),
    from,
    to,
    formula: ENGAGEMENT_FORMULA_SHORT,
  };
}

/** Checks the range and the filters; another organization's account reads as unknown. */
export async function checkQuery(
  db: Db,
  organizationId: string,
  q: Omit<AnalyticsOverviewQuery, 'sort'>,
) {
  if (q.to < q.from)
    throw new AppError(
      'VALIDATION_FAILED',
      'The range ends before it starts: "to" must be on or after "from".',
    );
  const days = Math.round((Date.parse(q.to) - Date.parse(q.from)) / DAY_MS) + 1;
  if (days > ANALYTICS_MAX_RANGE_DAYS)
    throw new AppError('VALIDATION_FAILED', 'The range can be at most 2 years long.');
  const platformIds = [...new Set(q.platformIds ?? [])];
  if (platformIds.length) {
    const known = await repo.findPlatformIds(db, platformIds);
    if (platformIds.some((id) => !known.has(id)))
      throw new AppError('NOT_FOUND', 'One of the chosen networks does not exist.');
  }
  const integrationIds = [...new Set(q.integrationIds ?? [])];
  if (integrationIds.length) {
    const known = await repo.findIntegrationIds(db, organizationId, integrationIds);
    if (integrationIds.some((id) => !known.has(id)))
      throw new AppError(
        'NOT_FOUND',
        'One of the chosen accounts does not exist in this organization.',
      );
  }
  return { days, filter: { organizationId, platformIds, integrationIds } };
}

/** Turns a stored file's key into a URL the browser may load (the media store's signed URLs). */
export type SignMediaUrl = (key: string) => string;

/**
 * The analytics screen in one answer: KPIs for the range against the previous period of equal
 * length, the daily series, followers per account, the per-network comparison, top posts and
 * each account's freshness. The range's days, and the series', are days of `zone`.
 */
export async function getAnalyticsOverview(
  db: Db,
  organizationId: string,
  q: AnalyticsOverviewQuery,
  zone: string,
  signMediaUrl: SignMediaUrl | null = null,
): Promise<AnalyticsOverview> {
  const { days, filter } = await checkQuery(db, organizationId, q);
  const { start, end } = rangeIn(q.from, q.to, zone);
  const prevFrom = addDaysTo(q.from, -days);
  const prevTo = addDaysTo(q.from, -1);
  const prevStart = dayStart(prevFrom, zone);
  const rangeDays = Array.from({ length: days }, (_, i) => addDaysTo(q.from, i));

  const [{ networks, now, then }, top, daily, accountDays, accounts, status, outside] =
    await Promise.all([
      comparePeriods(db, filter, prevStart, start, end, true),
      repo.listTopTargets(db, filter, start, end, end, q.sort ?? 'views', 10),
      repo.listDailyGains(
        db,
        filter,
        rangeDays.map((day) => dayStart(day, zone)),
        end,
      ),
      // Account figures keep the day they were collected on (docs/analytics.md#overview).
      repo.listAccountDays(db, filter, addDaysTo(prevFrom, -1), q.to),
      repo.listAccounts(db, filter),
      repo.getOrgStatus(db, organizationId),
      // Posts published outside Herald compete for the top posts only (docs/analytics.md).
      listExternalReadings(db, filter, start, end, end),
    ]);

  const byDay = new Map(daily.map((d) => [d.day, d]));
  const series = rangeDays.map((day, index) => {
    const found = byDay.get(index);
    return { day, views: found?.views ?? null, interactions: found?.interactions ?? null };
  });

  const names = new Map(
    accounts.map((a) => [
      a.integrationId,
      { name: a.name ?? a.username ?? 'Account', platform: a.platform },
    ]),
  );
  const followers = accounts
    .map((a) => ({
      integrationId: a.integrationId,
      name: names.get(a.integrationId)!.name,
      platform: a.platform,
      points: accountDays
        .filter(
          (d) => d.integrationId === a.integrationId && d.day >= q.from && d.followers !== null,
        )
        .map((d) => ({ day: d.day, followers: d.followers! })),
      gained: followersGained(
        accountDays.filter((d) => d.integrationId === a.integrationId),
        q.from,
        q.to,
      ),
    }))
    .filter((a) => a.points.length > 0);

  networks.sort((a, b) => a.platform.localeCompare(b.platform));

  const rate = (r: TargetReading) => engagementOf([r]);
  // Herald's ten best (ranked in the database) and the outside posts, ranked together.
  const sortKey = q.sort ?? 'views';
  const value = (r: TargetReading) =>
    sortKey === 'views' ? r.views : sortKey === 'interactions' ? r.interactions : rate(r);
  const isExternal = (r: TargetReading): r is ExternalReading => r.postId === null;
  const best = [...top, ...outside]
    .filter((r) => r.takenAt !== null && value(r) !== null)
    .sort((a, b) => value(b)! - value(a)! || a.targetId.localeCompare(b.targetId))
    .slice(0, 10);
  const bestPostIds = [...new Set(best.filter((r) => !isExternal(r)).map((r) => r.postId!))];
  const [texts, pictures] = await Promise.all([
    repo.listPostTexts(db, organizationId, bestPostIds),
    signMediaUrl ? repo.listPostThumbnails(db, organizationId, bestPostIds) : [],
  ]);
  const textOf = new Map(texts.map((t) => [t.postId, t]));
  const thumbnails = new Map(
    pictures.map((t) => [t.postId, t.key && signMediaUrl ? signMediaUrl(t.key) : null]),
  );
  const topPosts = best.map((r) => ({
    source: isExternal(r) ? ('external' as const) : ('herald' as const),
    postId: r.postId,
    targetId: r.targetId,
    title: isExternal(r) ? null : (textOf.get(r.postId!)?.title ?? null),
    text: isExternal(r) ? (r.text ?? '') : (textOf.get(r.postId!)?.text ?? ''),
    platform: r.platform,
    accountName: r.accountName,
    publishedAt: r.publishedAt,
    permalink: webUrlOrNull(r.permalink),
    views: r.views,
    reach: r.reach,
    interactions: r.interactions,
    engagementRate: rate(r),
    takenAt: r.takenAt!,
    thumbnailUrl: isExternal(r)
      ? webUrlOrNull(r.thumbnailUrl)
      : (thumbnails.get(r.postId!) ?? null),
  }));

  return {
    timezone: zone,
    range: { from: q.from, to: q.to, previousFrom: prevFrom, previousTo: prevTo, days },
    engagementFormula: ENGAGEMENT_FORMULA,
    kpis: {
      views: kpi(now.views, then.views),
      reach: kpi(now.reach, then.reach),
      interactions: kpi(now.interactions, then.interactions),
      engagementRate: kpi(now.engagementRate, then.engagementRate),
      followersGained: kpi(
        followersGained(accountDays, q.from, q.to),
        followersGained(accountDays, prevFrom, prevTo),
      ),
      postsPublished: kpi(now.posts, then.posts),
    },
    daily: series,
    followers,
    networks,
    topPosts,
    accounts: accounts.map((a) => {
      const disconnected = a.status !== 'CONNECTED';
      const reason = disconnected
        ? 'The account is not connected: its metrics are not read until it is reconnected.'
        : a.staleReason;
      return {
        integrationId: a.integrationId,
        name: names.get(a.integrationId)!.name,
        platform: a.platform,
        isStale: reason !== null,
        staleReason: reason,
        staleSince: a.staleSince,
        lastSuccessAt: a.lastSuccessAt,
      };
    }),
    status: {
      connectedAccounts: status.connectedAccounts,
      publishedTargets: status.publishedTargets,
      hasReadings: status.hasReadings,
      firstCollectionAt:
        !status.hasReadings && status.firstPublishedAt
          ? new Date(Date.parse(status.firstPublishedAt) + FIRST_READING_AFTER_MS).toISOString()
          : null,
    },
  };
}

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/** X's price of one post read returned to a customer's token (kept with X's other prices). */
export const X_COST_PER_READ_USD = X_PRICES.postReadUsd;

/** The organization's X collection switch and budget, with this month's reads and refresh times. */
export async function getAnalyticsSettings(
  db: Db,
  organizationId: string,
  now = new Date(),
): Promise<AnalyticsSettings> {
  const row = await getSettings(db, organizationId);
  const month = monthOf(now);
  return {
    xEnabled: row?.xEnabled ?? false,
    xMonthlyReadBudget: row?.xMonthlyReadBudget ?? 1000,
    month,
    xReadsUsed: row && row.xReadsMonth === month ? row.xReadsUsed : 0,
    xCostPerReadUsd: X_COST_PER_READ_USD,
    ...refreshTimes(row?.refreshedAt),
  };
}

/** Turns X collection on or off and sets its monthly read budget. */
export async function updateAnalyticsSettings(
  db: Db,
  organizationId: string,
  input: UpdateAnalyticsSettingsRequest,
) {
  await saveXSettings(db, organizationId, {
    enabled: input.xEnabled,
    monthlyReadBudget: input.xMonthlyReadBudget,
  });
  return getAnalyticsSettings(db, organizationId);
}
