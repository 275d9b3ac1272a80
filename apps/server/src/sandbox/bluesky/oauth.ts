import { createHash, createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { authorizeParams, errorPage, redirectWith } from '../kit/consent.js';
import { escapeHtml } from '../kit/html.js';
import { hashOf, randomToken } from '../kit/secrets.js';

/**
 * The AT Protocol OAuth server of the Bluesky emulator (https://atproto.com/specs/oauth), as the
 * reference PDS's provider behaves: protected-resource and authorization-server metadata, PAR
 * only (with PKCE S256, a DPoP proof and the client's `private_key_jwt` assertion, checked against
 * the JWKS its client metadata document names), an authorize page, a token endpoint for codes and
 * single-use refresh tokens, and DPoP nonces (`use_dpop_nonce`). Access tokens are bound to the
 * DPoP key (`cnf.jkt`); the PDS accepts them with a proof for each request.
 */

interface ParRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  challenge: string;
  jkt: string;
  loginHint: string | null;
  exp: number;
}

interface OAuthCode {
  par: ParRequest;
  did: string;
  exp: number;
}

export interface OAuthGrant {
  did: string;
  jkt: string;
  clientId: string;
  scope: string;
  exp: number;
  revoked: boolean;
}

const ACCESS_SECONDS = 3600;
const REFRESH_SECONDS = 90 * 24 * 3600;

const b64json = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** A compact ES256 JWS's header and payload when its signature holds for `jwk`; null otherwise. */
function verifiedJwt(token: string, jwkOf: (header: Record<string, unknown>) => unknown) {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return null;
  try {
    const header = b64json(h);
    if (header.alg !== 'ES256') return null;
    const jwk = jwkOf(header) as JsonWebKey | null;
    if (!jwk) return null;
    const ok = verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
    return ok ? { header, payload: b64json(p), jwk } : null;
  } catch {
    return null;
  }
}

const thumbprint = (jwk: JsonWebKey) =>
  createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');

export function registerBlueskyOAuth(
  scope: FastifyInstance,
  ctx: SandboxContext,
  accounts: {
    /** The account a handle (or DID) names, signing it up on first use as the sandbox does. */
    byIdentifier(identifier: string): Promise<{ did: string; handle: string } | null>;
  },
) {
  const { store } = ctx;
  const issuer = ctx.publicBase;
  const publicUrl = (request: FastifyRequest) =>
    `${ctx.publicBase}${request.url.slice(ctx.mountPath.length).split('?')[0]}`;

  /** The server's current DPoP nonce: one per emulator, as a server that rotates rarely. */
  async function nonce() {
    const known = await store.get<{ value: string }>('oauth_nonce', 'current');
    if (known) return known.value;
    const value = randomToken(16);
    await store.put('oauth_nonce', 'current', { value });
    return value;
  }

  /**
   * The DPoP proof of a request: its key's thumbprint when it holds (signature, method, URL,
   * time, nonce, a proof used once, and `ath` for an access token); a refusal otherwise.
   */
  async function dpop(
    request: FastifyRequest,
    reply: FastifyReply,
    resource: { accessToken: string } | null,
  ): Promise<string | null> {
    const proof = String(request.headers.dpop ?? '');
    const current = await nonce();
    reply.header('DPoP-Nonce', current);
    const refuse = async (error: string, description: string) => {
      if (resource) {
        reply.header(
          'WWW-Authenticate',
          `DPoP error="${error}", error_description="${description}"`,
        );
        await reply.code(401).send({ error, message: description });
      } else await reply.code(400).send({ error, error_description: description });
      return null;
    };
    const checked = verifiedJwt(proof, (header) =>
      header.typ === 'dpop+jwt' && typeof header.jwk === 'object' ? header.jwk : null,
    );
    if (!checked) return refuse('invalid_dpop_proof', 'Invalid DPoP proof');
    const { payload, jwk } = checked;
    if (payload.htm !== request.method || payload.htu !== publicUrl(request))
      return refuse('invalid_dpop_proof', 'DPoP htm/htu mismatch');
    const iat = Number(payload.iat);
    if (!Number.isFinite(iat) || Math.abs(iat - Date.now() / 1000) > 300)
      return refuse('invalid_dpop_proof', 'DPoP proof is too old');
    if (payload.nonce !== current) return refuse('use_dpop_nonce', 'DPoP nonce mismatch');
    const jti = String(payload.jti ?? '');
    if (!jti || (await store.get('oauth_dpop_jti', jti)))
      return refuse('invalid_dpop_proof', 'DPoP proof replayed');
    await store.put('oauth_dpop_jti', jti, { at: Date.now() });
    if (resource) {
      const ath = createHash('sha256').update(resource.accessToken).digest('base64url');
      if (payload.ath !== ath) return refuse('invalid_dpop_proof', 'DPoP ath mismatch');
    }
    return thumbprint(jwk);
  }

  /** The client's metadata document, fetched from its client_id as the spec has it. */
  async function clientMetadata(clientId: string) {
    try {
      const res = await ctx.fetchClientDocument(clientId);
      if (!res.ok) return null;
      const doc = (await res.json()) as Record<string, unknown>;
      return doc.client_id === clientId ? doc : null;
    } catch {
      return null;
    }
  }

  /** `private_key_jwt`: the assertion signed by a key of the client's JWKS, for this issuer. */
  async function clientAuthenticated(body: Record<string, string>, doc: Record<string, unknown>) {
    if (body.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return false;
    const jwksUri = typeof doc.jwks_uri === 'string' ? doc.jwks_uri : null;
    const jwks = jwksUri
      ? ((await ctx
          .fetchClientDocument(jwksUri)
          .then((r) => (r.ok ? r.json() : null))
          .catch(() => null)) as { keys?: Array<JsonWebKey & { kid?: string }> } | null)
      : (doc.jwks as { keys?: Array<JsonWebKey & { kid?: string }> } | undefined);
    const checked = verifiedJwt(
      body.client_assertion ?? '',
      (header) => (jwks?.keys ?? []).find((k) => k.kid === header.kid) ?? null,
    );
    if (!checked) return false;
    const { payload } = checked;
    const jti = String(payload.jti ?? '');
    if (!jti || (await store.get('oauth_assertion_jti', jti))) return false;
    await store.put('oauth_assertion_jti', jti, { at: Date.now() });
    return (
      payload.iss === body.client_id &&
      payload.sub === body.client_id &&
      payload.aud === issuer &&
      Number(payload.exp) > Date.now() / 1000
    );
  }

  const oauthError = (reply: FastifyReply, status: number, error: string, description: string) =>
    reply.code(status).send({ error, error_description: description });

  scope.get('/.well-known/oauth-protected-resource', async () => ({
    resource: ctx.publicBase,
    authorization_servers: [issuer],
    scopes_supported: [],
    bearer_methods_supported: ['header'],
  }));

  scope.get('/.well-known/oauth-authorization-server', async () => ({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    require_pushed_authorization_requests: true,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256'],
    dpop_signing_alg_values_supported: ['ES256'],
    scopes_supported: ['atproto', 'transition:generic', 'transition:chat.bsky'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  }));

  scope.post('/oauth/par', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const jkt = await dpop(request, reply, null);
    if (!jkt) return reply;
    const doc = body.client_id ? await clientMetadata(body.client_id) : null;
    if (!doc) return oauthError(reply, 400, 'invalid_client', 'Unable to obtain client metadata');
    if (doc.dpop_bound_access_tokens !== true)
      return oauthError(
        reply,
        400,
        'invalid_client_metadata',
        '"dpop_bound_access_tokens" must be true',
      );
    if (!(await clientAuthenticated(body, doc)))
      return oauthError(reply, 400, 'invalid_client', 'Client authentication failed');
    const redirects = Array.isArray(doc.redirect_uris) ? (doc.redirect_uris as string[]) : [];
    if (!body.redirect_uri || !redirects.includes(body.redirect_uri))
      return oauthError(reply, 400, 'invalid_request', 'Invalid redirect_uri');
    if (body.response_type !== 'code')
      return oauthError(reply, 400, 'unsupported_response_type', 'Unsupported response_type');
    if (body.code_challenge_method !== 'S256' || !body.code_challenge)
      return oauthError(reply, 400, 'invalid_request', 'code_challenge_method must be S256');
    const scopes = (body.scope ?? '').split(' ');
    if (!scopes.includes('atproto'))
      return oauthError(reply, 400, 'invalid_scope', 'The "atproto" scope is required');
    const requestUri = `urn:ietf:params:oauth:request_uri:req-${randomToken(16)}`;
    await store.put('oauth_par', requestUri, {
      clientId: body.client_id!,
      redirectUri: body.redirect_uri,
      state: body.state ?? '',
      scope: body.scope ?? 'atproto',
      challenge: body.code_challenge,
      jkt,
      loginHint: body.login_hint ?? null,
      exp: Date.now() + 5 * 60_000,
    } satisfies ParRequest);
    return reply.code(201).send({ request_uri: requestUri, expires_in: 300 });
  });

  /** The sign-in page: the account to sign in as (the login hint, or typed), then Allow. */
  scope.get('/oauth/authorize', async (request, reply) => {
    const q = authorizeParams(request);
    const par = q.request_uri ? await store.get<ParRequest>('oauth_par', q.request_uri) : null;
    if (!par || par.exp < Date.now() || par.clientId !== q.client_id)
      return errorPage(
        reply,
        'Bluesky',
        'This sign-in request has expired. Go back and try again.',
      );
    const action = `${ctx.mountPath}/oauth/authorize`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in with Bluesky (sandbox)</title></head><body><main>` +
          `<h1>Sign in with Bluesky</h1><p>${escapeHtml(new URL(par.clientId).host)} asks to use your Bluesky account.</p>` +
          `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="request_uri" value="${escapeHtml(q.request_uri!)}">` +
          `<input type="hidden" name="client_id" value="${escapeHtml(par.clientId)}">` +
          `<label>Handle <input name="handle" value="${escapeHtml(par.loginHint ?? '')}"></label>` +
          `<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></form></main></body></html>`,
      );
  });

  scope.post('/oauth/authorize', async (request, reply) => {
    const q = authorizeParams(request);
    const par = q.request_uri ? await store.get<ParRequest>('oauth_par', q.request_uri) : null;
    if (!par || par.exp < Date.now() || par.clientId !== q.client_id)
      return errorPage(
        reply,
        'Bluesky',
        'This sign-in request has expired. Go back and try again.',
      );
    await store.delete('oauth_par', q.request_uri!);
    if (q.decision !== 'allow')
      return redirectWith(reply, par.redirectUri, {
        error: 'access_denied',
        error_description: 'Access denied',
        state: par.state,
        iss: issuer,
      });
    const account = await accounts.byIdentifier((q.handle ?? '').trim().replace(/^@/, ''));
    if (!account) return errorPage(reply, 'Bluesky', 'No such Bluesky account.');
    const code = `cod-${randomToken(24)}`;
    await store.put('oauth_code', hashOf(code), {
      par,
      did: account.did,
      exp: Date.now() + 60_000,
    } satisfies OAuthCode);
    return redirectWith(reply, par.redirectUri, { code, state: par.state, iss: issuer });
  });

  async function issueTokens(grant: Omit<OAuthGrant, 'exp' | 'revoked'>) {
    const accessToken = `at-${randomToken(24)}`;
    const refreshToken = `rt-${randomToken(24)}`;
    const now = Date.now();
    await store.put('oauth_access', hashOf(accessToken), {
      ...grant,
      exp: now + ACCESS_SECONDS * 1000,
      revoked: false,
    } satisfies OAuthGrant);
    await store.put('oauth_refresh', hashOf(refreshToken), {
      ...grant,
      exp: now + REFRESH_SECONDS * 1000,
      revoked: false,
    } satisfies OAuthGrant);
    return {
      access_token: accessToken,
      token_type: 'DPoP',
      expires_in: ACCESS_SECONDS,
      refresh_token: refreshToken,
      scope: grant.scope,
      sub: grant.did,
    };
  }

  scope.post('/oauth/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const jkt = await dpop(request, reply, null);
    if (!jkt) return reply;
    const doc = body.client_id ? await clientMetadata(body.client_id) : null;
    if (!doc || !(await clientAuthenticated(body, doc)))
      return oauthError(reply, 400, 'invalid_client', 'Client authentication failed');
    if (body.grant_type === 'authorization_code') {
      const key = hashOf(body.code ?? '');
      const code = await store.get<OAuthCode>('oauth_code', key);
      if (!code || code.exp < Date.now() || code.par.clientId !== body.client_id)
        return oauthError(reply, 400, 'invalid_grant', 'Invalid code');
      await store.delete('oauth_code', key);
      if (code.par.redirectUri !== body.redirect_uri)
        return oauthError(reply, 400, 'invalid_grant', 'Invalid redirect_uri');
      const challenge = createHash('sha256')
        .update(body.code_verifier ?? '')
        .digest('base64url');
      if (challenge !== code.par.challenge)
        return oauthError(reply, 400, 'invalid_grant', 'Invalid code_verifier');
      if (jkt !== code.par.jkt)
        return oauthError(reply, 400, 'invalid_dpop_key_binding', 'DPoP key mismatch');
      return issueTokens({
        did: code.did,
        jkt,
        clientId: code.par.clientId,
        scope: code.par.scope,
      });
    }
    if (body.grant_type === 'refresh_token') {
      const key = hashOf(body.refresh_token ?? '');
      const grant = await store.get<OAuthGrant>('oauth_refresh', key);
      if (!grant || grant.revoked || grant.exp < Date.now() || grant.clientId !== body.client_id)
        return oauthError(reply, 400, 'invalid_grant', 'Invalid refresh token');
      if (grant.jkt !== jkt)
        return oauthError(reply, 400, 'invalid_dpop_key_binding', 'DPoP key mismatch');
      // Refresh tokens are single-use: this one is spent.
      await store.put('oauth_refresh', key, { ...grant, revoked: true });
      return issueTokens({ did: grant.did, jkt, clientId: grant.clientId, scope: grant.scope });
    }
    return oauthError(reply, 400, 'unsupported_grant_type', 'Unsupported grant_type');
  });

  scope.post('/oauth/revoke', async (request) => {
    const body = (request.body ?? {}) as Record<string, string>;
    for (const kind of ['oauth_access', 'oauth_refresh'] as const) {
      const grant = await store.get<OAuthGrant>(kind, hashOf(body.token ?? ''));
      if (grant) await store.put(kind, hashOf(body.token ?? ''), { ...grant, revoked: true });
    }
    return {};
  });

  return {
    /**
     * The account an `Authorization: DPoP …` request stands for, with its proof checked; a
     * refusal in the PDS's words (and null) otherwise.
     */
    async resourceAccount(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers.authorization ?? '';
      const accessToken = header.slice('DPoP '.length).trim();
      const grant = await store.get<OAuthGrant>('oauth_access', hashOf(accessToken));
      if (!grant || grant.revoked) {
        await reply
          .code(400)
          .send({ error: 'InvalidToken', message: 'Token could not be verified' });
        return null;
      }
      if (grant.exp < Date.now()) {
        await reply.code(400).send({ error: 'ExpiredToken', message: 'Token has expired' });
        return null;
      }
      const jkt = await dpop(request, reply, { accessToken });
      if (!jkt) return null;
      if (jkt !== grant.jkt) {
        await reply.code(400).send({ error: 'InvalidToken', message: 'DPoP key mismatch' });
        return null;
      }
      return grant;
    },
  };
}
