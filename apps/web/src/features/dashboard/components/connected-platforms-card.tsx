import type { Integration } from '@herald/contract';
import { Settings2 } from 'lucide-react';
import { generatePath } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

export const NO_PLATFORMS = 'No platforms connected yet.';

const accountName = (integration: Integration) =>
  integration.metadata.name?.trim() ||
  integration.metadata.username?.trim() ||
  integration.platformAccountId;

const statusLabels: Record<Integration['status'], { label: string; className: string }> = {
  CONNECTED: { label: 'Connected', className: 'text-emerald-700' },
  REFRESH_FAILED: { label: 'Reconnect needed', className: 'text-red-700' },
  DISCONNECTED: { label: 'Disconnected', className: 'text-slate-600' },
};

/** docs/product.md#dashboard: the organization's accounts, and Manage to the integrations settings. */
export function ConnectedPlatformsCard({
  orgId,
  integrations,
  supportedPlatformsCount,
}: {
  orgId: string;
  integrations: Integration[];
  supportedPlatformsCount: number;
}) {
  const connected = integrations.filter((i) => i.status === 'CONNECTED').length;
  return (
    <section
      aria-labelledby="platforms-heading"
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="platforms-heading" className="text-lg font-semibold text-slate-900">
            Connected Platforms
          </h2>
          <p className="text-sm text-slate-600">
            {connected} connected · {supportedPlatformsCount} supported
          </p>
        </div>
        <ButtonLink
          to={generatePath(paths.orgIntegrations, { orgId })}
          variant="secondary"
          size="sm"
        >
          <Settings2 className="size-4" aria-hidden="true" />
          Manage
        </ButtonLink>
      </div>
      {integrations.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-5 text-center text-sm text-slate-600">
          {NO_PLATFORMS}
        </p>
      ) : (
        <ul aria-label="Connected accounts" className="divide-y divide-slate-100">
          {integrations.map((integration) => {
            const name = accountName(integration);
            const status = statusLabels[integration.status];
            const { username, pictureUrl } = integration.metadata;
            return (
              <li key={integration.id} aria-label={name} className="flex items-center gap-3 py-2.5">
                <Avatar name={name} url={pictureUrl} className="size-9" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-semibold text-slate-900">{name}</p>
                  <p className="truncate text-xs text-slate-600">
                    {integration.platform.name}
                    {username && ` · @${username.replace(/^@/, '')}`}
                  </p>
                </div>
                <span className={cn('text-xs font-semibold', status.className)}>
                  {status.label}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
