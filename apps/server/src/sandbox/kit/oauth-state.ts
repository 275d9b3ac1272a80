import { hashOf, randomToken, type TokenFormat } from './secrets.js';
import type { SandboxStore } from '../store.js';
import { createEmuClock, type EmuClock } from './clock.js';
import { handleOf } from './html.js';
import { createKeyedLock } from './keyed-lock.js';
import { createScenarioStore, type Scenario, type ScenarioStore } from './scenario.js';
import type { ConsentSigner } from './tenant.js';

/**
 * The OAuth memory every network emulator needs (accounts, codes, grants, tokens, scenario
 * knobs, a movable clock), kept in the sandbox store so a restart forgets nothing. Networks
 * differ only in formats and error shapes, which stay in their own folders.
 *
 * Tokens are stored by their SHA-256, never in clear.
 */
export interface SandboxAccount {
  id: string;
  username: string;
  name: string;
  createdAt: number;
}

export interface SandboxCode {
  accountId: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  createdAt: number;
  usedAt: number | null;
}

interface Grant {
  accountId: string;
  clientId: string;
  scopes: string[];
  revokedAt: number | null;
  /** Hash of the only refresh token that still works (rotation). */
  refreshHash: string | null;
}

interface AccessRecord {
  grantId: string;
  createdAt: number;
  expiresAt: number;
}

interface RefreshRecord {
  grantId: string;
  expiresAt: number | null;
}

/** Scenario knobs that matter for a connection (docs/networks.md#scenario-knobs). */
export const CONNECTION_KNOBS = [
  'token_expired',
  'token_revoked',
  'refresh_fails',
  'rate_limit_once',
  'http_500_once',
] as const;

export type AccessCheck =
  | {
      ok: true;
      account: SandboxAccount;
      scopes: string[];
      grantId: string;
      createdAt: number;
      /** The account's knobs, read anyway for the check: saves callers another read. */
      scenario: Scenario;
      /** The emulator's clock at the check (ms), likewise. */
      now: number;
    }
  | { ok: false; reason: 'invalid' | 'expired' | 'revoked' };

export type RefreshCheck =
  | { ok: true; account: SandboxAccount; grant: Grant & { id: string } }
  | { ok: false; reason: 'invalid' | 'expired' | 'rotated' | 'revoked' | 'refused' };

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  scopes: string[];
  account: SandboxAccount;
}

export class SandboxOAuth {
  constructor(
    private readonly store: SandboxStore,
    private readonly newAccountId: () => string,
  ) {
    this.clock = createEmuClock(store);
    this.scenarios = createScenarioStore(store, this.clock);
  }

  /** The emulator's clock: real time plus whatever tests advanced it by (clock.ts). */
  readonly clock: EmuClock;
  /** Scenario knobs, kept per account id (scenario.ts). */
  readonly scenarios: ScenarioStore;
  private readonly redemptions = createKeyedLock();

  async now(): Promise<number> {
    return this.clock.now();
  }

  /** The person's usernames signed in before, most recent first (offered on the consent page). */
  async accountNames(signer: ConsentSigner): Promise<string[]> {
    const rows = await this.store.list<SandboxAccount>('account');
    return rows
      .filter((r) => signer.owns([r.data.id]))
      .sort((a, b) => b.data.createdAt - a.data.createdAt)
      .map((r) => r.data.username);
  }

  /**
   * The account a person named on the consent page, created the first time; null when another
   * organization than the person's connected it (the name is all a sign-in asks for).
   */
  async signIn(typed: string, signer: ConsentSigner): Promise<SandboxAccount | null> {
    const name = typed.trim().slice(0, 50) || 'Sandbox User';
    const username = handleOf(name, 'sandbox_user');
    let account = await this.store.get<SandboxAccount>('account', username);
    if (account && (await signer.connectedElsewhere([account.id]))) return null;
    if (!account) {
      account = { id: this.newAccountId(), username, name, createdAt: await this.now() };
      await this.store.put('account', username, account);
      await this.store.put('account_id', account.id, { username });
    }
    await this.scenarios.signedIn([account.id], signer.organizationIds);
    return account;
  }

  /** By username or network id. */
  async findAccount(ref: string): Promise<SandboxAccount | null> {
    return (
      (await this.store.get<SandboxAccount>('account', ref.toLowerCase())) ?? this.getAccount(ref)
    );
  }

  async issueCode(data: Omit<SandboxCode, 'createdAt' | 'usedAt'>): Promise<string> {
    const code = randomToken(24);
    await this.store.put('code', hashOf(code), {
      ...data,
      createdAt: await this.now(),
      usedAt: null,
    });
    return code;
  }

  /** Marks the code used; it can never be redeemed twice, even when the first try failed. */
  async redeemCode(
    code: string,
    maxAgeSeconds: number,
  ): Promise<
    { ok: true; code: SandboxCode } | { ok: false; reason: 'invalid' | 'used' | 'expired' }
  > {
    const key = hashOf(code);
    const record = await this.store.get<SandboxCode>('code', key);
    if (!record) return { ok: false, reason: 'invalid' };
    if (record.usedAt !== null) return { ok: false, reason: 'used' };
    const now = await this.now();
    await this.store.put('code', key, { ...record, usedAt: now });
    if (now - record.createdAt > maxAgeSeconds * 1000) return { ok: false, reason: 'expired' };
    return { ok: true, code: record };
  }

  /** A new grant with its first tokens; `refreshTtl` null = refresh token without expiry. */
  async issueGrant(input: {
    accountId: string;
    clientId: string;
    scopes: string[];
    accessTtl: number;
    refreshTtl: number | null | false;
    format?: TokenFormat;
  }): Promise<IssuedTokens & { grantId: string }> {
    const grantId = randomToken(12);
    const grant: Grant = {
      accountId: input.accountId,
      clientId: input.clientId,
      scopes: input.scopes,
      revokedAt: null,
      refreshHash: null,
    };
    await this.store.put('grant', grantId, grant);
    const tokens = await this.addTokens(grantId, grant, input);
    return { ...tokens, grantId };
  }

  /** Checks a Bearer token, scenario knobs included. */
  async verifyAccess(token: string | undefined): Promise<AccessCheck> {
    if (!token) return { ok: false, reason: 'invalid' };
    const record = await this.store.get<AccessRecord>('token', hashOf(token));
    const grant = record && (await this.store.get<Grant>('grant', record.grantId));
    const account = grant && (await this.getAccount(grant.accountId));
    if (!record || !grant || !account) return { ok: false, reason: 'invalid' };
    const scenario = await this.scenarios.read([account.id]);
    if (grant.revokedAt !== null || scenario.isOn('token_revoked'))
      return { ok: false, reason: 'revoked' };
    const expiredSince = scenario.value('token_expired');
    if (expiredSince !== undefined && record.createdAt <= expiredSince)
      return { ok: false, reason: 'expired' };
    const now = await this.now();
    if (record.expiresAt <= now) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      account,
      scopes: grant.scopes,
      grantId: record.grantId,
      createdAt: record.createdAt,
      scenario,
      now,
    };
  }

  /** Checks a refresh token: only the newest of its grant works. */
  async checkRefresh(token: string, clientId: string): Promise<RefreshCheck> {
    const key = hashOf(token);
    const record = await this.store.get<RefreshRecord>('refresh', key);
    const grant = record && (await this.store.get<Grant>('grant', record.grantId));
    const account = grant && (await this.getAccount(grant.accountId));
    if (!record || !grant || !account || grant.clientId !== clientId)
      return { ok: false, reason: 'invalid' };
    const scenario = await this.scenarios.read([account.id]);
    if (grant.revokedAt !== null || scenario.isOn('token_revoked'))
      return { ok: false, reason: 'revoked' };
    if (scenario.isOn('refresh_fails')) return { ok: false, reason: 'refused' };
    if (grant.refreshHash !== key) return { ok: false, reason: 'rotated' };
    if (record.expiresAt !== null && record.expiresAt <= (await this.now()))
      return { ok: false, reason: 'expired' };
    return { ok: true, account, grant: { ...grant, id: record.grantId } };
  }

  /**
   * A refresh as networks that rotate refresh tokens (X, TikTok) do it: the token is checked and
   * its grant rotated in one step, so two requests bringing the same token get one new set of
   * tokens and one refusal (`rotated`), never two sets.
   */
  redeemRefresh(
    token: string,
    clientId: string,
    opts: { accessTtl: number; refreshTtl: number | null | false; format?: TokenFormat },
  ): Promise<
    | { ok: true; issued: IssuedTokens }
    | { ok: false; reason: Exclude<RefreshCheck, { ok: true }>['reason'] }
  > {
    return this.redemptions('refresh', async () => {
      const check = await this.checkRefresh(token, clientId);
      if (!check.ok) return check;
      return { ok: true, issued: await this.rotate(check.grant.id, opts) };
    });
  }

  /** New tokens on an existing grant; a new refresh token replaces the old one. */
  async rotate(
    grantId: string,
    opts: { accessTtl: number; refreshTtl: number | null | false; format?: TokenFormat },
  ): Promise<IssuedTokens> {
    const grant = await this.store.get<Grant>('grant', grantId);
    if (!grant) throw new Error('The grant disappeared.');
    return this.addTokens(grantId, grant, opts);
  }

  /** Revokes the grant a token (access or refresh) belongs to; unknown tokens are ignored. */
  async revoke(token: string): Promise<void> {
    const key = hashOf(token);
    const record =
      (await this.store.get<AccessRecord>('token', key)) ??
      (await this.store.get<RefreshRecord>('refresh', key));
    const grant = record && (await this.store.get<Grant>('grant', record.grantId));
    if (!record || !grant || grant.revokedAt !== null) return;
    await this.store.put('grant', record.grantId, { ...grant, revokedAt: await this.now() });
  }

  /**
   * The account a credential belongs to (an access or refresh token, or a code), whatever its
   * state: the call log files each call under the account whose credential it carried.
   */
  async accountOfCredential(value: string): Promise<string | null> {
    const key = hashOf(value);
    const record =
      (await this.store.get<AccessRecord>('token', key)) ??
      (await this.store.get<RefreshRecord>('refresh', key));
    if (record) return (await this.store.get<Grant>('grant', record.grantId))?.accountId ?? null;
    return (await this.store.get<SandboxCode>('code', key))?.accountId ?? null;
  }

  async getAccount(id: string): Promise<SandboxAccount | null> {
    const index = await this.store.get<{ username: string }>('account_id', id);
    return index ? this.store.get<SandboxAccount>('account', index.username) : null;
  }

  private async addTokens(
    grantId: string,
    grant: Grant,
    opts: { accessTtl: number; refreshTtl: number | null | false; format?: TokenFormat },
  ): Promise<IssuedTokens> {
    const account = await this.getAccount(grant.accountId);
    if (!account) throw new Error('The account disappeared.');
    const now = await this.now();
    const format = opts.format ?? {};
    const accessToken = `${format.accessPrefix ?? ''}${randomToken()}`;
    await this.store.put('token', hashOf(accessToken), {
      grantId,
      createdAt: now,
      expiresAt: now + opts.accessTtl * 1000,
    } satisfies AccessRecord);
    let refreshToken: string | null = null;
    if (opts.refreshTtl !== false) {
      refreshToken = `${format.refreshPrefix ?? ''}${randomToken()}`;
      const expiresAt = opts.refreshTtl === null ? null : now + opts.refreshTtl * 1000;
      await this.store.put('refresh', hashOf(refreshToken), { grantId, expiresAt });
    }
    await this.store.put('grant', grantId, {
      ...grant,
      refreshHash: refreshToken ? hashOf(refreshToken) : grant.refreshHash,
    });
    return { accessToken, refreshToken, scopes: grant.scopes, account };
  }
}
