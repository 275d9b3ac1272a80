import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { knobValue } from './call-knobs.js';
import { CONNECTION_KNOBS, type SandboxOAuth } from './oauth-state.js';

/**
 * The emulator's test-facing side (platform-apis.md §7.6), under `{mount}/_emu/`:
 * - `POST /_emu/scenario {account, knob, on, value?}` switches a scenario knob for one account
 *   (publishing knobs carry a number: a latency, a count of calls…; see call-knobs.ts);
 * - `GET /_emu/calls[?path=/prefix]` lists the network calls received, secrets redacted;
 * - `POST /_emu/clock {advance_seconds}` moves the emulator's clock (code age, token expiry).
 * Register it before the network's routes: it also keeps them out of the info-level log.
 */
export interface RecordedCall {
  at: number;
  seq: number;
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  /** The kind of Authorization header sent, never its value. */
  auth: 'bearer' | 'basic' | null;
  status: number;
}

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

function redact(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_FIELDS.has(k) ? '[redacted]' : Buffer.isBuffer(v) ? `[${v.length} bytes]` : v,
    ]),
  );
}

let sequence = 0;
/** The log keeps the newest calls only, so a long-running sandbox does not grow forever. */
const KEEP_CALLS = 1000;
const PRUNE_EVERY = 100;

const byTime = (a: RecordedCall, b: RecordedCall) => a.at - b.at || a.seq - b.seq;

async function pruneCalls(ctx: SandboxContext) {
  const rows = await ctx.store.list<RecordedCall>('call');
  if (rows.length <= KEEP_CALLS) return;
  const oldest = rows.sort((a, b) => byTime(a.data, b.data)).slice(0, rows.length - KEEP_CALLS);
  for (const row of oldest) await ctx.store.delete('call', row.id);
}

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

  scope.addHook('onSend', async (request, reply, payload) => {
    const path = relativePath(request.url);
    if (path.startsWith('/_emu/')) return payload;
    const scheme = request.headers.authorization?.split(' ')[0]?.toLowerCase();
    const call: RecordedCall = {
      at: Date.now(),
      seq: sequence++,
      method: request.method,
      path,
      query: redact(request.query) as Record<string, unknown>,
      body: redact(request.body),
      auth: scheme === 'bearer' || scheme === 'basic' ? scheme : null,
      status: reply.statusCode,
    };
    await ctx.store.put('call', `${call.at}-${call.seq}`, call);
    if (call.seq % PRUNE_EVERY === 0) await pruneCalls(ctx);
    return payload;
  });

  scope.post('/_emu/scenario', async (request, reply) => {
    const body = (request.body ?? {}) as {
      account?: unknown;
      knob?: unknown;
      on?: unknown;
      value?: unknown;
    };
    if (typeof body.knob !== 'string' || !knobs.includes(body.knob))
      return reply.status(400).send({ error: `knob must be one of ${knobs.join(', ')}.` });
    const on = body.on !== false && body.on !== 'false';
    // Switching a knob off needs no number.
    const { value, error } = on ? knobValue(body.knob, body.value) : {};
    if (error) return reply.status(400).send({ error });
    const account = typeof body.account === 'string' ? await oauth.findAccount(body.account) : null;
    if (!account)
      return reply.status(404).send({ error: 'No sandbox account has this username or id.' });
    const active = await oauth.setKnob(account.id, body.knob, on, value);
    return { account: { id: account.id, username: account.username }, knobs: active };
  });

  scope.get('/_emu/calls', async (request) => {
    const prefix = (request.query as { path?: string }).path ?? '';
    const rows = await ctx.store.list<RecordedCall>('call');
    const calls = rows
      .map((r) => r.data)
      .filter((c) => c.path.startsWith(prefix))
      .sort(byTime);
    return { calls };
  });

  scope.post('/_emu/clock', async (request, reply) => {
    const seconds = Number((request.body as { advance_seconds?: unknown })?.advance_seconds);
    if (!Number.isFinite(seconds) || seconds < 0)
      return reply.status(400).send({ error: 'advance_seconds must be a positive number.' });
    return { offset_seconds: await oauth.advanceClock(seconds) };
  });
}
