import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmuKit } from '../meta/emu-kit.js';
import { registerLinkedInOAuth } from './oauth.js';
import { registerLinkedInRest } from './rest.js';
import { createLinkedInState } from './state.js';

/** Knobs of §7.6 the LinkedIn emulator honours so far (per member name, `sub` or person URN). */
export const LINKEDIN_KNOBS = [
  'token_revoked',
  'token_expired',
  'refresh_fails',
  'no_refresh_token',
] as const;

/**
 * The LinkedIn sandbox (§7.5), mounted at /sandbox/linkedin: OAuth on the www host paths, the
 * API on the api host paths (one server answers both). Posts and comments come later.
 */
export function registerLinkedInSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  const kit = registerEmuKit(scope, ctx, LINKEDIN_KNOBS);
  const state = createLinkedInState(ctx, kit);
  scope.addHook('preHandler', async (request) => {
    const path = request.url.slice(ctx.mountPath.length).split('?')[0] ?? '';
    if (path.startsWith('/_emu/')) return;
    const body =
      request.body && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)
        : null;
    await kit.recordCall({
      method: request.method,
      path,
      query: { ...(request.query as Record<string, unknown>) },
      body,
    });
  });
  registerLinkedInOAuth(scope, ctx, kit, state);
  registerLinkedInRest(scope, kit, state);
}
