import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { SessionService } from '../auth/session.service.js';
import type { UserRow } from '../modules/users/users.repository.js';
import { AppError } from './app-error.js';

/**
 * What a route needs from its caller. Every route declares one in `config.access`; a route that
 * does not is refused at start-up, so nothing is left open by forgetting.
 */
export type Access = 'public' | 'authenticated' | 'admin';

export interface AuthContext {
  user: UserRow;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const ACCESS_COOKIE = 'herald_at';

/** The signed-in caller; only valid on routes declared 'authenticated' or 'admin'. */
export function requireUser(request: FastifyRequest): AuthContext {
  if (!request.auth)
    throw new AppError('UNAUTHENTICATED', 'You are not signed in. Please sign in.');
  return request.auth;
}

export function registerAccessControl(
  app: FastifyInstance,
  sessions: SessionService,
  opts: { exemptPrefixes: string[] },
) {
  app.decorateRequest('auth', null);

  const authenticate: preHandlerHookHandler = async (request) => {
    const found = await sessions.authenticate(request.cookies[ACCESS_COOKIE]);
    if (!found)
      throw new AppError(
        'UNAUTHENTICATED',
        'You are not signed in, or your session has expired. Please sign in.',
      );
    request.auth = found;
  };
  const requireAdmin: preHandlerHookHandler = async (request) => {
    if (!request.auth?.user.isAdmin)
      throw new AppError('FORBIDDEN', 'This area is for platform operators only.');
  };

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      if (opts.exemptPrefixes.some((p) => route.url.startsWith(p))) return;
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access.`);
    }
    if (access === 'public') return;
    const handlers: preHandlerHookHandler[] = [authenticate];
    if (access === 'admin') handlers.push(requireAdmin);
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [...handlers, ...existing];
  });
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cookies ride along on cross-site requests; refusing state changes whose Origin is foreign
 * closes that door (CSRF). Requests without Origin (server-to-server, webhooks) pass.
 */
export function originCheck(allowedOrigins: string[]): onRequestHookHandler {
  const allowed = new Set(allowedOrigins);
  return async (request) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined || allowed.has(origin)) return;
    throw new AppError('FORBIDDEN', 'This request came from another site and was refused.');
  };
}
