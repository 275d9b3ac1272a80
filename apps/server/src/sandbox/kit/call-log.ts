import type { FastifyInstance } from 'fastify';
import type { SandboxStore } from '../store.js';
import { emuTenant, type EmuTenant } from './tenant.js';

/**
 * The calls an emulator received, for tests' assertions (`GET /_emu/calls[?path=/prefix]`,
 * `DELETE /_emu/calls`), secrets redacted, kept in the sandbox store.
 */
export interface RecordedCall {
  at: number;
  seq: number;
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  /** The kind of Authorization header sent, never its value (emulators that log on answer). */
  auth?: 'bearer' | 'basic' | null;
  /** The status answered (emulators that log on answer). */
  status?: number;
  /**
   * The accounts whose credentials the call carried (a token, a refresh token, a code), by the
   * ids Herald keeps; empty for the app's own calls. Each organization reads its accounts' calls.
   */
  accounts: string[];
}

/**
 * Whether a tenant may read a call: one made with an account of theirs, or (for whoever controls
 * the app's shared state) one that concerns no account.
 */
const readableBy = (tenant: EmuTenant) => (call: RecordedCall) =>
  (call.accounts ?? []).length === 0
    ? tenant.controlsSharedState
    : call.accounts.some((id) => tenant.owns(id));

/** Fields whose values never reach the call log. */
const SECRET_FIELDS = new Set([
  'access_token',
  'refresh_token',
  'client_secret',
  'code',
  'code_verifier',
  'token',
  'input_token',
]);
const SECRET_PARAM = /token|secret|^code$|password|assertion/i;
const isSecret = (key: string) => SECRET_FIELDS.has(key) || SECRET_PARAM.test(key);

export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      isSecret(k) ? '[redacted]' : Buffer.isBuffer(v) ? `[${v.length} bytes]` : v,
    ]),
  );
}

/** The log keeps the newest calls only, so a long benchmark does not grow it forever. */
const KEEP_CALLS = 2000;
const PRUNE_EVERY = 200;
let sequence = 0;

const byTime = (a: RecordedCall, b: RecordedCall) => a.at - b.at || a.seq - b.seq;

export interface CallLog {
  record(call: Omit<RecordedCall, 'at' | 'seq'>): Promise<void>;
  /** The calls `tenant` may read, oldest first. */
  list(tenant: EmuTenant, pathPrefix?: string): Promise<RecordedCall[]>;
  /** Forgets the calls `tenant` may read. */
  clear(tenant: EmuTenant): Promise<void>;
}

export function createCallLog(store: SandboxStore): CallLog {
  async function prune() {
    const rows = await store.list<RecordedCall>('call');
    if (rows.length <= KEEP_CALLS) return;
    const oldest = rows.sort((a, b) => byTime(a.data, b.data)).slice(0, rows.length - KEEP_CALLS);
    for (const row of oldest) await store.delete('call', row.id);
  }
  return {
    async record(call) {
      const entry: RecordedCall = {
        ...call,
        at: Date.now(),
        seq: sequence++,
        query: redact(call.query) as Record<string, unknown>,
        body: redact(call.body),
      };
      await store.put('call', `${entry.at}-${entry.seq}`, entry);
      if (entry.seq % PRUNE_EVERY === 0) await prune();
    },
    async list(tenant, pathPrefix = '') {
      const rows = await store.list<RecordedCall>('call');
      return rows
        .map((r) => r.data)
        .filter((c) => c.path.startsWith(pathPrefix))
        .filter(readableBy(tenant))
        .sort(byTime);
    },
    async clear(tenant) {
      const readable = readableBy(tenant);
      for (const call of await store.list<RecordedCall>('call'))
        if (readable(call.data)) await store.delete('call', call.id);
    },
  };
}

/** `GET /_emu/calls[?path=/prefix]` and `DELETE /_emu/calls`, of the caller's accounts. */
export function registerCallLogRoutes(scope: FastifyInstance, log: CallLog) {
  scope.get('/_emu/calls', async (request) => {
    const path = (request.query as { path?: unknown }).path;
    return { calls: await log.list(emuTenant(request), typeof path === 'string' ? path : '') };
  });
  scope.delete('/_emu/calls', async (request) => {
    await log.clear(emuTenant(request));
    return { deleted: true };
  });
}
