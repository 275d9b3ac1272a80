import {
  AuthProviderResponseSchema,
  ErrorEnvelopeSchema,
  MeResponseSchema,
  MessageResponseSchema,
  SignInQuerySchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PendingSignIn, RelyingParty } from '../../identity/oidc-client.js';
import type { IssuedTokens, SessionService } from '../../identity/session.service.js';
import { ACCESS_TOKEN_TTL_MS } from '../../identity/session.service.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { ACCESS_COOKIE, requireUser, type LoadMembership } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { getCurrentMember, signInWithIdentity, toUserDto } from '../users/users.service.js';

const REFRESH_COOKIE = 'herald_rt';
const PENDING_COOKIE = 'herald_oidc';

const PendingSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  returnTo: z.string().optional(),
});

interface AuthRoutesDeps {
  config: Config;
  db: Db;
  sessions: SessionService;
  relyingParty: RelyingParty;
  /** The access check's (cached) membership loader; the database's when absent. */
  loadMembership?: LoadMembership;
}

const errors = { 401: ErrorEnvelopeSchema, 400: ErrorEnvelopeSchema, 503: ErrorEnvelopeSchema };

export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps) {
  const { config, db, sessions, relyingParty, loadMembership } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const authPath = `${config.apiBasePath}/auth`;
  const cookieBase = { httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies };

  function setSessionCookies(reply: FastifyReply, tokens: IssuedTokens) {
    reply.setCookie(ACCESS_COOKIE, tokens.accessToken, {
      ...cookieBase,
      path: '/',
      maxAge: ACCESS_TOKEN_TTL_MS / 1000,
    });
    reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
      ...cookieBase,
      path: authPath,
      expires: tokens.refreshExpiresAt,
    });
  }
  function clearSessionCookies(reply: FastifyReply) {
    reply.clearCookie(ACCESS_COOKIE, { ...cookieBase, path: '/' });
    reply.clearCookie(REFRESH_COOKIE, { ...cookieBase, path: authPath });
  }
  const loginWithError = (message: string) =>
    `${config.publicUrl}/login?error=${encodeURIComponent(message)}`;

  api.get(
    '/auth/provider',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: AuthProviderResponseSchema } },
    },
    async () => ({
      status: 'success' as const,
      data: { kind: config.identity.kind, label: config.identity.label },
    }),
  );

  api.get(
    '/auth/google',
    { config: { access: 'public' }, schema: { tags: ['auth'], querystring: SignInQuerySchema } },
    async (request, reply) => {
      let started: Awaited<ReturnType<RelyingParty['start']>>;
      try {
        started = await relyingParty.start(request.query.returnTo);
      } catch (err) {
        if (err instanceof AppError) return reply.redirect(loginWithError(err.message));
        throw err;
      }
      reply.setCookie(PENDING_COOKIE, JSON.stringify(started.pending), {
        ...cookieBase,
        path: authPath,
        maxAge: 10 * 60,
        signed: true,
      });
      return reply.redirect(started.url.href);
    },
  );

  api.get(
    '/auth/google/callback',
    { config: { access: 'public' }, schema: { tags: ['auth'] } },
    async (request, reply) => {
      // The pending cookie is single-use: a replayed callback finds nothing to check against.
      reply.clearCookie(PENDING_COOKIE, { ...cookieBase, path: authPath });
      const query = request.query as Record<string, string | undefined>;
      if (query.error) {
        // A fixed sentence: the provider's own text could be anyone's, since this URL is public.
        return reply.redirect(
          loginWithError(
            'Sign-in was cancelled or refused at the identity provider. Please try again.',
          ),
        );
      }
      const raw = request.cookies[PENDING_COOKIE];
      const unsigned = raw ? request.unsignCookie(raw) : null;
      let pending: PendingSignIn | null = null;
      if (unsigned?.valid && unsigned.value) {
        try {
          pending = PendingSchema.parse(JSON.parse(unsigned.value));
        } catch {
          pending = null;
        }
      }
      if (!pending) {
        return reply.redirect(
          loginWithError(
            'This sign-in link has expired or was already used. Please sign in again.',
          ),
        );
      }
      const callbackUrl = new URL(`${config.apiPublicUrl}/auth/google/callback`);
      callbackUrl.search = new URL(request.url, 'http://x').search;
      try {
        const identity = await relyingParty.finish(callbackUrl, pending);
        const user = await signInWithIdentity(db, identity, config.adminEmails);
        const tokens = await sessions.startSession(user.id, {
          userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
          ip: request.ip,
        });
        setSessionCookies(reply, tokens);
        const member = await getCurrentMember(db, user);
        // returnTo (a same-site path, checked by the contract) wins: e.g. back to an invitation link.
        let target = new URL(pending.returnTo ?? '/auth/login-success', config.publicUrl);
        if (target.origin !== config.publicUrl)
          target = new URL('/auth/login-success', config.publicUrl);
        if (member && !pending.returnTo) target.searchParams.set('orgId', member.organizationId);
        return reply.redirect(target.href);
      } catch (err) {
        if (err instanceof AppError) {
          request.log.warn({ code: err.code, details: err.details }, 'sign-in refused');
          return reply.redirect(loginWithError(err.message));
        }
        throw err;
      }
    },
  );

  api.get(
    '/auth/me',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], response: { 200: MeResponseSchema, ...errors } },
    },
    async (request) => {
      const { user } = requireUser(request);
      return {
        status: 'success' as const,
        data: {
          user: toUserDto(user),
          member: await getCurrentMember(db, user, loadMembership),
        },
      };
    },
  );

  api.post(
    '/auth/refreshToken',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: MessageResponseSchema, ...errors } },
    },
    async (request, reply) => {
      try {
        setSessionCookies(reply, await sessions.rotate(request.cookies[REFRESH_COOKIE]));
      } catch (err) {
        clearSessionCookies(reply);
        throw err;
      }
      return { status: 'success' as const, data: { message: 'Session refreshed.' } };
    },
  );

  api.post(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: MessageResponseSchema } },
    },
    async (request, reply) => {
      const current = await sessions.authenticate(request.cookies[ACCESS_COOKIE]);
      await sessions.revoke({
        sessionId: current?.sessionId,
        refreshToken: request.cookies[REFRESH_COOKIE],
      });
      clearSessionCookies(reply);
      return { status: 'success' as const, data: { message: 'You are signed out.' } };
    },
  );
}
