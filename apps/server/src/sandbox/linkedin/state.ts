import type { SandboxContext } from '../context.js';
import { sleep } from '../kit/call-knobs.js';
import { alphaId, numericId, type EmuKit } from '../kit/emu-kit.js';
import { randomToken } from '../kit/secrets.js';
import { linkedInErrors } from './errors.js';

export const ACCESS_TOKEN_SECONDS = 5_184_000;
export const REFRESH_TOKEN_SECONDS = 31_536_000;
const CODE_TTL_MS = 30 * 60 * 1000;

export interface Member {
  sub: string;
  account: string;
  givenName: string;
  familyName: string;
  orgIds: string[];
  /** The member's role per organization id; ADMINISTRATOR when absent (older sandbox data). */
  orgRoles?: Record<string, string>;
}

/** The member's approved role on an organization, or null when they have none. */
export const roleOn = (member: Member, orgId: string) =>
  member.orgIds.includes(orgId) ? (member.orgRoles?.[orgId] ?? 'ADMINISTRATOR') : null;

/** "Acme (CONTENT_ADMINISTRATOR)" → the name and the role (ADMINISTRATOR when none is given). */
export function parseOrganizationEntry(entry: string) {
  const match = /^(.*?)\s*\(([A-Za-z_]+)\)\s*$/.exec(entry.trim());
  return match
    ? { name: match[1]!.trim(), role: match[2]!.toUpperCase() }
    : { name: entry.trim(), role: 'ADMINISTRATOR' };
}

export interface Organization {
  id: string;
  name: string;
  vanityName: string;
}

interface AuthCode {
  sub: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  createdAt: number;
  usedAt: number | null;
}

/** One member's consent: its access tokens and (when issued) its refresh token. */
export interface Grant {
  sub: string;
  scopes: string[];
  createdAt: number;
  /** Fixed at the first grant: refreshing does not extend it (docs/networks.md#linkedin-oauth). */
  refreshExpiresAt: number | null;
  revoked: boolean;
}

interface TokenRecord {
  type: 'access' | 'refresh';
  grantId: string;
  expiresAt: number;
}

/** Keys a scenario knob may be set on: the name typed at sign-in, the `sub` or the person URN. */
export const memberKeys = (member: Member) => [
  member.account,
  member.sub,
  `urn:li:person:${member.sub}`,
];

/** The accounts a member connects, by the ids Herald keeps: their profile and their Pages. */
export const memberAccounts = (member: Member) => [
  `urn:li:person:${member.sub}`,
  ...member.orgIds.map((id) => `urn:li:organization:${id}`),
];

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'company';

/** Members, organizations, codes, grants and tokens of the LinkedIn emulator, in the store. */
export function createLinkedInState(ctx: SandboxContext, kit: EmuKit) {
  const { store } = ctx;
  const getMember = (sub: string) => store.get<Member>('member', sub);
  const getGrant = (id: string) => store.get<Grant>('grant', id);

  async function issue(type: TokenRecord['type'], grantId: string, expiresAt: number) {
    const value = randomToken(48, type === 'access' ? 'AQV' : 'AQW');
    await store.put('token', value, { type, grantId, expiresAt });
    return value;
  }

  return {
    getMember,
    getOrganization: (id: string) => store.get<Organization>('org', id),

    async listMembers() {
      return (await store.list<Member>('member')).map((m) => m.data);
    },

    /**
     * The accounts a reference stands for, by the ids Herald keeps: a member (name typed at
     * sign-in, `sub` or person URN) stands for their profile and Pages; an organization (id or
     * URN), for its Page.
     */
    async accountsOf(ref: string): Promise<string[]> {
      const org = /^urn:li:organization:(\d+)$/.exec(ref)?.[1] ?? ref;
      if (await store.get<Organization>('org', org)) return [`urn:li:organization:${org}`];
      const sub = /^urn:li:person:(.+)$/.exec(ref)?.[1] ?? ref;
      const member =
        (await getMember(sub)) ??
        (await store.list<Member>('member')).find((m) => m.data.account === ref)?.data;
      return member ? memberAccounts(member) : [];
    },

    /** The accounts of the member a credential (a token or a code) belongs to, for the call log. */
    async accountsOfCredential(value: string): Promise<string[]> {
      const record = await store.get<TokenRecord>('token', value);
      const grant = record ? await getGrant(record.grantId) : null;
      const sub = grant?.sub ?? (await store.get<AuthCode>('code', value))?.sub;
      const member = sub ? await getMember(sub) : null;
      return member ? memberAccounts(member) : [];
    },

    /**
     * The member (and organizations) what the person typed on the consent page makes, not saved
     * yet (`saveLogin`): the same names keep the same ids, so the accounts it stands for can be
     * checked first.
     */
    planLogin(account: string, organizations: string[]) {
      const [givenName = account, ...rest] = account.split(/\s+/);
      const orgs: Organization[] = [];
      const orgRoles: Record<string, string> = {};
      for (const entry of organizations) {
        const { name, role } = parseOrganizationEntry(entry);
        if (!name) continue;
        const id = numericId(`org:${name.toLowerCase()}`, 8);
        orgs.push({ id, name, vanityName: slug(name) });
        orgRoles[id] = role;
      }
      const member: Member = {
        sub: alphaId(`member:${account}`),
        account,
        givenName,
        familyName: rest.join(' '),
        orgIds: orgs.map((o) => o.id),
        orgRoles,
      };
      return { member, orgs };
    },

    async saveLogin({ member, orgs }: { member: Member; orgs: Organization[] }) {
      for (const org of orgs) await store.put('org', org.id, org);
      await store.put('member', member.sub, member);
    },

    async createCode(code: Omit<AuthCode, 'createdAt' | 'usedAt'>) {
      const value = randomToken(48, 'AQT');
      await store.put('code', value, { ...code, createdAt: Date.now(), usedAt: null });
      return value;
    },

    /** Checks and consumes a code; any mismatch is LinkedIn's one "unable to retrieve" error. */
    async takeCode(value: string, clientId: string, redirectUri: string) {
      const code = await store.get<AuthCode>('code', value);
      if (!code || code.usedAt !== null || Date.now() - code.createdAt > CODE_TTL_MS) {
        throw linkedInErrors.badCode();
      }
      if (code.clientId !== clientId || code.redirectUri !== redirectUri) {
        throw linkedInErrors.badCode();
      }
      await store.put('code', value, { ...code, usedAt: Date.now() });
      return code;
    },

    async createGrant(member: Member, scopes: string[], withRefresh: boolean) {
      const id = randomToken(12, 'grant-');
      const now = Date.now();
      const grant: Grant = {
        sub: member.sub,
        scopes,
        createdAt: now,
        refreshExpiresAt: withRefresh ? now + REFRESH_TOKEN_SECONDS * 1000 : null,
        revoked: false,
      };
      await store.put('grant', id, grant);
      const accessToken = await issue('access', id, now + ACCESS_TOKEN_SECONDS * 1000);
      const refreshToken = withRefresh ? await issue('refresh', id, grant.refreshExpiresAt!) : null;
      return { grant, accessToken, refreshToken };
    },

    /** A new access token for a live refresh token; the refresh token itself stays the same. */
    async refresh(value: string) {
      const record = await store.get<TokenRecord>('token', value);
      const grant = record?.type === 'refresh' ? await getGrant(record.grantId) : null;
      const member = grant ? await getMember(grant.sub) : null;
      if (!record || !grant || !member || grant.revoked || record.expiresAt < Date.now()) {
        throw linkedInErrors.badRefresh();
      }
      if (await kit.isOn('refresh_fails', memberKeys(member))) {
        throw linkedInErrors.badRefresh();
      }
      const accessToken = await issue(
        'access',
        record.grantId,
        Date.now() + ACCESS_TOKEN_SECONDS * 1000,
      );
      return { grant, accessToken, refreshExpiresAt: record.expiresAt };
    },

    /** Revokes the whole grant a token belongs to; unknown tokens are ignored (RFC 7009). */
    async revoke(value: string) {
      const record = await store.get<TokenRecord>('token', value);
      const grant = record ? await getGrant(record.grantId) : null;
      if (record && grant) await store.put('grant', record.grantId, { ...grant, revoked: true });
    },

    /**
     * Checks a Bearer token and applies the scenario knobs of its member, read once: revoked or
     * expired tokens, then `latency_ms`, then a throttled (`rate_limit_next`) or failed
     * (`fail_next`) call. Returns the scenario for the knobs a route reads itself.
     */
    async authenticate(header: string | undefined) {
      const value = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
      if (!value) throw linkedInErrors.emptyToken();
      const record = await store.get<TokenRecord>('token', value);
      const grant = record?.type === 'access' ? await getGrant(record.grantId) : null;
      const member = grant ? await getMember(grant.sub) : null;
      if (!record || !grant || !member) throw linkedInErrors.invalidToken();
      const scenario = await kit.scenario(memberKeys(member));
      if (grant.revoked || scenario.isOn('token_revoked')) throw linkedInErrors.revoked();
      if (record.expiresAt < Date.now() || scenario.isOn('token_expired')) {
        throw linkedInErrors.expired();
      }
      const latency = scenario.number('latency_ms');
      if (latency > 0) await sleep(latency);
      if (scenario.isOn('rate_limit_next') && (await scenario.take('rate_limit_next')))
        throw linkedInErrors.throttled();
      if (scenario.isOn('fail_next') && (await scenario.take('fail_next')))
        throw linkedInErrors.server();
      return { grant, member, scenario };
    },
  };
}

export type LinkedInState = ReturnType<typeof createLinkedInState>;
