import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import type { SandboxStore } from '../store.js';
import { createCallLog, type RecordedCall, registerCallLogRoutes } from './call-log.js';
import { createEmuClock, registerClockRoutes } from './clock.js';
import { escapeHtml } from './html.js';

/**
 * Pieces every network emulator needs beside its own routes: stable ids, random tokens,
 * scenario knobs (§7.6), the call log (call-log.ts), and placeholder pictures. All state is
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

/** A knob is a switch (`token_revoked`) or a number: a count (`fail_next`) or a size (`latency_ms`). */
export type KnobValue = boolean | number;

/** Every account's knobs in one record: a request reads the scenario with one query. */
type ScenarioBook = Record<string, Record<string, KnobValue>>;
const SCENARIO_ID = 'all';

/** The knobs in force for one request, merged from the keys it concerns (first key wins). */
export interface Scenario {
  isOn(knob: string): boolean;
  /** A numeric knob's value, 0 when unset (a switch that is on counts as 1). */
  number(knob: string): number;
  /**
   * Uses up one of a count knob (`fail_next: 3` → 2); true when there was one. Switches that
   * are on count as one.
   */
  take(knob: string): Promise<boolean>;
  /**
   * Switches a one-shot knob off and returns its number (a switch counts as 0), or null when it
   * was not on (`finalize_timeout: 800` → 800, then gone).
   */
  takeValue(knob: string): Promise<number | null>;
}

export interface EmuKit {
  /** Whether a knob is on for any of these keys (account name, account id…). */
  isOn(knob: string, keys: Array<string | undefined>): Promise<boolean>;
  /** Reads the scenario once for a request about these keys. */
  scenario(keys: Array<string | undefined>): Promise<Scenario>;
  /** The emulator's clock: real time plus what `POST /_emu/clock` advanced it by. */
  now(): Promise<number>;
  recordCall(call: Pick<RecordedCall, 'method' | 'path' | 'query' | 'body'>): Promise<void>;
  pictureUrl(id: string, name: string): string;
}

const knobValue = (body: Record<string, unknown>): KnobValue | null => {
  if (body.on === false || body.on === 'false') return false;
  if (body.value !== undefined && body.value !== null) {
    const n = Number(body.value);
    return Number.isFinite(n) && n >= 0 ? n : null;
  }
  return !(body.on === false || body.on === 'false');
};

/**
 * Adds `POST /_emu/scenario {account, knob, on | value}`, `GET /_emu/scenario?account=`,
 * `GET|DELETE /_emu/calls`, `GET|POST /_emu/clock {advance_seconds}` and `GET /_emu/picture/:id`
 * to an emulator's scope. `numericKnobs` take a `value` (a count or milliseconds).
 */
export function registerEmuKit(
  scope: FastifyInstance,
  ctx: SandboxContext,
  knobs: readonly string[],
  numericKnobs: readonly string[] = [],
): EmuKit {
  const store: SandboxStore = ctx.store;
  const allKnobs = [...knobs, ...numericKnobs];
  const readBook = async () => (await store.get<ScenarioBook>('scenario', SCENARIO_ID)) ?? {};

  scope.post('/_emu/scenario', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const account = typeof body.account === 'string' ? body.account.trim() : '';
    const knob = typeof body.knob === 'string' ? body.knob : '';
    const value = knobValue(body);
    if (!account || !allKnobs.includes(knob) || value === null) {
      return reply.status(400).send({
        error: `Send {account, knob, on} or {account, knob, value}; knobs: ${allKnobs.join(', ')}.`,
      });
    }
    const book = await readBook();
    const record = { ...book[account] };
    if (value === false || value === 0) delete record[knob];
    else record[knob] = value;
    book[account] = record;
    await store.put('scenario', SCENARIO_ID, book);
    return { account, knobs: record };
  });

  scope.get('/_emu/scenario', async (request) => {
    const account = String((request.query as Record<string, unknown>).account ?? '');
    return { account, knobs: (await readBook())[account] ?? {} };
  });

  const calls = createCallLog(store);
  registerCallLogRoutes(scope, calls);

  const clock = createEmuClock(store);
  const now = () => clock.now();
  registerClockRoutes(scope, clock);

  scope.get('/_emu/picture/:id', async (request, reply) => {
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

  const scenario = async (keys: Array<string | undefined>) =>
    scenarioOf(store, await readBook(), keys);

  return {
    async isOn(knob, keys) {
      return (await scenario(keys)).isOn(knob);
    },
    scenario,
    now,
    recordCall: (call) => calls.record(call),
    pictureUrl: (id, name) =>
      `${ctx.publicBase}/_emu/picture/${encodeURIComponent(id)}?name=${encodeURIComponent(name)}`,
  };
}

/**
 * The knobs of the first keys that have them. Spending one reads the book again before
 * writing, so a knob set meanwhile by a test is kept.
 */
function scenarioOf(
  store: SandboxStore,
  book: ScenarioBook,
  keys: Array<string | undefined>,
): Scenario {
  const holders = [...new Set(keys.filter((k): k is string => !!k))].filter((k) => book[k]);
  const holderOf = (knob: string) => holders.find((k) => book[k]![knob] !== undefined);
  const valueOf = (knob: string) => {
    const holder = holderOf(knob);
    return holder === undefined ? undefined : book[holder]![knob];
  };
  return {
    isOn: (knob) => {
      const v = valueOf(knob);
      return v === true || (typeof v === 'number' && v > 0);
    },
    number: (knob) => {
      const v = valueOf(knob);
      return typeof v === 'number' ? v : v === true ? 1 : 0;
    },
    async take(knob) {
      const holder = holderOf(knob);
      const v = holder === undefined ? undefined : book[holder]![knob];
      if (v !== true && !(typeof v === 'number' && v > 0)) return false;
      await rewrite(holder!, knob, (current) => {
        const left = (typeof current === 'number' ? current : 1) - 1;
        return left > 0 ? left : undefined;
      });
      return true;
    },
    async takeValue(knob) {
      const holder = holderOf(knob);
      const v = holder === undefined ? undefined : book[holder]![knob];
      if (v === undefined || v === false) return null;
      await rewrite(holder!, knob, () => undefined);
      return typeof v === 'number' ? v : 0;
    },
  };

  async function rewrite(
    holder: string,
    knob: string,
    next: (current: KnobValue | undefined) => KnobValue | undefined,
  ) {
    const fresh = (await store.get<ScenarioBook>('scenario', SCENARIO_ID)) ?? {};
    const record = { ...fresh[holder] };
    const value = next(record[knob]);
    if (value === undefined) delete record[knob];
    else record[knob] = value;
    fresh[holder] = record;
    book[holder] = record;
    await store.put('scenario', SCENARIO_ID, fresh);
  }
}
