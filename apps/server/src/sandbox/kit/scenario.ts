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
  /**
   * The knobs set on one key, as `organizationId` sees them: without the ones another
   * organization set before the account was connected (all of them for null).
   */
  knobs(key: string, organizationId?: string | null): Promise<Knobs>;
  /**
   * Switches a knob on (with its number: see `knobValue`) or off. `boundTo`: the organization
   * that set it on an account no organization has connected yet, for which alone it is in force
   * (null: for whoever signs in).
   */
  set(
    key: string,
    knob: string,
    on: boolean,
    value?: number,
    boundTo?: string | null,
  ): Promise<void>;
  /** The organization a knob of this key is bound to (see `set`), if any. */
  boundTo(key: string, knob: string): Promise<string | null>;
  /**
   * Someone signed in on the consent page as the account of these keys, for these organizations
   * (null: a harness, any): knobs other organizations bound to them are dropped, and from now on
   * a knob bound to an organization is in force only if it is one of these.
   */
  signedIn(keys: readonly string[], organizationIds: readonly string[] | null): Promise<void>;
}

/**
 * Who a key's knobs are for, beside the knobs (`scenario_binding/{key}`). A knob set on an
 * account no organization has connected yet is bound to the organization that set it: it is in
 * force only while the account is signed in by a member of that organization, so one
 * organization cannot lay failures in wait on a name another will connect.
 */
interface Binding {
  /** Knob → the organization that set it before the account was connected. */
  setBy: Record<string, string>;
  /**
   * The organizations of the person who last signed in as the account; null in a harness (any
   * organization); absent until someone signs in.
   */
  signedInFor?: readonly string[] | null;
}

const isNumeric = (knob: string) => KNOB_VALUES[knob] !== undefined;

/** Whether a knob bound to `organizationId` applies to an account signed in `for` these. */
const appliesFor = (organizationId: string, signedInFor: Binding['signedInFor']) =>
  signedInFor === null || (signedInFor?.includes(organizationId) ?? false);

/** `knobs` without those bound to an organization `keep` rejects. */
function withoutBound(knobs: Knobs, binding: Binding, keep: (organizationId: string) => boolean) {
  const kept = { ...knobs };
  for (const [knob, organizationId] of Object.entries(binding.setBy))
    if (!keep(organizationId)) delete kept[knob];
  return kept;
}

export function createScenarioStore(store: SandboxStore, clock: EmuClock): ScenarioStore {
  const knobs = async (key: string) => (await store.get<Knobs>('scenario', key)) ?? {};
  const bindingOf = async (key: string) =>
    (await store.get<Binding>('scenario_binding', key)) ?? { setBy: {} };
  /** The knobs of a key in force for the account's sign-in. */
  const inForce = async (key: string) => {
    const [raw, binding] = await Promise.all([knobs(key), bindingOf(key)]);
    return withoutBound(raw, binding, (org) => appliesFor(org, binding.signedInFor));
  };
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
    const books = await Promise.all(
      distinct.map(async (key) => [key, await inForce(key)] as const),
    );
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

  /** The knobs of a key as an organization sees them (see ScenarioStore.knobs). */
  const seenBy = (raw: Knobs, binding: Binding, organizationId: string | null | undefined) =>
    organizationId === null || organizationId === undefined
      ? raw
      : withoutBound(raw, binding, (org) => org === organizationId);

  return {
    read,
    async knobs(key, organizationId) {
      return seenBy(await knobs(key), await bindingOf(key), organizationId);
    },
    async set(key, knob, on, value, boundTo = null) {
      const number = on ? (value ?? (isNumeric(knob) ? 0 : await clock.now())) : undefined;
      await withLock(key, async () => {
        const fresh = { ...(await knobs(key)) };
        const binding = await bindingOf(key);
        if (number === undefined) delete fresh[knob];
        else fresh[knob] = number;
        const wasBound = binding.setBy[knob] !== undefined;
        if (number !== undefined && boundTo) binding.setBy[knob] = boundTo;
        else delete binding.setBy[knob];
        await store.put('scenario', key, fresh);
        if (wasBound || binding.setBy[knob] !== undefined)
          await store.put('scenario_binding', key, binding);
      });
    },
    async boundTo(key, knob) {
      return (await bindingOf(key)).setBy[knob] ?? null;
    },
    async signedIn(keys, organizationIds) {
      for (const key of new Set(keys))
        await withLock(key, async () => {
          const binding = await bindingOf(key);
          const foreign = Object.entries(binding.setBy).filter(
            ([, org]) => !appliesFor(org, organizationIds),
          );
          if (foreign.length) {
            const fresh = { ...(await knobs(key)) };
            for (const [knob] of foreign) {
              delete fresh[knob];
              delete binding.setBy[knob];
            }
            await store.put('scenario', key, fresh);
          }
          await store.put('scenario_binding', key, { ...binding, signedInFor: organizationIds });
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
  // no_refresh_token is set before connecting): such a knob is bound to the caller's
  // organization (`boundTo`), in force only for its members' sign-ins; a platform operator's,
  // like the rest of what every organization shares, is for whoever signs in.
  const keyOfOwned = async (request: Parameters<typeof emuTenant>[0], account: string) => {
    const tenant = emuTenant(request);
    const found = account ? await keyOf(account) : null;
    if (!found) throw notYours('account');
    if (found.accounts.some((id) => tenant.owns(id)))
      return { key: found.key, boundTo: null, viewer: tenant.organizationId };
    if (await tenant.unclaimed(found.accounts)) {
      const boundTo = tenant.controlsSharedState ? null : tenant.organizationId;
      return { key: found.key, boundTo, viewer: tenant.organizationId };
    }
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
    const { key, boundTo, viewer } = await keyOfOwned(request, account);
    // Another organization's knob on a name nobody connected yet is theirs, not to be changed.
    const holder = boundTo && (await scenarios.boundTo(key, body.knob));
    if (holder && holder !== boundTo) throw notYours('account');
    await scenarios.set(key, body.knob, on, value, boundTo);
    return { account, knobs: await scenarios.knobs(key, viewer) };
  });

  scope.get('/_emu/scenario', async (request) => {
    const ref = (request.query as Record<string, unknown>).account;
    const account = typeof ref === 'string' ? ref.trim() : '';
    const { key, viewer } = await keyOfOwned(request, account);
    return { account, knobs: await scenarios.knobs(key, viewer) };
  });
}
