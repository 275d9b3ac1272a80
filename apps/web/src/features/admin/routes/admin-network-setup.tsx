import type { NetworkSetup, NetworkSetupFinding, NetworkSetupReport } from '@herald/contract';
import { CircleAlert, CircleCheck, CircleX, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { NetworkMark } from '@/components/ui/network-mark';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useNetworkSetup } from '../api/network-setup';
import { AdminPageHeader } from '../components/admin-ui';

export const NETWORK_SETUP_LOAD_FAILED = 'Failed to check the network setup.';

const MODE_LABEL: Record<NetworkSetup['mode'], string> = {
  configured: 'Real credentials',
  sandbox: 'Local sandbox',
  unavailable: 'No credentials',
};

const LEVEL = {
  ok: { icon: CircleCheck, label: 'OK', tone: 'text-emerald-700' },
  warning: { icon: CircleAlert, label: 'Warning', tone: 'text-amber-700' },
  problem: { icon: CircleX, label: 'Problem', tone: 'text-red-700' },
} as const;

function Finding({ finding }: { finding: NetworkSetupFinding }) {
  const { icon: Icon, label, tone } = LEVEL[finding.level];
  return (
    <li className="flex gap-2 text-sm text-slate-700">
      <Icon className={cn('mt-0.5 size-4 shrink-0', tone)} aria-hidden="true" />
      <span>
        <span className={cn('font-semibold', tone)}>{label}: </span>
        {finding.message}
      </span>
    </li>
  );
}

function worstLevel(network: NetworkSetup): NetworkSetupFinding['level'] {
  const levels = network.findings.map((f) => f.level);
  return levels.includes('problem') ? 'problem' : levels.includes('warning') ? 'warning' : 'ok';
}

function NetworkCard({ network }: { network: NetworkSetup }) {
  const worst = worstLevel(network);
  return (
    <section
      aria-labelledby={`setup-${network.slug}`}
      className={cn(
        'min-w-0 rounded-xl border bg-white p-4 shadow-sm sm:p-5',
        worst === 'problem'
          ? 'border-red-300'
          : worst === 'warning'
            ? 'border-amber-300'
            : 'border-slate-200',
      )}
    >
      <div className="flex flex-wrap items-center gap-3">
        <NetworkMark name={network.name} size="lg" />
        <h2 id={`setup-${network.slug}`} className="text-lg font-semibold text-slate-900">
          {network.name}
        </h2>
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
          {MODE_LABEL[network.mode]}
        </span>
        {network.active !== null && (
          <span className="text-xs text-slate-600">
            {network.active ? 'Offered to users' : 'Switched off'}
          </span>
        )}
      </div>
      <dl className="mt-4 grid gap-2 text-sm">
        <div>
          <dt className="font-medium text-slate-900">Redirect URI</dt>
          <dd>
            <code className="block rounded bg-slate-100 px-2 py-1 break-all text-slate-800">
              {network.redirectUri}
            </code>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">Scopes requested</dt>
          <dd className="break-words text-slate-700">{network.scopes.join(' ') || 'None'}</dd>
        </div>
      </dl>
      <ul className="mt-4 flex flex-col gap-2" aria-label={`${network.name} findings`}>
        {network.findings.map((finding, i) => (
          <Finding key={i} finding={finding} />
        ))}
      </ul>
    </section>
  );
}

/** Whether the processes serving the database read the same media (docs/architecture.md#processes). */
function DeploymentCard({ findings }: { findings: NetworkSetupReport['deployment'] }) {
  const problem = findings.some((f) => f.level === 'problem');
  return (
    <section
      aria-labelledby="setup-deployment"
      className={cn(
        'min-w-0 rounded-xl border bg-white p-4 shadow-sm sm:p-5',
        problem ? 'border-red-300' : 'border-slate-200',
      )}
    >
      <h2 id="setup-deployment" className="text-lg font-semibold text-slate-900">
        Processes serving the database
      </h2>
      <ul className="mt-4 flex flex-col gap-2" aria-label="Processes findings">
        {findings.map((finding, i) => (
          <Finding key={i} finding={finding} />
        ))}
      </ul>
    </section>
  );
}

/**
 * /admin/network-setup (docs/networks.md#preflight): what `herald doctor` says, per network; the
 * button also asks each network's token endpoint whether it knows Herald's credentials.
 */
export function AdminNetworkSetupPage() {
  const [live, setLive] = useState(false);
  const setup = useNetworkSetup(live);
  const report = setup.data;
  const counts = (level: NetworkSetupFinding['level']) =>
    [...(report?.networks ?? []).flatMap((n) => n.findings), ...(report?.deployment ?? [])].filter(
      (f) => f.level === level,
    ).length;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <AdminPageHeader
        title="Network setup"
        description="What each network's developer app needs before people connect accounts: the same checks as herald doctor."
        action={
          <Button
            variant="secondary"
            onClick={() => (live ? void setup.refetch() : setLive(true))}
            disabled={setup.isFetching}
          >
            <RefreshCw
              className={cn('size-4', setup.isFetching && live && 'animate-spin')}
              aria-hidden="true"
            />
            Check with the networks
          </Button>
        }
      />
      {setup.isError && (
        <LoadError
          message={errorMessage(setup.error, NETWORK_SETUP_LOAD_FAILED)}
          onRetry={() => void setup.refetch()}
        />
      )}
      {setup.isPending ? (
        <LoadingIndicator
          label={live ? 'Asking the networks' : 'Checking the setup'}
          className="py-16"
        />
      ) : report ? (
        <>
          <p className="text-sm text-slate-700" role="status">
            {`${counts('problem')} problem(s) and ${counts('warning')} warning(s). API_PUBLIC_URL is ${report.apiPublicUrl}`}
            {report.live ? '; the token endpoints were asked.' : '.'}
          </p>
          {report.deployment.length > 0 && <DeploymentCard findings={report.deployment} />}
          <div className="grid items-start gap-4 lg:grid-cols-2">
            {report.networks.map((network) => (
              <NetworkCard key={`${network.slug}:${network.kind ?? ''}`} network={network} />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
