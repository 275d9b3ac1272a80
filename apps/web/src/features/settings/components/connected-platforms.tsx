import type { Integration } from '@herald/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadingIndicator } from '@/components/ui/spinner';
import { goToExternal } from '@/lib/browser';
import {
  connectablePlatforms,
  connectUrl,
  useIntegrations,
  useSupportedPlatforms,
} from '@/lib/integrations';
import { useCan } from '@/lib/permissions';
import { platformNameOf, WEB_NETWORKS } from '@/networks';
import { toast, toastError } from '@/lib/toast';
import {
  canRefreshTokens,
  useConnectWithAppPassword,
  useDisconnect,
  useRefreshTokens,
} from '../api/connections';
import { AppPasswordForm } from './app-password-form';
import { SignInPageForm } from './sign-in-page-form';
import { ConnectButtons, connectKey } from './connect-buttons';
import { accountName, IntegrationItem } from './integration-item';

export const SELECT_ORGANIZATION = 'Select an organization';
export const NO_PLATFORMS = 'No platforms connected';
export const INTEGRATIONS_LOAD_FAILED = 'Failed to load connected accounts.';
export const PLATFORMS_LOAD_FAILED = 'Could not load the platforms you can connect.';

/** The organization's accounts, one group per network, in the order they were connected. */
function groupByPlatform(integrations: Integration[]) {
  const groups = new Map<string, Integration[]>();
  for (const integration of integrations) {
    const name = integration.platform.name;
    groups.set(name, [...(groups.get(name) ?? []), integration]);
  }
  return [...groups.entries()];
}

/** What disconnecting an account does, with the scheduled posts it affects (the server counts them). */
export function disconnectMessage(integration: Integration | null): string {
  if (!integration) return '';
  const name = accountName(integration);
  const count = integration.scheduledPostCount ?? 0;
  const affected =
    count === 0
      ? ''
      : ` ${count} scheduled ${count === 1 ? 'post goes' : 'posts go'} out from this account; ${count === 1 ? 'it fails' : 'they fail'} unless you connect it again before ${count === 1 ? 'its' : 'their'} time.`;
  // A video uploaded ahead is YouTube's to publish: only the account can still take it back.
  const uploaded =
    count > 0 && integration.platform.name === 'YouTube'
      ? ' Videos already uploaded to YouTube ahead of their time still go public then, unless you connect the account again and move their posts to draft or delete them.'
      : '';
  return `Herald stops publishing to ${name} and forgets its access.${affected}${uploaded} You can connect it again at any time.`;
}

/** docs/product.md#settings: connect networks, and see, refresh or disconnect connected accounts. */
export function ConnectedPlatforms({ orgId, orgName }: { orgId: string | null; orgName: string }) {
  const supported = useSupportedPlatforms();
  const integrations = useIntegrations(orgId);
  const disconnect = useDisconnect(orgId ?? '');
  const refresh = useRefreshTokens(orgId ?? '');
  const canConnect = useCan('GET /auth/:platform');
  const canRefresh = useCan('GET /auth/:platform/refresh');
  const canDisconnect = useCan('POST /:platform/disconnect/:orgId');
  const [leavingFor, setLeavingFor] = useState<string | null>(null);
  const [toDisconnect, setToDisconnect] = useState<Integration | null>(null);
  const [askServerFor, setAskServerFor] = useState<string | null>(null);
  const [server, setServer] = useState('');
  const [askPasswordFor, setAskPasswordFor] = useState<{
    platform: string;
    identifier: string;
  } | null>(null);
  const connectWithPassword = useConnectWithAppPassword(orgId ?? '');

  /** `knownServer`: reconnecting an account of a network of many servers, on its own server. */
  const onConnect = (platformName: string, kind?: string | null, knownServer?: string) => {
    if (!orgId) return;
    const network = platformNameOf(platformName);
    if (network !== null && WEB_NETWORKS[network].connectsWithAppPassword) {
      // No sign-in page to go to: the handle and an app password are asked for here.
      setAskPasswordFor({ platform: platformName, identifier: knownServer ?? '' });
      return;
    }
    const asksServer = network !== null && WEB_NETWORKS[network].asksServer === true;
    if (asksServer && !knownServer && askServerFor !== platformName) {
      setAskServerFor(platformName);
      return;
    }
    setLeavingFor(connectKey(platformName, kind));
    const typed = asksServer ? (knownServer ?? server.trim()) : '';
    goToExternal(connectUrl(platformName, orgId, kind, typed || undefined));
  };

  /**
   * The server of an account of a network of many servers: Herald keeps it as `{id}@{server}`.
   * For a network connected with an app password, the account's handle, asked for again.
   */
  const serverOf = (integration: Integration) => {
    const network = platformNameOf(integration.platform.name);
    if (network && WEB_NETWORKS[network].connectsWithAppPassword)
      return integration.metadata.username ?? undefined;
    if (!network || !WEB_NETWORKS[network].asksServer) return undefined;
    return integration.platformAccountId.split('@')[1];
  };

  /** Whether this server offers signing in on the network's own page beside the app password. */
  const offersSignInPage = (platformName: string) =>
    supported.data?.find((p) => p.name === platformName)?.offersSignInPage === true;

  const renderServerForm = () =>
    askServerFor && (
      <form
        className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          if (server.trim()) onConnect(askServerFor);
        }}
      >
        <label className="flex min-w-0 flex-col gap-1 text-sm sm:flex-1">
          <span className="font-medium text-slate-700">Your {askServerFor} server</span>
          <input
            className="rounded-lg border border-slate-300 px-3 py-2"
            placeholder="mastodon.social"
            value={server}
            autoFocus
            onChange={(event) => setServer(event.target.value)}
          />
        </label>
        <button
          type="submit"
          className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white disabled:opacity-50"
          disabled={!server.trim() || leavingFor !== null}
        >
          Continue to {askServerFor}
        </button>
      </form>
    );

  const onRefresh = (integration: Integration) => {
    const platform = integration.platform.name;
    refresh.mutate(integration, {
      onSuccess: () => toast.success(`Access tokens refreshed for ${platform}`),
      onError: (error) => toastError(error, `Failed to refresh token for ${platform}.`),
    });
  };

  const onConfirmDisconnect = (integration: Integration) => {
    const platform = integration.platform.name;
    disconnect.mutate(integration, {
      onSuccess: () => toast.success(`${platform} disconnected successfully.`),
      onError: (error) => toastError(error, `Failed to disconnect ${platform}. Please try again.`),
      onSettled: () => setToDisconnect(null),
    });
  };

  const renderConnect = () => {
    if (!canConnect) {
      return (
        <p className="text-sm text-slate-600">
          Only members who may connect accounts can add one. Ask an organization admin.
        </p>
      );
    }
    if (supported.isPending) {
      return <LoadingIndicator label="Loading platforms" className="h-10 justify-start" />;
    }
    if (supported.isError) return <Alert>{PLATFORMS_LOAD_FAILED}</Alert>;
    return (
      <>
        <ConnectButtons
          platforms={connectablePlatforms(supported.data)}
          leavingFor={leavingFor}
          onConnect={onConnect}
        />
        {renderServerForm()}
        {askPasswordFor && offersSignInPage(askPasswordFor.platform) && (
          <>
            <SignInPageForm
              key={`sign-in:${askPasswordFor.platform}`}
              platformName={askPasswordFor.platform}
              initialIdentifier={askPasswordFor.identifier}
              isLeaving={leavingFor !== null}
              onSubmit={(typed) => {
                if (!orgId) return;
                setLeavingFor(connectKey(askPasswordFor.platform));
                goToExternal(connectUrl(askPasswordFor.platform, orgId, null, typed));
              }}
            />
            <p className="mt-3 text-sm font-medium text-slate-600">Or use an app password</p>
          </>
        )}
        {askPasswordFor && (
          <AppPasswordForm
            key={askPasswordFor.platform}
            platformName={askPasswordFor.platform}
            initialIdentifier={askPasswordFor.identifier}
            autoFocus={!offersSignInPage(askPasswordFor.platform)}
            isPending={connectWithPassword.isPending}
            onCancel={() => setAskPasswordFor(null)}
            onSubmit={(identifier, appPassword) =>
              connectWithPassword.mutate(
                { platformName: askPasswordFor.platform, identifier, appPassword },
                {
                  onSuccess: () => {
                    toast.success(`${askPasswordFor.platform} connected.`);
                    setAskPasswordFor(null);
                  },
                  onError: (error) =>
                    toastError(error, `Could not connect ${askPasswordFor.platform}.`),
                },
              )
            }
          />
        )}
      </>
    );
  };

  const renderAccounts = () => {
    if (!orgId) return <p className="text-slate-600">{SELECT_ORGANIZATION}</p>;
    if (integrations.isPending) {
      return <LoadingIndicator label="Loading connected accounts" className="py-8" />;
    }
    if (integrations.isError) {
      return (
        <Alert>
          {INTEGRATIONS_LOAD_FAILED}{' '}
          <button
            type="button"
            className="font-semibold underline"
            onClick={() => void integrations.refetch()}
          >
            Try again
          </button>
        </Alert>
      );
    }
    if (integrations.data.length === 0) {
      return (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          {NO_PLATFORMS}
        </p>
      );
    }
    return (
      <div className="flex flex-col gap-4">
        {groupByPlatform(integrations.data).map(([platform, accounts]) => (
          <section key={platform} aria-label={`${platform} accounts`}>
            <h3 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
              {platform}
            </h3>
            <ul className="divide-y divide-slate-100">
              {accounts.map((integration) => (
                <IntegrationItem
                  key={integration.id}
                  integration={integration}
                  isLeaving={leavingFor !== null}
                  isRefreshing={refresh.isPending && refresh.variables?.id === integration.id}
                  onReconnect={
                    canConnect
                      ? () =>
                          onConnect(
                            platform,
                            integration.connectKind ?? null,
                            serverOf(integration),
                          )
                      : undefined
                  }
                  onRefresh={
                    canRefresh && canRefreshTokens(platform)
                      ? () => onRefresh(integration)
                      : undefined
                  }
                  onDisconnect={canDisconnect ? () => setToDisconnect(integration) : undefined}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    );
  };

  return (
    <section
      aria-labelledby="platforms-heading"
      className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div>
        <h2 id="platforms-heading" className="text-lg font-semibold text-slate-900">
          Connected Platforms
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The social accounts {orgName} publishes to. Connecting one opens the network&apos;s
          sign-in page (Bluesky asks for an app password here instead).
        </p>
      </div>
      {orgId && renderConnect()}
      {renderAccounts()}
      <ConfirmDialog
        open={toDisconnect !== null}
        onOpenChange={(open) => !open && !disconnect.isPending && setToDisconnect(null)}
        title={`Disconnect ${toDisconnect?.platform.name ?? ''}?`}
        message={disconnectMessage(toDisconnect)}
        confirmLabel="Disconnect"
        isPending={disconnect.isPending}
        onConfirm={() => toDisconnect && onConfirmDisconnect(toDisconnect)}
      />
    </section>
  );
}
