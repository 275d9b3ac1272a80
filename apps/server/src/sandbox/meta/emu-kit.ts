import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import type { SandboxStore } from '../store.js';

/**
 * Pieces every network emulator needs beside its own routes: stable ids, random tokens,
 * scenario knobs (§7.6), a log of calls for assertions, and placeholder pictures. All state is
 * in the sandbox store so it survives restarts.
 */

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

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

export const randomToken = (prefix: string, bytes = 32) =>
  `${prefix}${randomBytes(bytes).toString('base64url')}`;

/** The origin of a URL, or null when it is not an absolute URL. */
export function originOf(url: string | undefined) {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return null;
  }
}

/** Splits a comma-separated form field into distinct trimmed names. */
export const splitList = (value: string) => [
  ...new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/** Query or body parameters whose values never go into the calls log. */
const SECRET_PARAM = /token|secret|^code$|password|assertion/i;

const redact = (params: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, SECRET_PARAM.test(k) ? '[redacted]' : v]),
  );

export interface EmuCall {
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: Record<string, unknown> | null;
}

interface ScenarioRecord {
  knobs: Record<string, boolean>;
}

export interface EmuKit {
  /** Whether a knob is on for any of these keys (account name, account id…). */
  isOn(knob: string, keys: Array<string | undefined>): Promise<boolean>;
  recordCall(call: Omit<EmuCall, 'at'>): Promise<void>;
  pictureUrl(id: string, name: string): string;
}

/**
 * Adds `POST /_emu/scenario {account, knob, on}`, `GET /_emu/scenario?account=`,
 * `GET|DELETE /_emu/calls` and `GET /_emu/picture/:id` to an emulator's scope.
 */
export function registerEmuKit(
  scope: FastifyInstance,
  ctx: SandboxContext,
  knobs: readonly string[],
): EmuKit {
  const store: SandboxStore = ctx.store;

  scope.post('/_emu/scenario', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const account = typeof body.account === 'string' ? body.account.trim() : '';
    const knob = typeof body.knob === 'string' ? body.knob : '';
    if (!account || !knobs.includes(knob)) {
      return reply
        .status(400)
        .send({ error: `Send {account, knob, on}; knobs: ${knobs.join(', ')}.` });
    }
    const on = body.on === true || body.on === 'true' || body.on === undefined;
    const record = (await store.get<ScenarioRecord>('scenario', account)) ?? { knobs: {} };
    record.knobs[knob] = on;
    await store.put('scenario', account, record);
    return { account, knobs: record.knobs };
  });

  scope.get('/_emu/scenario', async (request) => {
    const account = String((request.query as Record<string, unknown>).account ?? '');
    const record = await store.get<ScenarioRecord>('scenario', account);
    return { account, knobs: record?.knobs ?? {} };
  });

  scope.get('/_emu/calls', async () => {
    const calls = await store.list<EmuCall>('call');
    calls.sort((a, b) => a.id.localeCompare(b.id));
    return { calls: calls.map((c) => c.data) };
  });

  scope.delete('/_emu/calls', async () => {
    for (const call of await store.list('call')) await store.delete('call', call.id);
    return { deleted: true };
  });

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

  let sequence = 0;
  return {
    async isOn(knob, keys) {
      for (const key of keys) {
        if (!key) continue;
        const record = await store.get<ScenarioRecord>('scenario', key);
        if (record?.knobs[knob]) return true;
      }
      return false;
    },
    async recordCall(call) {
      const id = `${Date.now().toString().padStart(15, '0')}-${String(sequence++).padStart(6, '0')}`;
      await store.put('call', id, {
        at: new Date().toISOString(),
        method: call.method,
        path: call.path,
        query: redact(call.query),
        body: call.body ? redact(call.body) : null,
      });
    },
    pictureUrl: (id, name) =>
      `${ctx.publicBase}/_emu/picture/${encodeURIComponent(id)}?name=${encodeURIComponent(name)}`,
  };
}
