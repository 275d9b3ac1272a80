import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import type { EmuKit } from '../kit/emu-kit.js';
import type { Scenario } from '../kit/scenario.js';
import { numericId } from '../kit/emu-kit.js';
import { randomToken } from '../kit/secrets.js';
import { graphErrors } from './errors.js';

/** Lifetimes the emulator gives (docs/networks.md#meta-sandbox): short-lived user token, long-lived, code. */
export const SHORT_LIVED_SECONDS = 5400;
export const LONG_LIVED_SECONDS = 5_183_944;
const CODE_TTL_MS = 10 * 60 * 1000;

export interface SandboxInstagram {
  id: string;
  username: string;
  name: string;
}

export interface SandboxPage {
  id: string;
  name: string;
  instagram: SandboxInstagram | null;
  /** The person's tasks on the Page; every admin task when absent. */
  tasks?: string[];
  /** Listed by `/me/accounts` (a personal role); false for a Page reached only through a portfolio. */
  personal?: boolean;
  /** The business portfolios through which the person reaches the Page. */
  businesses?: Array<{ id: string; name: string; relation: 'owned' | 'client' }>;
}

/** Tasks a Page admin has (docs/networks.md#facebook-oauth); publishing needs CREATE_CONTENT. */
export const ADMIN_TASKS = [
  'ADVERTISE',
  'ANALYZE',
  'CREATE_CONTENT',
  'MESSAGING',
  'MODERATE',
  'MANAGE',
];

/**
 * A Page as typed on the consent page: `Name`, `Name (ANALYZE, MODERATE)` for fewer tasks, and
 * for the business field `Name @ Portfolio` or `Name @ Portfolio [client]`.
 */
export function parsePageEntry(entry: string) {
  let rest = entry.trim();
  let tasks: string[] | undefined;
  const taskMatch = /\(([A-Za-z_,\s]*)\)\s*$/.exec(rest);
  if (taskMatch) {
    tasks = taskMatch[1]!
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((t) => t.toUpperCase());
    rest = rest.slice(0, taskMatch.index).trim();
  }
  const client = /\[client\]\s*$/i.test(rest);
  if (client) rest = rest.replace(/\[client\]\s*$/i, '').trim();
  const [name = '', portfolio] = rest.split('@').map((part) => part.trim());
  return { name, tasks, portfolio: portfolio || null, client };
}

/** A sandbox Facebook user: the account named on the consent page and the Pages they manage. */
export interface GraphUser {
  id: string;
  account: string;
  name: string;
  pages: SandboxPage[];
  /** Bumped when the user removes the app: every older token stops working. */
  generation: number;
}

interface GraphCode {
  userId: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  createdAt: number;
  usedAt: number | null;
}

export interface GraphToken {
  kind: 'user' | 'page';
  lifetime: 'short' | 'long' | 'page';
  userId: string;
  pageId?: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number | null;
  generation: number;
}

export interface Authenticated {
  token: GraphToken;
  user: GraphUser;
  /** The Page a Page token acts as. */
  page: SandboxPage | null;
  /** The knobs in force for this request's account. */
  scenario: Scenario;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The accounts of a Page, by the ids Herald keeps: the Page and its Instagram account. */
const pageAccounts = (page: SandboxPage) => [
  page.id,
  ...(page.instagram ? [page.instagram.id] : []),
];

/** The accounts a person connects: every Page they manage and its Instagram account. */
export const userAccounts = (user: GraphUser) => user.pages.flatMap(pageAccounts);

/** Users, codes and tokens of the Graph emulator, all in the sandbox store. */
export function createGraphState(ctx: SandboxContext, kit: EmuKit) {
  const { store } = ctx;

  const getUser = (id: string) => store.get<GraphUser>('user', id);

  async function issueToken(record: Omit<GraphToken, 'issuedAt'>, value = randomToken(32, 'EAAH')) {
    await store.put('token', value, { ...record, issuedAt: await kit.now() });
    return value;
  }

  return {
    getUser,

    async listUsers() {
      return (await store.list<GraphUser>('user')).map((u) => u.data);
    },

    /**
     * The accounts a reference stands for, by the ids Herald keeps: a person (the name typed at
     * sign-in, or their id) stands for every Page they manage; a Page (id or name) for itself
     * and its Instagram account; an Instagram account (id or username) for itself.
     */
    async accountsOf(ref: string): Promise<string[]> {
      const found = new Set<string>();
      for (const { data: user } of await store.list<GraphUser>('user')) {
        if (user.account === ref || user.id === ref)
          userAccounts(user).forEach((id) => found.add(id));
        for (const page of user.pages) {
          if (page.id === ref || page.name === ref)
            pageAccounts(page).forEach((id) => found.add(id));
          const ig = page.instagram;
          if (ig && (ig.id === ref || ig.username === ref)) found.add(ig.id);
        }
      }
      return [...found];
    },

    /**
     * The accounts a credential (a user or Page token, or a code) acts for, for the call log: a
     * Page token its Page's, anything else every account of its person.
     */
    async accountsOfCredential(value: string): Promise<string[]> {
      const token = await store.get<GraphToken>('token', value);
      const userId = token?.userId ?? (await store.get<GraphCode>('code', value))?.userId;
      const user = userId ? await getUser(userId) : null;
      if (!user) return [];
      const page = token?.pageId ? user.pages.find((p) => p.id === token.pageId) : undefined;
      return page ? pageAccounts(page) : userAccounts(user);
    },

    /**
     * The user what the person typed on the consent page makes, not saved yet (`saveUser`): the
     * same names keep the same ids, so the accounts it stands for can be checked first.
     */
    async planLogin(
      account: string,
      pageNames: string[],
      instagram: Array<string | null>,
      businessPages: string[] = [],
    ): Promise<GraphUser> {
      const id = numericId(`user:${account}`);
      const existing = await getUser(id);
      const pages: SandboxPage[] = pageNames.map((entry, i) => {
        const { name, tasks } = parsePageEntry(entry);
        const username = instagram[i];
        return {
          id: numericId(`page:${account}:${name}`),
          name,
          instagram: username ? { id: numericId(`ig:${username}`, 17), username, name } : null,
          ...(tasks ? { tasks } : {}),
          personal: true,
        };
      });
      // Pages reached through a business portfolio; one also listed above keeps its one id.
      for (const entry of businessPages) {
        const { name, tasks, portfolio, client } = parsePageEntry(entry);
        if (!name) continue;
        const business = {
          id: numericId(`business:${account}:${portfolio ?? 'Business'}`),
          name: portfolio ?? 'Business',
          relation: client ? ('client' as const) : ('owned' as const),
        };
        const pageId = numericId(`page:${account}:${name}`);
        const known = pages.find((p) => p.id === pageId);
        if (known) known.businesses = [...(known.businesses ?? []), business];
        else
          pages.push({
            id: pageId,
            name,
            instagram: null,
            ...(tasks ? { tasks } : {}),
            personal: false,
            businesses: [business],
          });
      }
      return { id, account, name: account, pages, generation: existing?.generation ?? 0 };
    },

    async saveUser(user: GraphUser) {
      await store.put('user', user.id, user);
    },

    async createCode(code: Omit<GraphCode, 'createdAt' | 'usedAt'>) {
      const value = randomToken(48, 'AQ');
      await store.put('code', value, { ...code, createdAt: await kit.now(), usedAt: null });
      return value;
    },

    /** A code that is known, unused and fresh, else Meta's error for it. */
    async readCode(value: string) {
      const code = await store.get<GraphCode>('code', value);
      if (!code) throw graphErrors.unknownCode();
      if (code.usedAt !== null) throw graphErrors.codeUsed();
      if ((await kit.now()) - code.createdAt > CODE_TTL_MS) throw graphErrors.codeExpired();
      return code;
    },

    async markCodeUsed(value: string) {
      const code = await store.get<GraphCode>('code', value);
      if (code) await store.put('code', value, { ...code, usedAt: await kit.now() });
    },

    async issueUserToken(user: GraphUser, scopes: string[], lifetime: 'short' | 'long') {
      const seconds = lifetime === 'short' ? SHORT_LIVED_SECONDS : LONG_LIVED_SECONDS;
      return issueToken({
        kind: 'user',
        lifetime,
        userId: user.id,
        scopes,
        expiresAt: (await kit.now()) + seconds * 1000,
        generation: user.generation,
      });
    },

    /** The Page token a user token gets for a Page: stable for that pair, no expiry. */
    async pageToken(userToken: string, token: GraphToken, page: SandboxPage) {
      const derived = createHash('sha256').update(`${userToken}:${page.id}`).digest('base64url');
      const value = `EAAP${derived}`;
      if (!(await store.get('token', value))) {
        await issueToken(
          { ...token, kind: 'page', lifetime: 'page', pageId: page.id, expiresAt: null },
          value,
        );
      }
      return value;
    },

    async removeApp(user: GraphUser) {
      await store.put('user', user.id, { ...user, generation: user.generation + 1 });
    },

    /**
     * Checks a token like Graph does and applies the scenario knobs of its account (docs/networks.md#scenario-knobs): the
     * latency first, then a dead token, then the next failures and throttles counted down.
     * `keys` adds the ids a knob may also be set on (an Instagram user, a Page).
     */
    async authenticate(
      value: string | undefined,
      keys: Array<string | undefined> = [],
    ): Promise<Authenticated> {
      if (!value) throw graphErrors.noToken();
      const token = await store.get<GraphToken>('token', value);
      const user = token ? await getUser(token.userId) : null;
      if (!token || !user) throw graphErrors.badToken();
      if (token.generation !== user.generation) throw graphErrors.appRemoved();
      const scenario = await kit.scenario([user.account, user.id, token.pageId, ...keys]);
      const latency = scenario.number('latency_ms');
      if (latency > 0) await sleep(latency);
      if (scenario.isOn('token_revoked')) throw graphErrors.sessionInvalidated();
      if (scenario.isOn('token_expired')) throw graphErrors.expired();
      if (token.expiresAt !== null && token.expiresAt < (await kit.now())) {
        throw graphErrors.expired();
      }
      const page = token.pageId ? (user.pages.find((p) => p.id === token.pageId) ?? null) : null;
      // A Page token dies with the role on the Page.
      if (token.kind === 'page' && !page) throw graphErrors.sessionInvalidated();
      if (await scenario.take('fail_next')) throw graphErrors.unavailable();
      if (await scenario.take('rate_limit_next')) {
        throw graphErrors.rateLimited(scenario.number('rate_limit_code') || 4);
      }
      const bucMinutes = await scenario.takeValue('buc_throttle_minutes');
      if (bucMinutes !== null) {
        const instagram = ctx.mountPath.endsWith('/instagram');
        throw graphErrors.businessUseCaseThrottled(instagram, token.pageId ?? user.id, bucMinutes);
      }
      if (await scenario.take('policy_block_next')) throw graphErrors.policyBlocked();
      return { token, user, page, scenario };
    },
  };
}

export type GraphState = ReturnType<typeof createGraphState>;
