import {
  ORG_ROUTE_PERMISSIONS,
  PERMISSIONS,
  type OrgRoute,
  type RouteAccess,
} from '@herald/contract';
import type { MembershipContext } from '../modules/team/membership.js';
import type { UserRow } from '../modules/users/users.service.js';
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { SessionService } from '../identity/session.service.js';
import { AppError } from '../lib/app-error.js';
import { STATE_CHANGING } from './route-hooks.js';
import { JSON_TYPE } from './security-headers.js';

/**
 * What a route needs from its caller. Every route declares one in `config.access`; a route that
 * does not is refused at start-up, so nothing is left open by forgetting.
 */
/**
 * `optional`: public, but a signed-in caller is recognised (request.auth set when the session is
 * valid). `guest`: for someone without an account holding a link's token (a client approval
 * link): the token in the path (`:token`) is the only permission, so the session is never read
 * (request.auth stays null, whoever's browser it is) and the route is rate-limited per token and
 * per IP (http/rate-limits.ts). A guest route without `:token` in its path refuses to start.
 */
export type Access =
  'public' | 'optional' | 'guest' | 'authenticated' | 'admin' | 'api-key' | OrgAccess;

/**
 * `api-key`: answered to an API key alone (`Authorization: Bearer`), acting in the key's own
 * organization with the key's permissions (request.auth and request.member set as on an
 * organization route); no session cookie is ever read. The route checks each operation's
 * permission itself (the MCP endpoint, whose one URL carries many operations).
 */
export const isKeyRoute = (route: { config?: unknown }) =>
  (route.config as { access?: Access } | undefined)?.access === 'api-key';

/** Whether a route is answered to a link's token rather than to a session. */
export const isGuestRoute = (route: { config?: unknown }) =>
  (route.config as { access?: Access } | undefined)?.access === 'guest';

/**
 * An organization-scoped route: names its row of ORG_ROUTE_PERMISSIONS (the contract's table),
 * takes the organization from the `orgId` path parameter, and may let a member act on their own
 * membership (`selfParam`) without the permission — leaving an organization, say.
 */
export interface OrgAccess {
  org: OrgRoute;
  selfParam?: string;
}

export interface AuthContext {
  user: UserRow;
  /** The session's id; for an API key, the key's id. */
  sessionId: string;
  /**
   * Set when the request came with `Authorization: Bearer <API key>` (docs/api.md): `user` is
   * then the key's creator, acting through the key.
   */
  apiKey?: { id: string; name: string; prefix: string };
}

/**
 * Resolves an API key presented on a route of organization `orgId` (null: a route of no
 * organization, where the key's own applies) to who it acts as and a membership holding the
 * key's permissions (never more than its creator's); throws AppError (UNAUTHENTICATED for a
 * wrong, expired or revoked key, FORBIDDEN for another organization). The API keys module makes
 * it (`apiKeyAuthenticator`).
 */
export type ApiKeyCaller = (
  token: string,
  orgId: string | null,
) => Promise<{ auth: AuthContext; member: MembershipContext }>;

const BEARER = /^Bearer(?:[ \t]+(\S*))?[ \t]*$/i;

/**
 * The token of `Authorization: Bearer <token>` ('' when it is missing or malformed), null without
 * a Bearer header (other schemes are not Herald's and are ignored). A request carrying one is
 * answered to it alone: its cookies are never read.
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined || !/^Bearer\b/i.test(header)) return null;
  return BEARER.exec(header)?.[1] ?? '';
}

/** Whether a route is organization-scoped (the only routes an API key may call). */
export const isOrgRoute = (route: { config?: unknown }) =>
  typeof (route.config as { access?: Access } | undefined)?.access === 'object';

const PEOPLE_ONLY =
  'API keys cannot do this: handing over the organization, its plan, its billing or its keys takes a person signed in to Herald.';

const KEY_ROUTES_ONLY =
  'An API key works only on the routes of its organization (/api/organizations/{orgId}/…). Sign in to Herald for this one.';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** For browser navigations: where to send the person with the error sentence instead of JSON. */
    browserRedirect?: (message: string) => string;
    /**
     * A browser navigation (a GET, such as a network's connect callback) that changes what
     * members reach: the access caches are forgotten after it as after a POST.
     */
    changesAccess?: true;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    member: MembershipContext | null;
  }
}

export const ACCESS_COOKIE = 'herald_at';

/** Path segment of the network emulators' test-facing routes (sandbox/kit/admin.ts). */
const EMULATOR_CONTROL = '/_emu/';

/** The caller's membership; only valid on organization-scoped routes. */
export function requireMember(request: FastifyRequest): MembershipContext {
  if (!request.member)
    throw new AppError('FORBIDDEN', 'You are not a member of this organization.');
  return request.member;
}

const permissionLabel = (name: string) => PERMISSIONS.find((p) => p.name === name)?.label ?? name;

/** The signed-in caller; only valid on routes declared 'authenticated' or 'admin'. */
export function requireUser(request: FastifyRequest): AuthContext {
  if (!request.auth)
    throw new AppError('UNAUTHENTICATED', 'You are not signed in. Please sign in.');
  return request.auth;
}

/** The caller's ACTIVE membership of an organization, or null (given by the composition root). */
export type LoadMembership = (orgId: string, userId: string) => Promise<MembershipContext | null>;

export interface AccessControlOptions {
  sessions: SessionService;
  loadMembership: LoadMembership;
  /** Resolves API keys on organization routes (none: a bearer request is refused). */
  apiKeys?: ApiKeyCaller;
  /** Paths whose routes need not declare `config.access` (API docs, network emulators). */
  exemptPrefixes: string[];
  basePath: string;
}

export function registerAccessControl(
  app: FastifyInstance,
  { sessions, loadMembership, apiKeys, ...opts }: AccessControlOptions,
): Set<string> {
  /** Every organization-scoped route registered, as `METHOD path` keys of the contract's table. */
  const orgRoutes = new Set<string>();
  app.decorateRequest('auth', null);
  app.decorateRequest('member', null);

  /** The session of the access cookie, or UNAUTHENTICATED. */
  const signedIn = async (request: FastifyRequest) => {
    const found = await sessions.authenticate(request.cookies[ACCESS_COOKIE]);
    if (!found)
      throw new AppError(
        'UNAUTHENTICATED',
        'You are not signed in, or your session has expired. Please sign in.',
      );
    request.auth = found;
  };
  const authenticate: preValidationHookHandler = async (request) => {
    // 401: a key is no credential here (and the cookie beside it is not read), whatever it holds.
    if (bearerToken(request) !== null) throw new AppError('UNAUTHENTICATED', KEY_ROUTES_ONLY);
    await signedIn(request);
  };
  const authenticateIfPresent: preValidationHookHandler = async (request) => {
    // A bearer request is never answered to the browser's cookie: it counts as anonymous here.
    if (bearerToken(request) !== null) return;
    request.auth = await sessions.authenticate(request.cookies[ACCESS_COOKIE]);
  };
  /** On organization routes: the API key when one is presented, else the session. */
  const authenticateMember: preValidationHookHandler = async (request) => {
    const token = bearerToken(request);
    if (token === null) return signedIn(request);
    if (!token || !apiKeys)
      throw new AppError(
        'UNAUTHENTICATED',
        'The Authorization header must be "Bearer " followed by an API key.',
      );
    const orgId = orgIdOf(request);
    if (!orgId) throw new AppError('NOT_FOUND', 'This organization does not exist.');
    const found = await apiKeys(token, orgId);
    request.auth = found.auth;
    request.member = found.member;
  };
  /** On `api-key` routes: the key and nothing else. */
  const authenticateKey: preValidationHookHandler = async (request) => {
    const token = bearerToken(request);
    if (!token || !apiKeys)
      throw new AppError(
        'UNAUTHENTICATED',
        'This endpoint takes an API key only, as the header "Authorization: Bearer <key>" (Settings → API keys).',
      );
    const found = await apiKeys(token, null);
    request.auth = found.auth;
    request.member = found.member;
  };
  const requireAdmin: preValidationHookHandler = async (request) => {
    if (!request.auth?.user.isAdmin)
      throw new AppError('FORBIDDEN', 'This area is for platform operators only.');
  };

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      if (opts.exemptPrefixes.some((p) => route.url.startsWith(p))) {
        // The emulators' control routes (`…/sandbox/{slug}/_emu/…`) switch scenarios and read
        // call logs: a signed-in user only. Their network routes stay as open as the networks'.
        if (route.url.includes(EMULATOR_CONTROL))
          route.preValidation = [authenticate, ...[route.preValidation ?? []].flat()];
        return;
      }
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access.`);
    }
    if (access === 'public') return;
    if (access === 'guest') {
      if (!route.url.includes('/:token'))
        throw new Error(
          `Guest route ${String(route.method)} ${route.url} has no :token in its path.`,
        );
      return;
    }
    if (access === 'optional') {
      const existingOptional = route.preValidation ? [route.preValidation].flat() : [];
      route.preValidation = [authenticateIfPresent, ...existingOptional];
      return;
    }
    const handlers: preValidationHookHandler[] = [];
    if (access === 'api-key') {
      handlers.push(authenticateKey);
    } else if (typeof access === 'object') {
      for (const method of [route.method].flat().filter((m) => m !== 'HEAD'))
        orgRoutes.add(`${method} ${route.url.slice(opts.basePath.length)}`);
      handlers.push(authenticateMember, orgGuard(loadMembership, access));
    } else {
      handlers.push(authenticate);
      if (access === 'admin') handlers.push(requireAdmin);
    }
    // Before validation: a caller who may not call the route learns nothing from its schema.
    const existing = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [...handlers, ...existing];
  });
  return orgRoutes;
}

/**
 * Cookies ride along on cross-site requests; a state change is accepted only when it shows it is
 * not a cross-site form (CSRF): an allowed Origin; else, without Origin, a `Sec-Fetch-Site` of
 * same-origin or none; else a JSON body, which a plain cross-site form cannot send. Paths under
 * `serverToServer` (the local emulators of networks and the development identity provider,
 * which Herald's own back end calls with form bodies) are other services and skip the check.
 */
export function originCheck(
  allowedOrigins: string[],
  serverToServer: string[] = [],
): onRequestHookHandler {
  const allowed = new Set(allowedOrigins);
  const foreign = () =>
    new AppError('FORBIDDEN', 'This request came from another site and was refused.');
  const refusal = (request: FastifyRequest): AppError | null => {
    const origin = request.headers.origin;
    if (origin !== undefined) return allowed.has(origin) ? null : foreign();
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined) return site === 'same-origin' || site === 'none' ? null : foreign();
    const path = request.url.split('?')[0] ?? '';
    if (serverToServer.some((prefix) => path.startsWith(prefix))) return null;
    if (JSON_TYPE.test(request.headers['content-type'] ?? '')) return null;
    return new AppError(
      'FORBIDDEN',
      'A request that changes something needs an Origin header or a JSON body (Content-Type: application/json). This one had neither and was refused.',
    );
  };
  // A callback hook (a route's own, on routes that answer a state-changing method).
  return (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    // An API key is not ambient (a page of another site cannot make a browser send it), and a
    // request carrying one is answered to the key alone, its cookies unread (registerAccessControl):
    // on the routes keys may call, there is nothing for a forged request to borrow. Elsewhere a
    // bearer header is refused or ignored, so the check stays.
    if (bearerToken(request) && isOrgRoute(request.routeOptions)) return done();
    const refused = refusal(request);
    if (refused) return done(refused);
    done();
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization of an organization route: `:orgId`, or `?orgId=` on two navigations. */
function orgIdOf(request: FastifyRequest): string | null {
  const params = request.params as Record<string, string | undefined>;
  const orgId =
    params.orgId ?? (request.query as Record<string, string | undefined> | undefined)?.orgId;
  return orgId && UUID.test(orgId) ? orgId : null;
}

/** Loads the caller's ACTIVE membership of `:orgId` and checks the route's permission. */
function orgGuard(loadMembership: LoadMembership, access: OrgAccess): preValidationHookHandler {
  const { needs: needed, peopleOnly } = ORG_ROUTE_PERMISSIONS[access.org] as RouteAccess;
  return async (request) => {
    const params = request.params as Record<string, string | undefined>;
    const orgId = orgIdOf(request);
    if (!orgId || !request.auth)
      throw new AppError('NOT_FOUND', 'This organization does not exist.');
    // An API key's membership was made with it (its permissions, narrowed): no self-exception.
    if (request.auth.apiKey && request.member) {
      if (peopleOnly) throw new AppError('FORBIDDEN', PEOPLE_ONLY);
      if (needed === 'member' || request.member.permissions.includes(needed)) return;
      throw new AppError(
        'FORBIDDEN',
        `This API key does not allow this: it needs the "${permissionLabel(needed)}" permission (${needed}).`,
      );
    }
    const membership = await loadMembership(orgId, request.auth.user.id);
    if (!membership) throw new AppError('FORBIDDEN', 'You are not a member of this organization.');
    request.member = membership;
    if (needed === 'member' || membership.permissions.includes(needed)) return;
    if (access.selfParam && params[access.selfParam] === membership.id) return;
    throw new AppError(
      'FORBIDDEN',
      `Your role does not allow this: it needs the "${permissionLabel(needed)}" permission.`,
    );
  };
}
