import type { Integration } from '@herald/contract';
import dayjs from 'dayjs';
import { RefreshCw, Unplug } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { webNetworkOf } from '@/networks';
import { SandboxBadge } from './sandbox-badge';

const handleOf = (integration: Integration) => {
  const username = integration.metadata.username?.trim().replace(/^@/, '');
  return username ? `@${username}` : null;
};

/**
 * Which account this is, as its network shows it: the handle where accounts are known by it
 * (WEB_NETWORKS' `knownByHandle`: Instagram, X, Threads, TikTok), the name of a Page or profile
 * elsewhere.
 */
export function accountName(integration: Integration): string {
  const handle = handleOf(integration);
  const name = integration.metadata.name?.trim();
  if (webNetworkOf(integration.platform.name)?.knownByHandle) {
    return handle || name || integration.platformAccountId;
  }
  return name || handle || integration.platformAccountId;
}

/** What kind of account it is: "Facebook Page", "LinkedIn profile", "Instagram professional account"… */
export function accountKind(integration: Integration): string {
  const network = webNetworkOf(integration.platform.name);
  return network ? network.accountKind(integration) : `${integration.platform.name} profile`;
}

const statusBadges: Record<Integration['status'], { label: string; className: string }> = {
  CONNECTED: { label: 'Connected', className: 'bg-emerald-100 text-emerald-800' },
  REFRESH_FAILED: { label: 'Reconnect needed', className: 'bg-red-100 text-red-800' },
  DISCONNECTED: { label: 'Disconnected', className: 'bg-slate-200 text-slate-700' },
};

interface IntegrationItemProps {
  integration: Integration;
  /** Shown (and wired) only when the member may do it. */
  onReconnect?: () => void;
  onRefresh?: () => void;
  onDisconnect?: () => void;
  isRefreshing: boolean;
  /** The browser is leaving for a consent page. */
  isLeaving: boolean;
}

/** One connected account: who it is, whether it still works, and what can be done with it. */
export function IntegrationItem({
  integration,
  onReconnect,
  onRefresh,
  onDisconnect,
  isRefreshing,
  isLeaving,
}: IntegrationItemProps) {
  const name = accountName(integration);
  const platform = integration.platform.name;
  const { pictureUrl } = integration.metadata;
  const handle = handleOf(integration);
  // The handle is shown next to a Page's or profile's name when the name leads.
  const handleAside = handle && handle !== name ? handle : null;
  const status = statusBadges[integration.status];
  const needsReconnect = integration.status !== 'CONNECTED';

  return (
    <li aria-label={name} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Avatar name={name} url={pictureUrl} />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="truncate font-semibold text-slate-900">{name}</span>
            <span
              className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', status.className)}
            >
              {status.label}
            </span>
            {integration.sandbox && <SandboxBadge platform={platform} />}
          </p>
          <p className="text-sm break-words text-slate-600">
            {accountKind(integration)}
            {handleAside && <span> · {handleAside}</span>} · Connected{' '}
            {dayjs(integration.connectedAt).format('MMM D, YYYY')}
          </p>
          {needsReconnect && integration.lastError && (
            <p className="mt-1 text-sm text-red-700">{integration.lastError}</p>
          )}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:justify-end">
        {needsReconnect && onReconnect && (
          <Button
            size="sm"
            aria-label={`Reconnect ${name}`}
            onClick={onReconnect}
            disabled={isLeaving}
          >
            Reconnect
          </Button>
        )}
        {onRefresh && (
          <Button
            size="sm"
            variant="ghost"
            title={`Refresh the access tokens of ${name} (${platform})`}
            onClick={onRefresh}
            disabled={isRefreshing}
          >
            {isRefreshing ? (
              <Spinner className="size-4" />
            ) : (
              <RefreshCw className="size-4" aria-hidden="true" />
            )}
            Refresh tokens<span className="sr-only"> for {platform}</span>
          </Button>
        )}
        {onDisconnect && (
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Disconnect ${name}`}
            onClick={onDisconnect}
          >
            <Unplug className="size-4" aria-hidden="true" />
            Disconnect
          </Button>
        )}
      </div>
    </li>
  );
}
