import type { FastifyRequest } from 'fastify';
import { KNOB_VALUES, PUBLISHING_KNOBS, sleep } from '../kit/call-knobs.js';
import { bearerToken } from '../kit/consent.js';
import type { KeyedLock } from '../kit/keyed-lock.js';
import {
  CONNECTION_KNOBS,
  type SandboxAccount,
  type SandboxOAuth,
  type Scenario,
} from '../kit/oauth-state.js';
import { X_EMULATOR, xFailures } from './responses.js';

/**
 * Knobs of the X emulator (platform-apis.md §7.6): the connection ones, the publishing ones of
 * call-knobs.ts, and `reply_restricted` (replies need the author's "summon", §1.3).
 */
export const X_KNOBS = [...CONNECTION_KNOBS, ...PUBLISHING_KNOBS, 'reply_restricted'] as const;

export interface XCaller {
  account: SandboxAccount;
  scopes: string[];
  scenario: Scenario;
}

/** Knobs that make a call fail, in the order they are spent: throttling first. */
const FAULT_KNOBS = ['rate_limit_next', 'rate_limit_once', 'fail_next', 'http_500_once'] as const;

/**
 * Spends one fault knob, reading the scenario again inside the account's lock so concurrent
 * calls spend one count each.
 */
async function spendFault(oauth: SandboxOAuth, withLock: KeyedLock, accountId: string) {
  return withLock(`scenario:${accountId}`, async () => {
    const scenario = await oauth.scenario(accountId);
    const knob = FAULT_KNOBS.find((k) => scenario[k] !== undefined);
    if (!knob) return null;
    const left = KNOB_VALUES[knob]?.mode === 'counter' ? scenario[knob]! - 1 : 0;
    if (left > 0) scenario[knob] = left;
    else delete scenario[knob];
    await oauth.saveScenario(accountId, scenario);
    return knob.startsWith('rate_limit') ? ('rate_limit' as const) : ('fail' as const);
  });
}

/**
 * Checks the Bearer token and the scopes an endpoint needs, then applies the per-call knobs:
 * `latency_ms` first, then a throttled or failed answer. Throws XFailure.
 */
export function createXAccess(oauth: SandboxOAuth, withLock: KeyedLock) {
  return async function access(request: FastifyRequest, scopes: string[]): Promise<XCaller> {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) throw xFailures.unauthorized();
    const { account, scenario } = check;
    const latency = scenario.latency_ms;
    if (latency) await sleep(latency);
    if (FAULT_KNOBS.some((k) => scenario[k] !== undefined)) {
      const fault = await spendFault(oauth, withLock, account.id);
      if (fault === 'rate_limit')
        throw xFailures.rateLimited(
          Math.ceil(Date.now() / 1000) + X_EMULATOR.windowSeconds,
          X_EMULATOR.usersMeLimit,
        );
      if (fault === 'fail') throw xFailures.server();
    }
    if (!scopes.every((s) => check.scopes.includes(s))) throw xFailures.missingScope();
    return { account, scopes: check.scopes, scenario };
  };
}

export type XAccess = ReturnType<typeof createXAccess>;

/** Spends a one-shot or counter knob under the account's lock; its number when it was on. */
export async function spendXKnob(
  oauth: SandboxOAuth,
  withLock: KeyedLock,
  accountId: string,
  knob: 'finalize_timeout' | 'processing_fails',
): Promise<number | undefined> {
  return withLock(`scenario:${accountId}`, async () => {
    const scenario = await oauth.scenario(accountId);
    const value = scenario[knob];
    if (value === undefined) return undefined;
    const mode = KNOB_VALUES[knob]?.mode;
    if (mode === 'counter' && value > 1) scenario[knob] = value - 1;
    else delete scenario[knob];
    await oauth.saveScenario(accountId, scenario);
    return mode === 'counter' ? 1 : value;
  });
}
