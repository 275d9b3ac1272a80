import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerAdminRoutes } from './admin.js';
import type { RecordedCall } from './call-log.js';
import { createEmuClock } from './clock.js';
import { escapeHtml } from './html.js';
import { createScenarioStore, type Scenario } from './scenario.js';

/**
 * Pieces every network emulator needs beside its own routes: stable ids, random tokens,
 * scenario knobs (docs/networks.md#scenario-knobs), the call log (call-log.ts), and placeholder pictures. All state is
 * in the sandbox store so it survives restarts.
 */

const sha256 = (seed: string) => createHash('sha256').update(seed).digest('hex');

/** A stable numeric id (Meta style: 15–16 digits) for the same seed across restarts. */
export const numericId = (seed: string, length = 15) =>
  `1${[...sha256(seed)]
    .slice(0, length - 1)
    .map((c) => parseInt(c, 16) % 10)
    .join('')}`;

/** A stable alphanumeric id (LinkedIn member `sub` style). */
export const alphaId = (seed: string, length = 10) =>
  Buffer.from(sha256(seed), 'hex').toString('base64url').replace(/[-_]/g, 'x').slice(0, length);

export interface EmuKit {
  /** Whether a knob is on for any of these keys (account name, account id…). */
  isOn(knob: string, keys: Array<string | undefined>): Promise<boolean>;
  /** Reads the scenario once for a request about these keys. */
  scenario(keys: Array<string | undefined>): Promise<Scenario>;
  /** Someone signed in as the account of these keys, for these organizations (scenario.ts). */
  signedIn(keys: readonly string[], organizationIds: readonly string[] | null): Promise<void>;
  /** The emulator's clock: real time plus what `POST /_emu/clock` advanced it by. */
  now(): Promise<number>;
  recordCall(
    call: Pick<RecordedCall, 'method' | 'path' | 'query' | 'body' | 'accounts'>,
  ): Promise<void>;
  pictureUrl(id: string, name: string): string;
}

/**
 * Adds the kit's admin routes (admin.ts: `/_emu/scenario`, `/_emu/calls`, `/_emu/clock`) and
 * `GET /_emu/picture/:id` to an emulator that keeps its own OAuth state (Meta, LinkedIn).
 * `numericKnobs` take a `value` (a count or milliseconds). `accountsOf` names the accounts (by
 * the ids Herald keeps) a reference stands for: a knob is set only on the caller's accounts.
 */
export function registerEmuKit(
  scope: FastifyInstance,
  ctx: SandboxContext,
  knobs: readonly string[],
  numericKnobs: readonly string[],
  accountsOf: (ref: string) => Promise<string[]>,
): EmuKit {
  const clock = createEmuClock(ctx.store);
  const scenarios = createScenarioStore(ctx.store, clock);
  // Knobs are kept under whatever the test names: an account name, an id, a URN.
  const calls = registerAdminRoutes(scope, ctx, {
    clock,
    scenarios,
    knobs: [...knobs, ...numericKnobs],
    // A name that stands for no account yet is kept too: the person may sign in with it later.
    keyOf: async (ref) => ({ key: ref, accounts: await accountsOf(ref) }),
  });

  // A profile picture the web app shows: as public as the network's CDN.
  scope.get('/_emu/picture/:id', { config: { access: 'public' } }, async (request, reply) => {
    const name = String((request.query as Record<string, unknown>).name ?? '?');
    const initials = name
      .split(/\s+/)
      .map((w) => w[0] ?? '')
      .join('')
      .slice(0, 2)
      .toUpperCase();
    const hue = parseInt(numericId((request.params as { id: string }).id, 4), 10) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="hsl(${hue} 55% 42%)"/><text x="48" y="58" font-family="sans-serif" font-size="34" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`;
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });

  return {
    async isOn(knob, keys) {
      return (await scenarios.read(keys)).isOn(knob);
    },
    scenario: (keys) => scenarios.read(keys),
    signedIn: (keys, organizationIds) => scenarios.signedIn(keys, organizationIds),
    now: () => clock.now(),
    recordCall: (call) => calls.record(call),
    pictureUrl: (id, name) =>
      `${ctx.publicBase}/_emu/picture/${encodeURIComponent(id)}?name=${encodeURIComponent(name)}`,
  };
}
