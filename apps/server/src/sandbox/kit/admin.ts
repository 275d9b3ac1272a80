import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type CallLog, createCallLog, registerCallLogRoutes } from './call-log.js';
import { type EmuClock, registerClockRoutes } from './clock.js';
import { CONNECTION_KNOBS, type SandboxOAuth } from './oauth-state.js';
import { registerScenarioRoutes, type ScenarioKeyOf, type ScenarioStore } from './scenario.js';

/** What the admin routes of one emulator work on. */
export interface EmulatorAdminOptions {
  clock: EmuClock;
  scenarios: ScenarioStore;
  /** The knobs `POST /_emu/scenario` accepts. */
  knobs: readonly string[];
  /** The scenario key an account reference names (an account id, or the name itself). */
  keyOf: ScenarioKeyOf;
}

/** Credentials a network call may carry in its query or body (the call log's attribution). */
const CREDENTIAL_FIELDS = [
  'access_token',
  'refresh_token',
  'code',
  'token',
  'input_token',
  'fb_exchange_token',
];

/** Every credential a call carries: its Bearer (Graph: OAuth) token and its credential fields. */
export function credentialsOf(request: FastifyRequest): string[] {
  const found: string[] = [];
  const bearer = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) found.push(bearer);
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object' || Buffer.isBuffer(source)) continue;
    for (const field of CREDENTIAL_FIELDS) {
      const value = (source as Record<string, unknown>)[field];
      if (typeof value === 'string' && value) found.push(value);
    }
  }
  return found;
}

/**
 * The emulators' one test-facing route set (docs/networks.md#scenario-knobs), under `{mount}/_emu/`:
 * - `POST /_emu/scenario {account, knob, on, value?}` switches a scenario knob for one account
 *   and `GET /_emu/scenario?account=` reads them (scenario.ts; publishing knobs carry a number:
 *   a latency, a count of calls…; see call-knobs.ts);
 * - `GET|DELETE /_emu/calls[?path=/prefix]` lists (or forgets) the network calls received,
 *   secrets redacted (call-log.ts);
 * - `GET|POST /_emu/clock {advance_seconds}` reads or moves the emulator's clock (clock.ts).
 * Inside the app they need a signed-in user (http/access.ts). Returns the call log.
 */
export function registerAdminRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  options: EmulatorAdminOptions,
): CallLog {
  const calls = createCallLog(ctx.store);
  registerCallLogRoutes(scope, calls);
  registerScenarioRoutes(scope, options.scenarios, options.knobs, options.keyOf);
  registerClockRoutes(scope, options.clock, ctx.clockMoved);
  return calls;
}

/**
 * The admin routes of an emulator built on SandboxOAuth (X, Threads, TikTok): knobs are kept per
 * account id (tests name the account by username or id) and every network call is logged as it
 * is answered. Register it before the network's routes: it also keeps them out of the
 * info-level log.
 */
export function registerEmulatorAdmin(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  knobs: readonly string[] = CONNECTION_KNOBS,
) {
  // Graph-style endpoints carry tokens and the client secret in the query string, and the
  // server's request log prints URLs: emulator requests log at warn and above only.
  scope.addHook('onRoute', (route) => {
    route.logLevel = 'warn';
  });
  const relativePath = (url: string) => url.slice(ctx.mountPath.length).split('?')[0] ?? '';
  const calls = registerAdminRoutes(scope, ctx, {
    clock: oauth.clock,
    scenarios: oauth.scenarios,
    knobs,
    keyOf: async (ref) => {
      const account = await oauth.findAccount(ref);
      return account ? { key: account.id, accounts: [account.id] } : null;
    },
  });

  scope.addHook('onSend', async (request, reply, payload) => {
    const path = relativePath(request.url);
    if (path.startsWith('/_emu/')) return payload;
    const scheme = request.headers.authorization?.split(' ')[0]?.toLowerCase();
    const owners = await Promise.all(
      credentialsOf(request).map((c) => oauth.accountOfCredential(c)),
    );
    await calls.record({
      accounts: [...new Set(owners.filter((id): id is string => id !== null))],
      method: request.method,
      path,
      query: request.query as Record<string, unknown>,
      body: request.body,
      auth: scheme === 'bearer' || scheme === 'basic' ? scheme : null,
      status: reply.statusCode,
    });
    return payload;
  });
}
