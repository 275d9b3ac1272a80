import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { credentialsOf } from '../kit/admin.js';
import { PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { createKeyedLock } from '../kit/keyed-lock.js';
import { registerEmuKit } from '../kit/emu-kit.js';
import { registerLinkedInCommentRoutes } from './comments.routes.js';
import { registerLinkedInEmuRoutes } from './emu.routes.js';
import { registerLinkedInMediaRoutes } from './media.routes.js';
import { registerLinkedInNotificationRoutes } from './notifications.routes.js';
import { registerLinkedInOAuth } from './oauth.js';
import { createLinkedInPosts } from './posts-state.js';
import { registerLinkedInPostRoutes } from './posts.routes.js';
import { LinkedInFailure } from './errors.js';
import { refuseUnservedVersion, registerLinkedInRest } from './rest.js';
import { registerLinkedInStatisticsRoutes } from './statistics.routes.js';
import { createLinkedInState } from './state.js';

/**
 * Switch knobs of docs/networks.md#scenario-knobs the LinkedIn emulator honours (per member name, `sub` or person URN).
 * `r_member_social` stands for LinkedIn approving the app for that restricted scope: with it,
 * members' own posts and their comments can be read.
 */
export const LINKEDIN_KNOBS = [
  'token_revoked',
  'token_expired',
  'refresh_fails',
  'no_refresh_token',
  'r_member_social',
] as const;

/** Knobs with a number (call-knobs.ts): latency, counts of failing calls, processing, caps. */
export const LINKEDIN_NUMERIC_KNOBS = PUBLISHING_KNOBS.filter((k) => k !== 'moderation_ms');

/**
 * The LinkedIn sandbox (docs/networks.md#linkedin-sandbox), mounted at /sandbox/linkedin: OAuth on the www host paths, the
 * API on the api host paths (one server answers both), uploads on URLs it hands out itself.
 */
export function registerLinkedInSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  const kit = registerEmuKit(scope, ctx, LINKEDIN_KNOBS, LINKEDIN_NUMERIC_KNOBS, (ref) =>
    state.accountsOf(ref),
  );
  const state = createLinkedInState(ctx, kit);
  const posts = createLinkedInPosts(ctx.store);
  const withLock = createKeyedLock();
  scope.addHook('preHandler', async (request) => {
    const path = request.url.slice(ctx.mountPath.length).split('?')[0] ?? '';
    if (path.startsWith('/_emu/')) return;
    // Uploaded bytes are logged by size only.
    const body = Buffer.isBuffer(request.body)
      ? { bytes: request.body.length }
      : request.body && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)
        : null;
    const owners = await Promise.all(credentialsOf(request).map(state.accountsOfCredential));
    await kit.recordCall({
      accounts: [...new Set(owners.flat())],
      method: request.method,
      path,
      query: { ...(request.query as Record<string, unknown>) },
      body,
    });
  });
  // After the call is recorded: LinkedIn's refusal of a version it no longer serves, on the
  // emulator's clock, so tests can move past a sunset.
  scope.addHook('preHandler', async (request, reply) => {
    const path = request.url.slice(ctx.mountPath.length).split('?')[0] ?? '';
    if (!path.startsWith('/rest/')) return;
    try {
      refuseUnservedVersion(request, new Date(await kit.now()));
    } catch (err) {
      if (err instanceof LinkedInFailure) return err.send(reply);
      throw err;
    }
  });
  registerLinkedInOAuth(scope, ctx, kit, state);
  registerLinkedInRest(scope, kit, state);
  registerLinkedInMediaRoutes(scope, { ctx, kit, state, posts, withLock });
  registerLinkedInPostRoutes(scope, { kit, state, posts, withLock });
  const comments = registerLinkedInCommentRoutes(scope, { kit, state, posts, withLock });
  registerLinkedInStatisticsRoutes(scope, { kit, state, posts });
  registerLinkedInNotificationRoutes(scope, { kit, state, posts, store: ctx.store });
  registerLinkedInEmuRoutes(scope, { state, posts, ...comments });
}
