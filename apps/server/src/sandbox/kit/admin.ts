import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { createCallLog, registerCallLogRoutes } from './call-log.js';
import { knobValue } from './call-knobs.js';
import { registerClockRoutes } from './clock.js';
import { CONNECTION_KNOBS, type SandboxOAuth } from './oauth-state.js';

/**
 * The emulator's test-facing side (platform-apis.md §7.6), under `{mount}/_emu/`:
 * - `POST /_emu/scenario {account, knob, on, value?}` switches a scenario knob for one account
 *   (publishing knobs carry a number: a latency, a count of calls…; see call-knobs.ts);
 * - `GET /_emu/calls[?path=/prefix]` lists the network calls received, secrets redacted
 *   (call-log.ts, shared with emu-kit.ts);
 * - `GET|POST /_emu/clock {advance_seconds}` reads or moves the emulator's clock (clock.ts).
 * Register it before the network's routes: it also keeps them out of the info-level log.
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
  const calls = createCallLog(ctx.store);
  registerCallLogRoutes(scope, calls);

  scope.addHook('onSend', async (request, reply, payload) => {
    const path = relativePath(request.url);
    if (path.startsWith('/_emu/')) return payload;
    const scheme = request.headers.authorization?.split(' ')[0]?.toLowerCase();
    await calls.record({
      method: request.method,
      path,
      query: request.query as Record<string, unknown>,
      body: request.body,
      auth: scheme === 'bearer' || scheme === 'basic' ? scheme : null,
      status: reply.statusCode,
    });
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

  registerClockRoutes(scope, oauth.clock);
}
