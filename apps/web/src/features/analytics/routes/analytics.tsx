import { addDaysTo, ANALYTICS_MAX_RANGE_DAYS, dayIn, describeTimeZone } from '@herald/contract';
import { Printer } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadingIndicator } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { useIntegrations } from '@/lib/integrations';
import { useOrganization } from '@/lib/organization';
import { useCan } from '@/lib/permissions';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import {
  exportSearch,
  useAnalyticsOverview,
  useLinkClicks,
  useBestTimes,
  useAnalyticsSettings,
  type AnalyticsQuery,
  type TopPostsSort,
} from '../api/analytics';
import { BestTimesHeatmap } from '../components/best-times-heatmap';
import { DailyChart } from '../components/daily-chart';
import { EmptyState } from '../components/empty-state';
import { ExportButton } from '../components/export-button';
import { Filters, PRESETS, type FilterState, type Preset } from '../components/filters';
import { FollowersChart } from '../components/followers-chart';
import { KpiCards } from '../components/kpi-cards';
import { NetworkComparison } from '../components/network-comparison';
import { RefreshButton } from '../components/refresh-button';
import { ReportDownloadButton } from '../components/report-download-button';
import { StaleNotices } from '../components/stale-notices';
import { TopPosts } from '../components/top-posts';
import { LinkClicksTable } from '../components/link-clicks';
import { XSettingsCard } from '../components/x-settings-card';

export const LOAD_FAILED = 'The analytics could not be loaded. Please try again.';

const DAY_MS = 86_400_000;
const SORTS: TopPostsSort[] = ['views', 'interactions', 'engagement'];

/**
 * The filters from the address (so a view can be shared and reloaded), with defaults: the last
 * days up to `today`, a day of the zone that applies.
 */
function readFilters(search: URLSearchParams, today: string): FilterState & { sort: TopPostsSort } {
  const preset = (PRESETS as readonly string[]).includes(search.get('range') ?? '')
    ? (search.get('range') as Preset)
    : '30';
  const days = preset === 'custom' ? 30 : Number(preset);
  const sort = search.get('sort') as TopPostsSort;
  return {
    preset,
    from: (preset === 'custom' && search.get('from')) || addDaysTo(today, 1 - days),
    to: (preset === 'custom' && search.get('to')) || today,
    platformId: search.get('network') ?? '',
    integrationId: search.get('account') ?? '',
    sort: SORTS.includes(sort) ? sort : 'views',
  };
}

/** Why a custom range cannot be asked for, in the words the server would use. */
function rangeProblem(from: string, to: string): string | null {
  if (!from || !to) return 'Choose both days of the range.';
  if (to < from) return 'The range ends before it starts.';
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > ANALYTICS_MAX_RANGE_DAYS) return 'The range can be at most 2 years long.';
  return null;
}

/** /analytics: the organization's figures for a range, from the networks' own metrics. */
export function AnalyticsPage() {
  const { currentOrgId } = useAuth();
  const [search, setSearch] = useSearchParams();
  // Days are the zone's that applies (the organization's, else the member's), named below.
  const timeZone = useTimeZoneRule();
  const filters = readFilters(search, dayIn(Date.now(), timeZone.zone));
  const rangeError = rangeProblem(filters.from, filters.to);
  const query: AnalyticsQuery = {
    from: filters.from,
    to: filters.to,
    timezone: timeZone.zone,
    platformIds: filters.platformId ? [filters.platformId] : [],
    integrationIds: filters.integrationId ? [filters.integrationId] : [],
    sort: filters.sort,
  };
  const integrations = useIntegrations(currentOrgId);
  const overview = useAnalyticsOverview(
    rangeError || !timeZone.settled ? null : currentOrgId,
    query,
  );
  const bestTimes = useBestTimes(
    rangeError || !overview.data?.status.hasReadings ? null : currentOrgId,
    query,
  );
  // Counted by Herald as they happen: shown whether or not the networks were read yet.
  const linkClicks = useLinkClicks(rangeError || !timeZone.settled ? null : currentOrgId, query);
  const settings = useAnalyticsSettings(currentOrgId);
  const canManage = useCan('PUT /organizations/:orgId/analytics/settings');
  const canExport = useCan('GET /organizations/:orgId/analytics/export.csv');
  const canRefresh = useCan('POST /organizations/:orgId/analytics/refresh');
  const canDownloadReport = useCan('GET /organizations/:orgId/reports/pdf');

  const organization = useOrganization(currentOrgId);
  // On paper the filters' controls are hidden: the report says in words what it covers.
  const accountName = integrations.data?.find((i) => i.id === filters.integrationId);
  const networkName = integrations.data?.find((i) => i.platform.id === filters.platformId)?.platform
    .name;
  const reportFilters = [
    networkName && `Network: ${networkName}.`,
    accountName && `Account: ${accountName.metadata.name ?? accountName.metadata.username ?? ''}.`,
  ]
    .filter(Boolean)
    .join(' ');

  const update = (next: Partial<FilterState & { sort: TopPostsSort }>) => {
    const merged = { ...filters, ...next };
    const params = new URLSearchParams();
    params.set('range', merged.preset);
    if (merged.preset === 'custom') {
      params.set('from', merged.from);
      params.set('to', merged.to);
    }
    if (merged.platformId) params.set('network', merged.platformId);
    if (merged.integrationId) params.set('account', merged.integrationId);
    if (merged.sort !== 'views') params.set('sort', merged.sort);
    setSearch(params, { replace: true });
  };

  const body = () => {
    if (rangeError) return null;
    if (overview.isPending) return <LoadingIndicator label="Loading analytics" className="py-16" />;
    if (overview.isError && !overview.data)
      return (
        <div
          role="alert"
          className="flex flex-col items-center gap-4 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-900"
        >
          <p className="font-semibold">{overview.error.message || LOAD_FAILED}</p>
          <Button variant="secondary" onClick={() => void overview.refetch()}>
            Try Again
          </Button>
        </div>
      );
    const data = overview.data;
    // Before the first reading there is nothing to draw: only what to do next.
    if (!data.status.hasReadings)
      return (
        <>
          <EmptyState
            status={data.status}
            timeZone={timeZone.zone}
            xOff={
              settings.data?.xEnabled === false &&
              (integrations.data?.some((i) => i.platform.name === 'X') ?? false)
            }
          />
          <StaleNotices accounts={data.accounts} />
        </>
      );
    return (
      <>
        <StaleNotices accounts={data.accounts} />
        <KpiCards kpis={data.kpis} days={data.range.days} formula={data.engagementFormula} />
        <DailyChart days={data.daily} />
        {bestTimes.data ? (
          <BestTimesHeatmap data={bestTimes.data} from={data.range.from} to={data.range.to} />
        ) : bestTimes.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {bestTimes.error.message || 'The best time to post could not be loaded.'}
          </p>
        ) : null}
        <div className="grid items-start gap-6 2xl:grid-cols-2">
          <FollowersChart accounts={data.followers} from={data.range.from} to={data.range.to} />
          <NetworkComparison networks={data.networks} />
        </div>
        <TopPosts posts={data.topPosts} sort={filters.sort} onSort={(sort) => update({ sort })} />
      </>
    );
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <title>Analytics · Herald</title>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            Analytics
            {organization.data && (
              <span className="hidden print:inline">{` · ${organization.data.name}`}</span>
            )}
          </h1>
          <p className="text-sm text-slate-600">
            {`${filters.from} to ${filters.to}, compared with the period of equal length before it. Days in ${describeTimeZone(timeZone)}.`}
          </p>
        </div>
        {!rangeError && (
          <div className="flex flex-wrap items-start gap-2 print:hidden">
            {canRefresh && currentOrgId && (
              <RefreshButton
                orgId={currentOrgId}
                nextRefreshAt={settings.data?.nextRefreshAt ?? null}
                timeZone={timeZone.zone}
              />
            )}
            {canExport && currentOrgId && (
              <>
                <ExportButton orgId={currentOrgId} search={exportSearch(query)} />
                <ExportButton
                  orgId={currentOrgId}
                  search={exportSearch(query)}
                  file="accounts.csv"
                  label="Export accounts CSV"
                />
              </>
            )}
            {canDownloadReport && currentOrgId && (
              <ReportDownloadButton orgId={currentOrgId} search={exportSearch(query)} />
            )}
            {overview.data?.status.hasReadings && (
              // The browser's print dialog: "Save as PDF" gives the A4 report (print styles below).
              <Button variant="secondary" size="sm" onClick={() => window.print()}>
                <Printer className="size-4" aria-hidden="true" />
                Print report
              </Button>
            )}
          </div>
        )}
      </header>
      <div className="print:hidden">
        <Filters
          state={filters}
          onChange={update}
          integrations={integrations.data ?? []}
          rangeError={rangeError}
        />
      </div>
      {reportFilters && (
        <p className="hidden text-sm text-slate-700 print:block">{reportFilters}</p>
      )}
      {body()}
      {!rangeError && linkClicks.data && linkClicks.data.targets.length > 0 && (
        <LinkClicksTable targets={linkClicks.data.targets} />
      )}
      {/* Only where it matters: an X account is connected, or X reading is on. */}
      {currentOrgId &&
        settings.data &&
        (settings.data.xEnabled || integrations.data?.some((i) => i.platform.name === 'X')) && (
          <div className="print:hidden">
            <XSettingsCard orgId={currentOrgId} settings={settings.data} canManage={canManage} />
          </div>
        )}
    </div>
  );
}
