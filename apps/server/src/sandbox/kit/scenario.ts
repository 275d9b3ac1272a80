import type { FastifyInstance } from 'fastify';
import type { SandboxStore } from '../store.js';
import { emuTenant, notYours } from './tenant.js';
import { KNOB_VALUES, knobValue } from './call-knobs.js';
import type { EmuClock } from './clock.js';
import { createKeyedLock } from './keyed-lock.js';

/**
 * Scenario knobs (docs/networks.md#scenario-knobs), one store for every emulator: the knobs of a key (an
 * account id, a name typed at sign-in, a URN…) in the sandbox store under `scenario/{key}`.
 *
 * Knob name → its number: for a switch (`token_revoked`), when it was switched on (ms on the
 * emulator's clock); for a knob of call-knobs.ts, the count, duration or cap it carries.
 */
export type Knobs = Partial<Record<string, number>>;

/** The knobs in force for one request, read once from the keys it concerns (first key wins). */
export interface Scenario {
  /** Every knob in force, as read. */
  readonly knobs: Readonly<Knobs>;
  /** A switch that is set, or a numeric knob above 0. */
  isOn(knob: string): boolean;
  /** A knob's stored number (a switch: when it went on), or undefined when unset. */
  value(knob: string): number | undefined;
  /** A numeric knob's number, 0 when unset (a switch that is on counts as 1). */
  number(knob: string): number;
  /** Uses up one of a count knob (`fail_next: 3` → 2), or switches any other knob off; true when it was on. */
  take(knob: string): Promise<boolean>;
  /** Switches a one-shot knob off and returns its number, or null when it was not set. */
  takeValue(knob: string): Promise<number | null>;
}

export interface ScenarioStore {
  /** Reads the scenario once for a request about these keys. */
  read(keys: Array<string | undefined>): Promise<Scenario>;
  /** The knobs set on one key. */
  knobs(key: string): Promise<Knobs>;
  /** Switches a knob on (with its number: see `knobValue`) or off; returns the key's knobs. */
  set(key: string, knob: string, on: boolean, value?: number): Promise<Knobs>;
}

const isNumeric = (knob: string) => KNOB_VALUES[knob] !== undefined;

export function createScenarioStore(store: SandboxStore, clock: EmuClock): ScenarioStore {
  const knobs = async (key: string) => (await store.get<Knobs>('scenario', key)) ?? {};
  // Knobs are spent one at a time per key, reading afresh: two concurrent calls never spend the
  // same `fail_next` unit, so "the next N calls" means N.
  const withLock = createKeyedLock();
  const update = (key: string, change: (knobs: Knobs) => void) =>
    withLock(key, async () => {
      const fresh = { ...(await knobs(key)) };
      change(fresh);
      await store.put('scenario', key, fresh);
      return fresh;
    });

  async function read(keys: Array<string | undefined>): Promise<Scenario> {
    const distinct = [...new Set(keys.filter((k): k is string => !!k))];
    const books = await Promise.all(distinct.map(async (key) => [key, await knobs(key)] as const));
    const holderOf = (knob: string) => books.find(([, k]) => k[knob] !== undefined)?.[0];
    const merged: Knobs = {};
    for (const [, book] of [...books].reverse()) Object.assign(merged, book);
    const isOn = (knob: string) => {
      const v = merged[knob];
      return v !== undefined && (!isNumeric(knob) || v > 0);
    };
    /** Spends the knob on the key holding it; its number before, or undefined when no longer set. */
    async function spend(knob: string): Promise<number | undefined> {
      const holder = holderOf(knob);
      if (holder === undefined) return undefined;
      let spent: number | undefined;
      await update(holder, (fresh) => {
        spent = fresh[knob];
        if (spent === undefined) return;
        if (KNOB_VALUES[knob]?.mode === 'counter' && spent > 1) fresh[knob] = spent - 1;
        else delete fresh[knob];
      });
      if (spent === undefined) delete merged[knob];
      return spent;
    }
    return {
      knobs: merged,
      isOn,
      value: (knob) => merged[knob],
      number: (knob) => (isNumeric(knob) ? (merged[knob] ?? 0) : isOn(knob) ? 1 : 0),
      async take(knob) {
        if (!isOn(knob)) return false;
        const before = await spend(knob);
        return before !== undefined && (!isNumeric(knob) || before > 0);
      },
      async takeValue(knob) {
        if (merged[knob] === undefined) return null;
        const before = await spend(knob);
        return before === undefined ? null : isNumeric(knob) ? before : 0;
      },
    };
  }

  return {
    read,
    knobs,
    async set(key, knob, on, value) {
      const number = on ? (value ?? (isNumeric(knob) ? 0 : await clock.now())) : undefined;
      return update(key, (fresh) => {
        if (number === undefined) delete fresh[knob];
        else fresh[knob] = number;
      });
    },
  };
}

/**
 * How `/_emu/scenario` finds the key an `account` reference stands for, and the accounts (by the
 * ids Herald keeps) it concerns; null when no sandbox account has that name or id.
 */
export type ScenarioKeyOf = (
  account: string,
) => Promise<{ key: string; accounts: string[] } | null>;

/**
 * `POST /_emu/scenario {account, knob, on?, value?}` switches a knob for an account (knobs that
 * carry a number take `value`, or their default; see call-knobs.ts) and `GET /_emu/scenario?account=`
 * reads them; both answer `{account, knobs}`. `keyOf` resolves the account: one another
 * organization connected (and the caller's did not) is answered 404, as an unknown one.
 */
export function registerScenarioRoutes(
  scope: FastifyInstance,
  scenarios: ScenarioStore,
  knobs: readonly string[],
  keyOf: ScenarioKeyOf,
) {
  // The caller's accounts, or accounts no organization connected yet (a knob such as
  // no_refresh_token is set before connecting).
  const keyOfOwned = async (request: Parameters<typeof emuTenant>[0], account: string) => {
    const tenant = emuTenant(request);
    const found = account ? await keyOf(account) : null;
    if (!found) throw notYours('account');
    if (found.accounts.some((id) => tenant.owns(id))) return found.key;
    if (await tenant.unclaimed(found.accounts)) return found.key;
    throw notYours('account');
  };

  scope.post('/_emu/scenario', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.knob !== 'string' || !knobs.includes(body.knob))
      return reply.status(400).send({ error: `knob must be one of ${knobs.join(', ')}.` });
    const on = body.on !== false && body.on !== 'false';
    // Switching a knob off needs no number.
    const { value, error } = on ? knobValue(body.knob, body.value) : {};
    if (error) return reply.status(400).send({ error });
    const account = typeof body.account === 'string' ? body.account.trim() : '';
    const key = await keyOfOwned(request, account);
    return { account, knobs: await scenarios.set(key, body.knob, on, value) };
  });

  scope.get('/_emu/scenario', async (request) => {
    const ref = (request.query as Record<string, unknown>).account;
    const account = typeof ref === 'string' ? ref.trim() : '';
    const key = await keyOfOwned(request, account);
    return { account, knobs: await scenarios.knobs(key) };
  });
}
