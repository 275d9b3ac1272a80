import { PlatformError } from './errors.js';
import type { InboxAdapter } from './inbox-types.js';
import type { ConnectKind, NetworkModule } from './network-module.js';
import type {
  AdapterSettings,
  MetricsAdapter,
  PlatformAdapter,
  PublishingAdapter,
  StoredAccount,
} from './types.js';

/** One connect kind as this server runs it: its adapter, and whether it goes to the sandbox. */
export interface ConnectKindRuntime extends ConnectKind {
  sandbox: boolean;
  adapter: PlatformAdapter;
}

/**
 * One adapter for a network with several connect kinds (docs/decisions/0012-linkedin-connect-kinds.md):
 * sign-ins go to the kind named in the input, everything about a stored account to the kind it
 * was connected as — each kind talks to the network with its own developer app.
 */
export function combineConnectKinds(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>,
  kinds: readonly ConnectKindRuntime[],
): PlatformAdapter {
  const first = kinds[0];
  if (!first || !module.kindOf) throw new Error(`${module.name} has no connect kinds to combine.`);
  const kindOf = module.kindOf;
  const byName = (kind: string | undefined) => {
    const found = kind === undefined ? first : kinds.find((k) => k.kind === kind);
    if (!found)
      throw new PlatformError(
        'bad_request',
        `Herald cannot connect this kind of ${module.name} account here ("${kind}").`,
      );
    return found.adapter;
  };
  const forAccount = (account: StoredAccount) => byName(kindOf(account));
  const publishingOf = (account: StoredAccount) => {
    const publishing = forAccount(account).publishing;
    if (!publishing)
      throw new PlatformError('bad_request', `${module.name} cannot publish for this account.`);
    return publishing;
  };
  const anyPublishing = kinds.find((k) => k.adapter.publishing)?.adapter.publishing;
  const optional = <K extends keyof PublishingAdapter>(name: K) =>
    anyPublishing?.[name]
      ? (((account: StoredAccount, ...rest: unknown[]) =>
          (publishingOf(account)[name] as (...args: unknown[]) => unknown)(
            account,
            ...rest,
          )) as unknown as PublishingAdapter[K])
      : undefined;
  const publishing: PublishingAdapter | undefined = anyPublishing && {
    prepare: (account, request) => publishingOf(account).prepare(account, request),
    check: (account, state, request) => publishingOf(account).check(account, state, request),
    finalize: (account, request, state) => publishingOf(account).finalize(account, request, state),
    reconcile: optional('reconcile'),
    listComments: optional('listComments'),
    reply: optional('reply'),
    editComment: optional('editComment'),
    deleteComment: optional('deleteComment'),
    followUp: optional('followUp'),
  };
  const anyMetrics = kinds.find((k) => k.adapter.metrics)?.adapter.metrics;
  // Each kind reads metrics with its own app (a member kind may read none: null).
  const metrics: MetricsAdapter | undefined = anyMetrics && {
    billedReads: anyMetrics.billedReads,
    postMetrics: async (account, post) =>
      (await forAccount(account).metrics?.postMetrics(account, post)) ?? null,
    accountMetrics: async (account) =>
      (await forAccount(account).metrics?.accountMetrics(account)) ?? null,
  };
  // The inbox of the kind the account was connected as (docs/inbox.md): every call names the account first.
  const anyInbox = kinds.find((k) => k.adapter.inbox)?.adapter.inbox;
  const inboxOf = (account: StoredAccount) => {
    const own = forAccount(account).inbox;
    if (!own)
      throw new PlatformError('bad_request', `${module.name} has no inbox for this account.`);
    return own;
  };
  const inbox: InboxAdapter | undefined =
    anyInbox &&
    (Object.fromEntries(
      Object.entries(anyInbox)
        .filter(([, value]) => typeof value === 'function')
        .map(([name]) => [
          name,
          (account: StoredAccount, ...rest: unknown[]) =>
            (inboxOf(account)[name as keyof InboxAdapter] as (...args: unknown[]) => unknown)(
              account,
              ...rest,
            ),
        ]),
    ) as unknown as InboxAdapter);
  return {
    name: module.name,
    refreshNeedsRefreshToken: kinds.some((k) => k.adapter.refreshNeedsRefreshToken),
    authorizeUrl: (input) => byName(input.kind).authorizeUrl(input),
    connect: (input) => byName(input.kind).connect(input),
    ...(kinds.some((k) => k.adapter.refresh)
      ? {
          refresh: (account: StoredAccount) => {
            const adapter = forAccount(account);
            if (!adapter.refresh)
              throw new PlatformError('reauth', `Reconnect this ${module.name} account.`);
            return adapter.refresh(account);
          },
        }
      : {}),
    ...(kinds.some((k) => k.adapter.revoke)
      ? { revoke: async (account: StoredAccount) => forAccount(account).revoke?.(account) }
      : {}),
    ...(publishing ? { publishing } : {}),
    ...(metrics ? { metrics } : {}),
    ...(inbox ? { inbox } : {}),
  };
}

/**
 * A network's adapter from its module: one adapter, or for a network with connect kinds one per
 * kind (each with the settings `settingsFor` gives it; null leaves the kind out) combined.
 */
export function createNetworkAdapter<Urls>(
  module: NetworkModule<Urls>,
  settingsFor: (kind: ConnectKind | null) => (AdapterSettings<Urls> & { sandbox: boolean }) | null,
): { adapter: PlatformAdapter; sandbox: boolean; kinds: ConnectKindRuntime[] } | null {
  if (!module.connectKinds?.length) {
    const settings = settingsFor(null);
    if (!settings) return null;
    const { sandbox, ...rest } = settings;
    return { adapter: module.createAdapter(rest), sandbox, kinds: [] };
  }
  const kinds: ConnectKindRuntime[] = [];
  for (const kind of module.connectKinds) {
    const settings = settingsFor(kind);
    if (!settings) continue;
    const { sandbox, ...rest } = settings;
    kinds.push({ ...kind, sandbox, adapter: module.createAdapter({ ...rest, kind: kind.kind }) });
  }
  if (!kinds.length) return null;
  return {
    adapter: combineConnectKinds(module, kinds),
    sandbox: kinds.some((k) => k.sandbox),
    kinds,
  };
}
