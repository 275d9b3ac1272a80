import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmuKit } from './emu-kit.js';
import { GraphFailure, graphErrors } from './graph-errors.js';
import { addGraphNodeRoutes } from './graph-nodes.js';
import { addGraphOAuthRoutes, type GraphOAuthOptions } from './graph-oauth.js';
import { GraphRouter, splitGraphPath, type GraphMethod } from './graph-router.js';
import { createGraphState } from './graph-state.js';

/** Knobs of §7.6 the Graph emulator honours so far (per sandbox account name or id). */
export const META_KNOBS = ['token_revoked', 'token_expired', 'refresh_fails'] as const;

const asParams = (value: unknown): Record<string, string> => {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [
        k,
        Array.isArray(v) ? String(v[0]) : typeof v === 'object' ? JSON.stringify(v) : String(v),
      ]),
  );
};

/**
 * One Meta Graph emulator (§7.2) with Graph's paths, answers and error envelope. Facebook and
 * Instagram each mount their own copy with their own store; publishing and comments will add
 * routes to the same table.
 */
export function registerGraphEmulator(
  scope: FastifyInstance,
  ctx: SandboxContext,
  options: GraphOAuthOptions,
) {
  const kit = registerEmuKit(scope, ctx, META_KNOBS);
  const state = createGraphState(ctx, kit);
  const router = new GraphRouter();
  addGraphOAuthRoutes(router, { ctx, kit, state, options });
  addGraphNodeRoutes(router, { ctx, kit, state });

  scope.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/*',
    // Graph takes tokens and the app secret in query strings: keep request URLs out of the log.
    logLevel: 'warn',
    handler: async (request, reply) => {
      const rest = (request.params as Record<string, string>)['*'] ?? '';
      const { version, segments } = splitGraphPath(rest);
      const query = asParams(request.query);
      const body = asParams(request.body);
      const params = { ...query, ...body };
      const header = /^(?:OAuth|Bearer)\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      const method = request.method as GraphMethod;
      await kit.recordCall({ method, path: `/${rest}`, query, body: request.body ? body : null });
      const match = router.match(method, segments);
      try {
        if (!match) throw graphErrors.unknownPath(segments.join('/'));
        const answer = await match.handler(
          { method, version, params, token: header?.[1] ?? params.access_token },
          match.params,
        );
        if ('redirect' in answer) return reply.redirect(answer.redirect, 302);
        if ('html' in answer) {
          return reply
            .status(answer.status ?? 200)
            .type('text/html; charset=utf-8')
            .send(answer.html);
        }
        return reply.status(answer.status ?? 200).send(answer.json);
      } catch (err) {
        if (err instanceof GraphFailure) return reply.status(err.status).send(err.body());
        throw err;
      }
    },
  });
}
