import type { FastifyRequest } from 'fastify';
import { callFault, PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { bearerToken } from '../kit/consent.js';
import { CONNECTION_KNOBS, type SandboxAccount, type SandboxOAuth } from '../kit/oauth-state.js';
import type { Scenario } from '../kit/scenario.js';
import { X_EMULATOR, xFailures } from './responses.js';

/**
 * Knobs of the X emulator (docs/networks.md#scenario-knobs): the connection ones, the publishing ones of
 * call-knobs.ts, `reply_open` (lifts the "summoned" reply rule that is on by default, as on X's
 * self-serve tiers, docs/networks.md#x-comments) and `daily_cap_next` (the next N posts are refused
 * with the 24-hour cap headers) and `premium` (the user subscribes to X Premium: `GET /2/users/me`
 * says so and `POST /2/tweets` takes long posts; also set by the consent page's checkbox).
 */
export const X_KNOBS = [
  ...CONNECTION_KNOBS,
  ...PUBLISHING_KNOBS,
  'reply_open',
  'daily_cap_next',
  'premium',
] as const;

export interface XCaller {
  account: SandboxAccount;
  scopes: string[];
  scenario: Scenario;
}

/**
 * Checks the Bearer token and the scopes an endpoint needs, then applies the per-call knobs:
 * `latency_ms` first, then a throttled or failed answer. Throws XFailure.
 */
export function createXAccess(oauth: SandboxOAuth) {
  return async function access(request: FastifyRequest, scopes: string[]): Promise<XCaller> {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) throw xFailures.unauthorized();
    const { account, scenario } = check;
    const fault = await callFault(scenario);
    if (fault === 'rate_limit')
      throw xFailures.rateLimited(
        Math.ceil(Date.now() / 1000) + X_EMULATOR.windowSeconds,
        X_EMULATOR.usersMeLimit,
      );
    if (fault === 'fail') throw xFailures.server();
    if (!scopes.every((s) => check.scopes.includes(s))) throw xFailures.missingScope();
    return { account, scopes: check.scopes, scenario };
  };
}

export type XAccess = ReturnType<typeof createXAccess>;
