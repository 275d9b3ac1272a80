import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import * as repo from './dev-idp.repository.js';
import { renderSignInPage } from './dev-idp-page.js';
import { hijackWithHeaders } from '../lib/hijack.js';

export const DEV_CLIENT_ID = 'herald';

export interface DevIdpOptions {
  db: Db;
  /** Issuer URL, e.g. http://localhost:3000/api/oidc. */
  issuer: string;
  /** Path prefix the provider is mounted at (…/oidc) and where its interactions live. */
  mountPath: string;
  interactionPath: string;
  redirectUri: string;
  clientSecret: string;
  cookieKey: string;
  jwk: Record<string, unknown>;
  secureCookies: boolean;
}

const emailSchema = z.string().trim().toLowerCase().pipe(z.email());

function adapterFor(db: Db) {
  return class DbAdapter implements Adapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await repo.upsertPayload(db, this.model, id, payload as Record<string, unknown>, expiresAt);
    }
    find(id: string) {
      return repo.findPayload(db, this.model, id) as Promise<AdapterPayload | undefined>;
    }
    findByUid(uid: string) {
      return repo.findPayloadByUid(db, this.model, uid) as Promise<AdapterPayload | undefined>;
    }
    findByUserCode(code: string) {
      return repo.findPayloadByUserCode(db, this.model, code) as Promise<
        AdapterPayload | undefined
      >;
    }
    consume(id: string) {
      return repo.consumePayload(db, this.model, id);
    }
    destroy(id: string) {
      return repo.destroyPayload(db, this.model, id);
    }
    revokeByGrantId(grantId: string) {
      return repo.revokeByGrant(db, grantId);
    }
  };
}

/** The page for a sign-in attempt the provider no longer knows (expired, or already used). */
function sendExpiredAttempt(res: ServerResponse) {
  res.writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    renderSignInPage({
      action: '#',
      error: 'This sign-in attempt has expired. Go back to Herald and start again.',
    }),
  );
}

export async function createDevProvider(opts: DevIdpOptions): Promise<Provider> {
  // Loaded only when the development provider is used: a deployment with Google or another
  // issuer never loads it.
  const { default: OidcProvider } = await import('oidc-provider');
  const provider = new OidcProvider(opts.issuer, {
    adapter: adapterFor(opts.db),
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [opts.jwk as never] },
    cookies: {
      keys: [opts.cookieKey],
      long: { signed: true, secure: opts.secureCookies, sameSite: 'lax' },
      short: { signed: true, secure: opts.secureCookies, sameSite: 'lax' },
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${opts.interactionPath}/${interaction.uid}` },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    async findAccount(_ctx, id) {
      const account = await repo.findDevAccount(opts.db, id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.name ?? undefined,
        }),
      };
    },
    ttl: {
      Interaction: 15 * 60,
      Session: 24 * 60 * 60,
      Grant: 24 * 60 * 60,
      AuthorizationCode: 60,
      AccessToken: 10 * 60,
      IdToken: 10 * 60,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><main><h1>Sign-in error</h1><p>${String(out.error_description ?? out.error).replace(/[<>&]/g, '')}</p><p><a href="/login">Back to Herald</a></p></main></body></html>`;
    },
  });
  // Behind a TLS-terminating proxy the public scheme and host come from X-Forwarded-*.
  provider.proxy = true;
  return provider;
}

/** Auto-consents for Herald's own client: the development provider has a single, trusted client. */
async function grantConsent(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const interaction = await provider.interactionDetails(req, res);
  const accountId = interaction.session?.accountId;
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const grant = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : new provider.Grant({ accountId, clientId: interaction.params.client_id as string });
  if (!grant) throw new Error('The consent grant has disappeared.');
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

/** Mounts the provider and its sign-in page into the Fastify app. */
/**
 * The provider, made on first use and kept: `herald start` does not wait for oidc-provider
 * (hundreds of modules) before it is ready. A failed attempt is forgotten, so the next one tries
 * again.
 */
export function lazyDevProvider(opts: DevIdpOptions): () => Promise<Provider> {
  let made: Promise<Provider> | null = null;
  return () =>
    (made ??= createDevProvider(opts).catch((err: unknown) => {
      made = null;
      throw err;
    }));
}

/** Mounts the provider (from `lazyDevProvider`, made by the first request that needs it). */
export async function mountDevProvider(
  app: FastifyInstance,
  loadProvider: () => Promise<Provider>,
  opts: DevIdpOptions,
) {
  let callback: ReturnType<Provider['callback']> | null = null;

  await app.register(async (scope) => {
    // oidc-provider reads its own bodies: hand it the raw stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      callback ??= (await loadProvider()).callback();
      hijackWithHeaders(reply);
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      // oidc-provider finds its mount point from originalUrl, as under Express.
      raw.originalUrl = raw.url;
      // The rest must be a path: `/api/oidc?x` is the provider's `/?x`, not `?x` (its router fails).
      const rest = raw.url!.slice(opts.mountPath.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      callback(raw, reply.raw);
    };
    scope.all(opts.mountPath, { config: { access: 'public' } }, handler);
    scope.all(`${opts.mountPath}/*`, { config: { access: 'public' } }, handler);
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    scope.get<{ Params: { uid: string } }>(
      `${opts.interactionPath}/:uid`,
      { config: { access: 'public' } },
      async (request, reply) => {
        const provider = await loadProvider();
        const res = hijackWithHeaders(reply);
        try {
          const interaction = await provider.interactionDetails(request.raw, res);
          if (interaction.prompt.name === 'consent') {
            await grantConsent(provider, request.raw, res);
            return;
          }
          res.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          res.end(renderSignInPage({ action: `${opts.interactionPath}/${interaction.uid}/login` }));
        } catch {
          sendExpiredAttempt(res);
        }
      },
    );

    scope.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
      `${opts.interactionPath}/:uid/login`,
      { config: { access: 'public' } },
      async (request, reply) => {
        const provider = await loadProvider();
        const res = hijackWithHeaders(reply);
        const body = request.body ?? {};
        const action = `${opts.interactionPath}/${request.params.uid}/login`;
        const name = (body.name ?? '').trim().slice(0, 200);
        const email = emailSchema.safeParse(body.email ?? '');
        if (!email.success) {
          res.writeHead(400, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          res.end(
            renderSignInPage({
              action,
              email: body.email ?? '',
              name,
              error: 'Enter a valid email address, such as name@example.com.',
            }),
          );
          return;
        }
        try {
          await provider.interactionDetails(request.raw, res);
          await repo.upsertDevAccount(opts.db, email.data, name || null);
          await provider.interactionFinished(
            request.raw,
            res,
            { login: { accountId: email.data } },
            { mergeWithLastSubmission: false },
          );
        } catch {
          sendExpiredAttempt(res);
        }
      },
    );
  });
}
