import { webUrlOrNull, type Integration, platformSlug } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { assertReachesAccounts, onlyReachable } from '../team/account-access.js';
import { AppError } from '../../lib/app-error.js';
import { FetchRefused } from '../../media/safe-fetch.js';
import { TokenDecryptError, type TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError, UnreadableTokensError } from '../../platforms/errors.js';
import { connectCallbackUrl, isSandboxKind, type NetworkRuntime } from '../../platforms/runtime.js';
import type { ConnectableAccount, StoredAccount, TokenSet } from '../../platforms/types.js';
import { requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import { emitWebhookEvent } from '../outgoing-webhooks/outgoing-webhooks.events.js';
import { giveFirstWeek } from '../queue/first-week.js';
import { findUser } from '../users/users.service.js';
import {
  findPlatform,
  findPlatformByName,
  type PlatformRow,
} from '../platforms/platforms.service.js';
import type { ConnectStates } from './connect-state.js';
import * as repo from './integrations.repository.js';
import { serverAppFor } from './server-apps.js';

export type { IntegrationRow } from './integrations.repository.js';
import { loadMembership, type MembershipContext } from '../team/membership.js';
import { reachConnectedAccount } from '../team/members.service.js';

export interface IntegrationDeps {
  db: Db;
  cipher: TokenCipher;
  networks: Map<string, NetworkRuntime>;
  states: ConnectStates;
  publicUrl: string;
  apiPublicUrl: string;
  log: FastifyBaseLogger;
  /** Told the ids of accounts just connected or reconnected (the inbox imports them). */
  onConnected?: (integrationIds: string[]) => Promise<void>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toIntegrationDto(
  row: repo.IntegrationRow,
  platform: { id: string; name: string },
): Omit<Integration, 'scheduledPostCount'> {
  return {
    id: row.id,
    status: row.status,
    platform,
    platformAccountId: row.platformAccountId,
    connectedAt: row.connectedAt.toISOString(),
    tokenExpiresAt: iso(row.accessTokenExpiresAt),
    sandbox: row.sandbox,
    lastError: row.lastError,
    metadata: { pictureUrl: webUrlOrNull(row.pictureUrl), username: row.username, name: row.name },
    connectKind: typeof row.extra.kind === 'string' ? row.extra.kind : null,
    textLimit: row.textLimit,
  };
}

/** The organization's connected accounts; a member limited to some sees only those. */
export async function listIntegrations(
  db: Db,
  organizationId: string,
  member: Pick<MembershipContext, 'accountIds'> = { accountIds: null },
): Promise<Integration[]> {
  const [rows, pending] = await Promise.all([
    repo.listIntegrations(db, organizationId),
    repo.scheduledPostCounts(db, organizationId),
  ]);
  return onlyReachable(member, rows, (r) => r.integration.id).map((r) => ({
    ...toIntegrationDto(r.integration, r.platform),
    scheduledPostCount: pending.get(r.integration.id) ?? 0,
  }));
}

/** The network and its platform row for a URL segment; refuses unknown and inactive ones. */
async function resolveNetwork(
  deps: IntegrationDeps,
  slug: string,
  opts: { allowInactive?: boolean } = {},
): Promise<{ network: NetworkRuntime; platform: PlatformRow }> {
  const network = deps.networks.get(slug);
  const platform = network ? await findPlatformByName(deps.db, network.name) : null;
  if (!network || !platform)
    throw new AppError('NOT_FOUND', `Herald cannot connect "${slug}" accounts.`);
  if (!platform.isActive && !opts.allowInactive)
    throw new AppError('VALIDATION_FAILED', `${platform.name} is not available right now.`);
  return { network, platform };
}

const callbackUrl = (deps: IntegrationDeps, slug: string) =>
  connectCallbackUrl(deps.apiPublicUrl, slug);

/** The connect kind asked for, checked against what the network offers on this server. */
function connectKindOf(network: NetworkRuntime, kind: string | undefined) {
  if (!network.kinds.length) {
    if (kind) throw new AppError('VALIDATION_FAILED', `${network.name} has no "${kind}" accounts.`);
    return undefined;
  }
  const found = kind ? network.kinds.find((k) => k.kind === kind) : network.kinds[0];
  if (!found)
    throw new AppError(
      'VALIDATION_FAILED',
      `Herald cannot connect "${kind}" ${network.name} accounts here. Choose one of: ${network.kinds.map((k) => k.label).join(', ')}.`,
    );
  return found.kind;
}

/** Where the browser goes to sign in at the network (for one connect kind, where it has kinds). */
export async function startConnect(
  deps: IntegrationDeps,
  userId: string,
  organizationId: string,
  slug: string,
  requestedKind?: string,
  typedServer?: string,
) {
  const { network } = await resolveNetwork(deps, slug);
  const kind = connectKindOf(network, requestedKind);
  await requireEntitlement(deps.db, organizationId, 'connect');
  if (network.adapter.discoverSignIn)
    return startPushedSignIn(deps, network, userId, organizationId, typedServer);
  // A network of many servers: Herald's app on the person's server, registered on first use.
  const server = network.adapter.registerServerApp
    ? await serverAppFor(deps, network, typedServer, callbackUrl(deps, slug)).catch(
        (err: unknown) => {
          if (err instanceof PlatformError) throw new AppError('VALIDATION_FAILED', err.message);
          throw err;
        },
      )
    : undefined;
  const { state, challenge } = deps.states.issue({
    userId,
    organizationId,
    platform: slug,
    ...(kind ? { kind } : {}),
    ...(server ? { instance: server.instance } : {}),
  });
  return network.adapter.authorizeUrl({
    ...(server ? { server } : {}),
    redirectUri: callbackUrl(deps, slug),
    state,
    codeChallenge: challenge,
    ...(kind ? { kind } : {}),
  });
}

/** The network's refusal of what the person typed, as a sentence for them (a 4xx). */
const asTypedRefusal = (err: unknown) => {
  // The address typed, or one its records name, is one Herald never reaches (a private
  // network, a name that does not resolve): the person's to correct, not a server error.
  if (err instanceof FetchRefused)
    return new AppError(
      'VALIDATION_FAILED',
      `Herald cannot reach that server: the address ${err.message}`,
    );
  // fetch's own failure (no connection, no answer) on the way to a server the person named.
  if (err instanceof TypeError && err.message === 'fetch failed')
    return new AppError(
      'UNAVAILABLE',
      'That server could not be reached. Check the address, or try again in a moment.',
    );
  if (!(err instanceof PlatformError)) return err;
  if (err.kind === 'rate_limited') return new AppError('RATE_LIMITED', err.message);
  if (err.kind === 'transient' || err.kind === 'unknown_outcome')
    return new AppError('UNAVAILABLE', err.message);
  return new AppError('VALIDATION_FAILED', err.message);
};

/**
 * A sign-in whose server is found from what the person typed (Bluesky: a handle, a DID or a
 * server address) and whose request is pushed there first. The signed state carries the server
 * and the account named; the PKCE verifier and the DPoP key are made from its nonce, as the
 * verifier always is, so nothing is stored until the callback connects the account.
 */
async function startPushedSignIn(
  deps: IntegrationDeps,
  network: NetworkRuntime,
  userId: string,
  organizationId: string,
  typed: string | undefined,
) {
  const { adapter } = network;
  if (!typed?.trim())
    throw new AppError(
      'VALIDATION_FAILED',
      `Type your ${network.name} handle (such as alice.bsky.social) or your server's address to sign in.`,
    );
  try {
    const found = await adapter.discoverSignIn!(typed);
    const { state, challenge, nonce } = deps.states.issue({
      userId,
      organizationId,
      platform: network.slug,
      issuer: found.issuer,
      ...(found.account ? { account: found.account } : {}),
    });
    return await adapter.pushSignIn!({
      issuer: found.issuer,
      ...(found.loginHint ? { loginHint: found.loginHint } : {}),
      state,
      codeChallenge: challenge,
      keySeed: deps.states.keySeedFor(nonce),
    });
  } catch (err) {
    throw asTypedRefusal(err);
  }
}

const settingsUrl = (deps: IntegrationDeps, params: Record<string, string>) =>
  `${deps.publicUrl}/settings?${new URLSearchParams(params).toString()}`;

/**
 * The network's redirect back. Always answers a place in the web app: /settings with the
 * outcome (connected, a choice to make, or a sentence explaining why not).
 */
export async function finishConnect(
  deps: IntegrationDeps,
  userId: string,
  slug: string,
  query: {
    code?: string;
    state?: string;
    error?: string;
    error_description?: string;
    iss?: string;
  },
): Promise<string> {
  const state = deps.states.read(query.state);
  const label = deps.networks.get(slug)?.name ?? slug;
  const fail = (message: string) => settingsUrl(deps, { connectError: message, platform: label });
  if (!state || state.platform !== slug)
    return fail('This connection link has expired or was altered. Please connect again.');
  if (state.userId !== userId)
    return fail('This connection was started by another account. Please connect again.');
  // A pushed sign-in comes back from the server it was pushed to, which says so (RFC 9207): an
  // answer from any other is refused before its code is looked at.
  if (state.issuer && query.iss !== state.issuer)
    return fail(
      `This answer did not come from the ${label} server the sign-in was sent to. Please connect again.`,
    );
  if (query.error === 'access_denied') {
    return fail(
      `You did not allow Herald to use your ${label} account. Connect again and approve access to continue.`,
    );
  }
  if (query.error)
    return fail(query.error_description ?? `${label} did not grant access (${query.error}).`);
  if (!query.code) return fail(`${label} sent no authorization code. Please connect again.`);
  // The state is ten minutes old at most, but membership can change meanwhile: check it again.
  const membership = await loadMembership(deps.db, state.organizationId, userId);
  if (!membership?.permissions.includes('account:connect')) {
    return fail('You can no longer connect accounts to this organization.');
  }
  try {
    const { network, platform } = await resolveNetwork(deps, slug);
    const server = state.instance
      ? await serverAppFor(deps, network, state.instance, callbackUrl(deps, slug))
      : undefined;
    const offered = await network.adapter.connect({
      ...(server ? { server } : {}),
      code: query.code,
      redirectUri: callbackUrl(deps, slug),
      codeVerifier: deps.states.verifierFor(state.nonce),
      ...(state.kind ? { kind: state.kind } : {}),
      ...(state.issuer
        ? {
            pushed: {
              issuer: state.issuer,
              ...(state.account ? { account: state.account } : {}),
              keySeed: deps.states.keySeedFor(state.nonce),
            },
          }
        : {}),
    });
    // The picture is shown as an image wherever the account appears: only a web address is kept.
    const accounts = offered.map((a) => ({ ...a, pictureUrl: webUrlOrNull(a.pictureUrl) }));
    const sandbox = isSandboxKind(network, state.kind);
    if (accounts.length === 0) return fail(`${label} has no account this sign-in can connect.`);
    if (accounts.length === 1) {
      await saveAccounts(deps, state.organizationId, userId, platform, sandbox, accounts);
      return settingsUrl(deps, { connected: platform.name });
    }
    const pending = await repo.insertPending(deps.db, {
      organizationId: state.organizationId,
      userId,
      platformId: platform.id,
      accountsEnc: deps.cipher.encrypt(JSON.stringify(accounts)),
      expiresAt: new Date(Date.now() + 15 * 60 * 1000),
    });
    return settingsUrl(deps, { pick: pending.id, platform: platform.name });
  } catch (err) {
    const refusal = asTypedRefusal(err);
    if (refusal instanceof AppError || refusal instanceof PlatformError)
      return fail(refusal.message);
    throw err;
  }
}

/**
 * Connects with the account's own credentials, for networks without a sign-in page for apps
 * (Bluesky: a handle and an app password). The network is asked once; the password is not kept.
 * Answers the organization's accounts, the connected one among them.
 */
export async function connectWithPassword(
  deps: IntegrationDeps,
  userId: string,
  organizationId: string,
  slug: string,
  input: { identifier: string; appPassword: string },
): Promise<Integration[]> {
  const { network, platform } = await resolveNetwork(deps, slug);
  const connect = network.adapter.connectWithPassword?.bind(network.adapter);
  if (!connect)
    throw new AppError(
      'VALIDATION_FAILED',
      `${network.name} accounts connect through ${network.name}'s own sign-in page, not with a password.`,
    );
  await requireEntitlement(deps.db, organizationId, 'connect');
  const offered = await connect({
    identifier: input.identifier,
    password: input.appPassword,
  }).catch((err: unknown) => {
    // The network's refusal is the person's to fix (a wrong password, an unknown handle).
    throw asTypedRefusal(err);
  });
  const accounts = offered.map((a) => ({ ...a, pictureUrl: webUrlOrNull(a.pictureUrl) }));
  await saveAccounts(deps, organizationId, userId, platform, network.sandbox, accounts);
  return listIntegrations(deps.db, organizationId);
}

/** Stores accounts (new or reconnected), within the plan's connected-account limit. */
async function saveAccounts(
  deps: IntegrationDeps,
  organizationId: string,
  userId: string,
  platform: PlatformRow,
  sandbox: boolean,
  accounts: ConnectableAccount[],
) {
  const saved = await storeAccounts(deps, organizationId, userId, platform, sandbox, accounts);
  // After the commit: what listens reads the stored rows. Its failure never undoes a connect.
  await deps.onConnected?.(saved.map((row) => row.id)).catch((err: unknown) => {
    deps.log.warn({ err }, 'could not queue the first inbox import');
  });
  return saved;
}

function storeAccounts(
  deps: IntegrationDeps,
  organizationId: string,
  userId: string,
  platform: PlatformRow,
  sandbox: boolean,
  accounts: ConnectableAccount[],
) {
  return deps.db.transaction(async (tx) => {
    const plan = await requireEntitlement(tx, organizationId, 'connect');
    const saved = [];
    for (const account of accounts.filter((a) => !a.unavailable)) {
      const existing = await repo.findAccount(tx, organizationId, platform.id, account.externalId);
      if (existing?.status !== 'CONNECTED')
        requireCapacity(plan, 'connectedPlatforms', await repo.countConnected(tx, organizationId));
      const previousSecrets = existing?.secretsEnc
        ? readPreviousSecrets(deps.cipher, existing.secretsEnc)
        : {};
      // A secret sent empty is cleared (a Bluesky account reconnected with an app password
      // drops the DPoP key of its earlier OAuth session).
      const secrets = Object.fromEntries(
        Object.entries({ ...previousSecrets, ...(account.secrets ?? {}) }).filter(
          ([, value]) => value !== '',
        ),
      );
      const row = await repo.upsertAccount(
        tx,
        { organizationId, platformId: platform.id, platformAccountId: account.externalId },
        {
          status: 'CONNECTED',
          username: account.username,
          name: account.name,
          pictureUrl: account.pictureUrl,
          textLimit: account.textLimit ?? null,
          ...tokenColumns(deps.cipher, account.tokens, existing),
          secretsEnc: Object.keys(secrets).length
            ? deps.cipher.encrypt(JSON.stringify(secrets))
            : null,
          extra: {
            ...(existing?.extra ?? {}),
            ...(account.extra ?? {}),
            ...(account.grantKey ? { grantKey: account.grantKey } : {}),
          },
          sandbox,
          lastError: null,
          connectedByUserId: userId,
          connectedAt: existing?.status === 'CONNECTED' ? existing.connectedAt : new Date(),
        },
      );
      if (existing?.status !== 'CONNECTED')
        await emitWebhookEvent(tx, organizationId, 'account.connected', {
          integrationId: row.id,
          platform: platform.name,
          username: row.username,
          name: row.name,
          reconnected: existing !== null,
        });
      if (!existing) {
        const timeZone = (await findUser(tx, userId))?.timezone ?? null;
        await giveFirstWeek(tx, organizationId, row.id, { userId, timeZone });
      }
      await reachConnectedAccount(tx, organizationId, userId, row.id);
      saved.push(row);
    }
    return saved;
  });
}

/**
 * What a reconnected account keeps of its stored secrets. Reconnecting is the cure for secrets
 * this server cannot read, so those are dropped (the network sends them again) instead of
 * refusing the reconnect.
 */
function readPreviousSecrets(cipher: TokenCipher, sealed: string): Record<string, string> {
  try {
    return JSON.parse(cipher.decrypt(sealed)) as Record<string, string>;
  } catch (err) {
    if (err instanceof TokenDecryptError) return {};
    throw err;
  }
}

/** Encrypted token columns; a refresh token the network did not send again is kept, never lost. */
function tokenColumns(cipher: TokenCipher, tokens: TokenSet, existing: repo.IntegrationRow | null) {
  return {
    accessTokenEnc: cipher.encrypt(tokens.accessToken),
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenEnc: tokens.refreshToken
      ? cipher.encrypt(tokens.refreshToken)
      : (existing?.refreshTokenEnc ?? null),
    refreshTokenExpiresAt: tokens.refreshToken
      ? tokens.refreshTokenExpiresAt
      : (existing?.refreshTokenExpiresAt ?? null),
    scopes: tokens.scopes.length ? tokens.scopes : (existing?.scopes ?? []),
    lastRefreshedAt: new Date(),
  };
}

/**
 * The account with its tokens decrypted. Tokens this server cannot read throw
 * UnreadableTokensError (a `reauth`: the user is asked to reconnect), never a bare crypto error.
 */
export function toStoredAccount(cipher: TokenCipher, row: repo.IntegrationRow): StoredAccount {
  try {
    return {
      externalId: row.platformAccountId,
      tokens: {
        accessToken: cipher.decryptNullable(row.accessTokenEnc) ?? '',
        accessTokenExpiresAt: row.accessTokenExpiresAt,
        refreshToken: cipher.decryptNullable(row.refreshTokenEnc),
        refreshTokenExpiresAt: row.refreshTokenExpiresAt,
        scopes: row.scopes ?? [],
      },
      extra: row.extra,
      secrets: row.secretsEnc
        ? (JSON.parse(cipher.decrypt(row.secretsEnc)) as Record<string, string>)
        : {},
    };
  } catch (err) {
    if (!(err instanceof TokenDecryptError)) throw err;
    throw new UnreadableTokensError(accountLabel(row));
  }
}

/** "the account @name" (or its display name, or its id at the network), for sentences. */
function accountLabel(row: Pick<repo.IntegrationRow, 'username' | 'name' | 'platformAccountId'>) {
  if (row.username) return `the account @${row.username}`;
  return `the account ${row.name ?? row.platformAccountId}`;
}

/**
 * Marks a CONNECTED account whose tokens cannot be read as needing a reconnect, with the reason
 * shown on it (as a refused refresh does), so the next publication fails at once and says why.
 */
export async function markTokensUnreadable(
  db: Db,
  row: Pick<repo.IntegrationRow, 'id' | 'accessTokenEnc'>,
  err: UnreadableTokensError,
) {
  const organizationId = await repo.markRefreshFailedIfUnchanged(db, row, err.message);
  if (organizationId)
    await emitWebhookEvent(db, organizationId, 'account.needs_reconnect', {
      integrationId: row.id,
      reason: err.message,
    });
  return organizationId !== null;
}

async function openPending(
  deps: IntegrationDeps,
  organizationId: string,
  userId: string,
  pendingId: string,
) {
  const pending = await repo.findPending(deps.db, pendingId, organizationId, userId, new Date());
  if (!pending) throw new AppError('NOT_FOUND', 'This account choice has expired. Connect again.');
  // JSON turned the token expiry dates into strings: bring them back.
  const revive = (d: unknown) => (d ? new Date(d as string) : null);
  let sealed: string;
  try {
    sealed = deps.cipher.decrypt(pending.accountsEnc);
  } catch (err) {
    if (!(err instanceof TokenDecryptError)) throw err;
    throw new AppError(
      'CONFLICT',
      'Herald cannot read this account choice: it was encrypted with a key this server does not have. Connect again.',
    );
  }
  const accounts = (JSON.parse(sealed) as ConnectableAccount[]).map((a) => ({
    ...a,
    tokens: {
      ...a.tokens,
      accessTokenExpiresAt: revive(a.tokens.accessTokenExpiresAt),
      refreshTokenExpiresAt: revive(a.tokens.refreshTokenExpiresAt),
    },
  }));
  return { pending, accounts };
}

/** The accounts offered by a sign-in, without their tokens, for the picker. */
export async function getPending(
  deps: IntegrationDeps,
  organizationId: string,
  userId: string,
  pendingId: string,
) {
  const { pending, accounts } = await openPending(deps, organizationId, userId, pendingId);
  const platform = await findPlatform(deps.db, pending.platformId);
  return {
    id: pending.id,
    platform: { id: pending.platformId, name: platform?.name ?? '' },
    accounts: accounts.map((a) => ({
      externalId: a.externalId,
      name: a.name,
      username: a.username,
      pictureUrl: webUrlOrNull(a.pictureUrl),
      unavailableReason: a.unavailable ?? null,
    })),
    expiresAt: pending.expiresAt.toISOString(),
  };
}

export async function choosePending(
  deps: IntegrationDeps,
  organizationId: string,
  userId: string,
  pendingId: string,
  externalIds: string[],
) {
  const { pending, accounts } = await openPending(deps, organizationId, userId, pendingId);
  const chosen = accounts.filter((a) => externalIds.includes(a.externalId));
  if (chosen.length !== new Set(externalIds).size)
    throw new AppError('VALIDATION_FAILED', 'Choose accounts from the list offered.');
  const refused = chosen.find((a) => a.unavailable);
  if (refused) throw new AppError('VALIDATION_FAILED', refused.unavailable!);
  const platform = await findPlatform(deps.db, pending.platformId);
  if (!platform) throw new AppError('NOT_FOUND', 'This platform no longer exists.');
  const network = deps.networks.get(platformSlug(platform.name));
  const kind = chosen[0] && network?.module.kindOf?.({ extra: {}, secrets: {}, ...chosen[0] });
  const sandbox = network ? isSandboxKind(network, kind) : false;
  await saveAccounts(deps, organizationId, userId, platform, sandbox, chosen);
  await repo.deletePending(deps.db, pending.id);
  return listIntegrations(deps.db, organizationId);
}

/** Rows of one network in the organization, or the one named by `integrationId`. */
async function rowsOf(
  deps: IntegrationDeps,
  organizationId: string,
  slug: string,
  integrationId?: string,
) {
  const { network, platform } = await resolveNetwork(deps, slug, { allowInactive: true });
  const rows = (await repo.listOfPlatform(deps.db, organizationId, platform.id)).filter(
    (r) => !integrationId || r.id === integrationId,
  );
  if (rows.length === 0)
    throw new AppError(
      'NOT_FOUND',
      `No ${platform.name} account is connected to this organization.`,
    );
  return { network, platform, rows };
}

/** Disconnects: revokes at the network where it can (best effort), then forgets the tokens. */
export async function disconnect(
  deps: IntegrationDeps,
  organizationId: string,
  slug: string,
  integrationId?: string,
  member: Pick<MembershipContext, 'accountIds'> = { accountIds: null },
) {
  const { network, rows } = await rowsOf(deps, organizationId, slug, integrationId);
  assertReachesAccounts(
    member,
    rows.map((r) => ({
      integrationId: r.id,
      label: `${r.username ? `@${r.username}` : (r.name ?? 'an account')} on ${network.name}`,
    })),
  );
  const removing = new Set(rows.map((r) => r.id));
  for (const row of rows) {
    // One grant can serve several accounts (a Facebook login's Pages): keep it while others use it.
    const grantKey = typeof row.extra.grantKey === 'string' ? row.extra.grantKey : null;
    const shared = grantKey
      ? (await repo.connectedWithGrant(deps.db, grantKey)).some((id) => !removing.has(id))
      : false;
    if (network.adapter.revoke && row.accessTokenEnc && !shared) {
      try {
        await network.adapter.revoke(toStoredAccount(deps.cipher, row));
      } catch (err) {
        deps.log.warn(
          {
            platform: network.name,
            integrationId: row.id,
            kind: err instanceof PlatformError ? err.kind : 'unknown',
          },
          'revoke at the network failed; disconnecting anyway',
        );
      }
    }
    await deps.db.transaction(async (tx) => {
      await repo.deleteIntegration(tx, organizationId, row.id);
      await emitWebhookEvent(tx, organizationId, 'account.disconnected', {
        integrationId: row.id,
        platform: network.name,
        username: row.username,
        name: row.name,
      });
    });
  }
  return { disconnected: rows.length };
}

/**
 * Refreshes one account's tokens, one refresher at a time per account (the refresh job, the
 * Refresh button and the publisher alike). `row` is the account as the caller last read it: when
 * another refresher rotated its tokens meanwhile, the new row is returned without asking the
 * network again — networks that rotate refresh tokens (X, TikTok) refuse a used one, and asking
 * with it would lose the account. A refusal from the network marks it REFRESH_FAILED (the user
 * must reconnect); other failures leave it as it is for a later try.
 */
export async function refreshAccount(
  deps: Pick<IntegrationDeps, 'db' | 'cipher'>,
  network: NetworkRuntime,
  row: repo.IntegrationRow,
) {
  const refresh = network.adapter.refresh?.bind(network.adapter);
  if (!refresh) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${network.name} tokens cannot be refreshed; reconnect the account when it expires.`,
    );
  }
  // Failures come out of the locked work as values: throwing there would undo REFRESH_FAILED.
  const outcome = await repo.withLockedIntegration(
    deps.db,
    row.id,
    async (db, locked): Promise<{ row: repo.IntegrationRow } | { error: unknown }> => {
      if (!locked) {
        return {
          error: new AppError('NOT_FOUND', `This ${network.name} account was disconnected.`),
        };
      }
      if (locked.accessTokenEnc !== row.accessTokenEnc && locked.status === 'CONNECTED') {
        return { row: locked };
      }
      try {
        const tokens = await refresh(toStoredAccount(deps.cipher, locked));
        return {
          row: await repo.updateIntegration(db, locked.id, {
            ...tokenColumns(deps.cipher, tokens, locked),
            ...(tokens.textLimit !== undefined ? { textLimit: tokens.textLimit } : {}),
            status: 'CONNECTED',
            lastError: null,
          }),
        };
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'reauth') {
          await repo.updateIntegration(db, locked.id, {
            status: 'REFRESH_FAILED',
            lastError: err.message,
          });
          await emitWebhookEvent(db, locked.organizationId, 'account.needs_reconnect', {
            integrationId: locked.id,
            platform: network.name,
            reason: err.message,
          });
        }
        return { error: err };
      }
    },
  );
  if ('error' in outcome) throw outcome.error;
  return outcome.row;
}

/**
 * A live token that only a refresh token could renew, and there is none (LinkedIn without
 * partner approval): it is used until it expires, not refreshed (the admins get reminders).
 */
export function waitsForExpiry(
  network: Pick<NetworkRuntime, 'adapter'>,
  row: Pick<repo.IntegrationRow, 'refreshTokenEnc' | 'accessTokenExpiresAt'>,
  now = new Date(),
) {
  return Boolean(
    network.adapter.refreshNeedsRefreshToken &&
    !row.refreshTokenEnc &&
    row.accessTokenExpiresAt &&
    row.accessTokenExpiresAt.getTime() > now.getTime(),
  );
}

export async function refreshNow(
  deps: IntegrationDeps,
  organizationId: string,
  slug: string,
  integrationId?: string,
) {
  const { network, platform, rows } = await rowsOf(deps, organizationId, slug, integrationId);
  for (const row of rows) {
    const expiresAt = row.accessTokenExpiresAt;
    if (waitsForExpiry(network, row)) {
      // Nothing to refresh with, and nothing wrong: refusing now would lose a working account.
      throw new AppError(
        'CONFLICT',
        `${platform.name} gives Herald's app no refresh tokens: this account keeps working until ${expiresAt!.toISOString().slice(0, 10)}. Connect it again before then to keep posting.`,
      );
    }
    try {
      await refreshAccount(deps, network, row);
    } catch (err) {
      if (err instanceof PlatformError) {
        // Only a network that is down or unsure is a 503; a refusal (reconnect needed, token too
        // young to refresh) is the account's state, and a rate limit is the caller's pace.
        const code =
          err.kind === 'reauth' || err.kind === 'bad_request'
            ? 'CONFLICT'
            : err.kind === 'rate_limited'
              ? 'RATE_LIMITED'
              : 'UNAVAILABLE';
        throw new AppError(code, `Failed to refresh token for ${platform.name}. ${err.message}`);
      }
      throw err;
    }
  }
  return listIntegrations(deps.db, organizationId);
}

/** Removes account choices past their expiry (they hold encrypted tokens); returns how many. */
export const deleteExpiredPending = (db: Db, now: Date) => repo.deleteExpiredPending(db, now);

/** Connected accounts whose tokens expire before `before` and can be refreshed (the job's). */
export const dueForRefresh = (db: Db, before: Date, limit: number) =>
  repo.dueForRefresh(db, before, limit);

/** Connected accounts whose tokens expire before `before` with nothing to renew them. */
export const expiringWithoutRefresh = (db: Db, now: Date, before: Date, limit: number) =>
  repo.expiringWithoutRefresh(db, now, before, limit);

/** Records that the admins heard of this expiry; false when they already had. */
export const markExpiryNotice = (db: Db, id: string, notice: string, expiresAt: Date) =>
  repo.markExpiryNotice(db, id, notice, expiresAt);
