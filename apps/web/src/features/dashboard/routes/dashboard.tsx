import { PenSquare } from 'lucide-react';
import { useParams } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useDashboard, type Dashboard } from '../api/dashboard';
import { recentActivity } from '../components/activity';
import { ConnectedPlatformsCard } from '../components/connected-platforms-card';
import { PlanBanner } from '../components/plan-banner';
import { QuickActions } from '../components/quick-actions';
import { RecentActivity } from '../components/recent-activity';
import { StatCards } from '../components/stat-cards';

export const NO_ORGANIZATION = 'Please select an organization to view the dashboard.';
export const LOAD_FAILED = 'Failed to fetch dashboard data. Please try again later.';

function DashboardBody({ orgId, data }: { orgId: string; data: Dashboard }) {
  return (
    <>
      <PlanBanner subscription={data.subscription} plans={data.plans} />
      <StatCards orgId={orgId} postCounts={data.postCounts} engagement={data.engagement} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <QuickActions memberCount={data.memberCount} />
        <RecentActivity items={recentActivity(data.posts, data.integrations)} />
      </div>
      <ConnectedPlatformsCard
        orgId={orgId}
        integrations={data.integrations}
        supportedPlatformsCount={data.supportedPlatformsCount}
      />
    </>
  );
}

/**
 * /dashboard and /org/{orgId}/dashboard (docs/product.md#dashboard): the organization at a glance, from real
 * figures only. The address's organization wins over the stored one (the sign-in redirect names
 * it).
 */
export function DashboardPage() {
  const params = useParams();
  const { currentOrgId, member } = useAuth();
  const orgId = params.orgId ?? currentOrgId;
  const dashboard = useDashboard(orgId);
  const storedName = member?.organizationId === orgId ? member.organization.name : null;
  const name = dashboard.data?.organization.name ?? storedName;

  const render = () => {
    if (!orgId) {
      return (
        <p className="rounded-xl bg-slate-100 p-6 text-center text-slate-700">{NO_ORGANIZATION}</p>
      );
    }
    if (dashboard.isPending)
      return <LoadingIndicator label="Loading the dashboard" className="py-16" />;
    if (dashboard.isError && !dashboard.data) {
      return (
        <div
          role="alert"
          className="flex flex-col items-center gap-4 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-900"
        >
          <p className="font-semibold">{LOAD_FAILED}</p>
          <Button
            variant="secondary"
            onClick={() => void dashboard.refetch()}
            disabled={dashboard.isFetching}
          >
            Try Again
          </Button>
        </div>
      );
    }
    return <DashboardBody orgId={orgId} data={dashboard.data} />;
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <title>{`${name ? `${name} Dashboard` : 'Dashboard'} · Herald`}</title>
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">
          {name ? `${name} Dashboard` : 'Dashboard'}
        </h1>
        <ButtonLink to={paths.createPost}>
          <PenSquare className="size-4" aria-hidden="true" />
          Create Post
        </ButtonLink>
      </header>
      {render()}
    </div>
  );
}
