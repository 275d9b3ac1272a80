import { PlatformError } from '../errors.js';
import type {
  ConnectableAccount,
  PlatformAdapter,
  PushedSignIn,
  RefreshedTokens,
  StoredAccount,
  TokenSet,
  WritePoints,
} from '../types.js';
import { type BlueskyApi, identifierOf, pdsOf, type Session } from './api.js';
import {
  type AuthServer,
  type BlueskyOAuth,
  type EcKey,
  ecKeyFrom,
  type OAuthTokens,
} from './oauth.js';
import { createBlueskyPublishing } from './publishing.js';
import { readVideoLimits } from './video-limits.js';

/** When a session JWT expires (its `exp`), or null when it does not say. */
export function jwtExpiry(jwt: string): Date | null {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null;
  } catch {
    return null;
  }
}

/** The scope a session JWT carries (`com.atproto.appPass`, `…appPassPrivileged`), if any. */
function jwtScope(jwt: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload.scope === 'string' ? payload.scope : null;
  } catch {
    return null;
  }
}

export const tokensOf = (session: Session): TokenSet => ({
  accessToken: session.accessJwt,
  accessTokenExpiresAt: jwtExpiry(session.accessJwt),
  refreshToken: session.refreshJwt,
  refreshTokenExpiresAt: jwtExpiry(session.refreshJwt),
  scopes: [jwtScope(session.accessJwt)].filter((s): s is string => Boolean(s)),
});

const NO_OAUTH =
  'Bluesky accounts connect with a handle and an app password here, in Settings → Connected accounts: signing in on Bluesky needs Herald to have a public https address.';

/** An OAuth session's tokens: the access token's life as the server said it, the refresh token's unknown. */
const oauthTokensOf = (tokens: OAuthTokens): TokenSet => ({
  accessToken: tokens.access_token,
  accessTokenExpiresAt: tokens.expires_in
    ? new Date(Date.now() + tokens.expires_in * 1000)
    : jwtExpiry(tokens.access_token),
  refreshToken: tokens.refresh_token ?? null,
  refreshTokenExpiresAt: null,
  scopes: (tokens.scope ?? '').split(' ').filter(Boolean),
});

/** The DPoP key of a sign-in, made from its seed (the same at the start and at the callback). */
const dpopKeyOf = (seed: string): EcKey => ecKeyFrom(Buffer.from(seed, 'base64url'));

/** An OAuth account's DPoP key, kept encrypted in `secrets.dpopKey`; null for app-password sessions. */
function storedDpopKey(account: Pick<StoredAccount, 'secrets'>): EcKey | null {
  const packed = account.secrets.dpopKey;
  return packed ? (JSON.parse(packed) as EcKey) : null;
}

/** The authorization server an OAuth account signed in with, kept in `extra.issuer`. */
function issuerOf(account: Pick<StoredAccount, 'extra'>): string {
  const issuer = account.extra.issuer;
  if (typeof issuer !== 'string' || !issuer)
    throw new PlatformError(
      'reauth',
      'Herald does not know which server signed this Bluesky account in. Reconnect it in Settings.',
    );
  return issuer;
}

/**
 * Bluesky (docs/networks.md#bluesky-connect): the person gives their handle (or DID) and an app
 * password; Herald finds the account's DID and its PDS from its DID document (never assuming
 * bsky.social), signs in there once (`createSession`) and keeps the session's access and refresh
 * tokens. The session is renewed with `refreshSession`, never by signing in again: Bluesky allows
 * few sign-ins a day. The app password itself is not kept.
 *
 * Where Herald is an OAuth client (`oauth`: it has a public https address), the person may sign
 * in on their own server instead (docs/networks.md#bluesky-oauth): the session's tokens are bound
 * to a DPoP key kept encrypted with them, and renewed at the authorization server.
 */
export function createBlueskyAdapter(
  api: BlueskyApi,
  fetchPage: (url: string) => Promise<Response>,
  writePoints?: WritePoints,
  oauth: BlueskyOAuth | null = null,
): PlatformAdapter {
  const requireOAuth = () => {
    if (!oauth) throw new PlatformError('bad_request', NO_OAUTH);
    return oauth;
  };

  /** The server the person typed (`https://bsky.social`): its own sign-in server, or the one it names. */
  async function authServerAt(typed: string): Promise<AuthServer> {
    let origin: string;
    try {
      const url = new URL(typed.trim());
      // A server may live under a path (an emulator's does); its query and fragment say nothing.
      origin = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      throw new PlatformError(
        'bad_request',
        `"${typed.trim().slice(0, 100)}" is not a server address. Type it as https://bsky.social, or type your handle.`,
      );
    }
    const flow = requireOAuth();
    return flow.authServerMetadata(origin).catch(() => flow.authServerOf(origin));
  }

  /**
   * The account a finished sign-in gave: its DID must be the one named at the start, and its own
   * DID document's PDS must name the server that signed it in (no server vouches for accounts it
   * does not hold).
   */
  async function signedInIdentity(tokens: OAuthTokens, pushed: PushedSignIn) {
    if (pushed.account && tokens.sub !== pushed.account)
      throw new PlatformError(
        'bad_request',
        `Bluesky signed in ${tokens.sub}, not ${pushed.account}, the account you named. Sign in with that account, or connect again.`,
      );
    const identity = await api.resolveIdentity(tokens.sub);
    const server = await requireOAuth().authServerOf(identity.pds);
    if (server.issuer !== pushed.issuer)
      throw new PlatformError(
        'bad_request',
        `The server that signed you in (${pushed.issuer}) is not the one your account ${tokens.sub} names (${server.issuer}). Connect again.`,
      );
    if (!(tokens.scope ?? '').split(' ').includes('atproto'))
      throw new PlatformError(
        'bad_request',
        'Bluesky did not grant Herald access to the account (the "atproto" scope). Connect again and allow access.',
      );
    return identity;
  }

  async function profileOf(pds: string, did: string) {
    try {
      const { value } = await api.getRecord<{
        displayName?: string;
        avatar?: { ref?: { $link?: string } };
      }>(pds, did, 'app.bsky.actor.profile', 'self');
      const cid = value.avatar?.ref?.$link;
      return {
        name: value.displayName?.trim() || null,
        pictureUrl: cid
          ? `${pds}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(did)}&cid=${encodeURIComponent(cid)}`
          : null,
      };
    } catch {
      // No profile record yet: the handle stands for the name.
      return { name: null, pictureUrl: null };
    }
  }

  return {
    name: 'Bluesky',
    publishing: createBlueskyPublishing(api, fetchPage, { writePoints }),
    videoLimits: (account) => readVideoLimits(api, account),

    // No sign-in page for apps: where a person creates the app password they give Herald.
    authorizeUrl() {
      return `${api.urls.web.replace(/\/+$/, '')}/settings/app-passwords`;
    },

    async discoverSignIn(typed) {
      requireOAuth();
      if (/^https?:\/\//i.test(typed.trim())) {
        // A server rather than an account: the person says who they are on its sign-in page.
        return { issuer: (await authServerAt(typed)).issuer };
      }
      const identifier = identifierOf(typed);
      if (!identifier)
        throw new PlatformError(
          'bad_request',
          `"${typed.trim().slice(0, 100)}" is not a Bluesky handle, DID or server address. Type it as alice.bsky.social, or as https://bsky.social.`,
        );
      const identity = await api.resolveIdentity(identifier);
      const server = await requireOAuth().authServerOf(identity.pds);
      return { issuer: server.issuer, account: identity.did, loginHint: identifier };
    },

    async pushSignIn({ issuer, loginHint, state, codeChallenge, keySeed }) {
      const flow = requireOAuth();
      return flow.authorize({
        server: await flow.authServerMetadata(issuer),
        dpopKey: dpopKeyOf(keySeed),
        state,
        codeChallenge,
        ...(loginHint ? { loginHint } : {}),
      });
    },

    async connect({ code, codeVerifier, pushed }): Promise<ConnectableAccount[]> {
      const flow = requireOAuth();
      if (!pushed) throw new PlatformError('bad_request', NO_OAUTH);
      const dpopKey = dpopKeyOf(pushed.keySeed);
      const server = await flow.authServerMetadata(pushed.issuer);
      const tokens = await flow.exchange({ server, dpopKey, code, codeVerifier });
      const identity = await signedInIdentity(tokens, pushed).catch(async (err: unknown) => {
        // Herald keeps nothing of a sign-in it refuses: the session ends at the server too.
        await flow
          .revoke({ server, dpopKey, token: tokens.refresh_token ?? tokens.access_token })
          .catch(() => undefined);
        throw err;
      });
      const profile = await profileOf(identity.pds, identity.did);
      const handle = identity.handle ?? identity.did;
      const set = oauthTokensOf(tokens);
      return [
        {
          externalId: identity.did,
          username: handle,
          name: profile.name ?? handle,
          pictureUrl: profile.pictureUrl,
          tokens: set,
          secrets: { dpopKey: JSON.stringify(dpopKey) },
          extra: {
            did: identity.did,
            handle,
            pds: identity.pds,
            issuer: server.issuer,
            // Chat answers to sessions granted its transition scope, as to privileged app passwords.
            dmAccess: set.scopes.includes('transition:chat.bsky'),
          },
        },
      ];
    },

    async connectWithPassword({ identifier: typed, password }): Promise<ConnectableAccount[]> {
      const identifier = identifierOf(typed);
      if (!identifier)
        throw new PlatformError(
          'bad_request',
          `"${typed.trim().slice(0, 100)}" is not a Bluesky handle. Type it as alice.bsky.social (or your own domain).`,
        );
      const identity = await api.resolveIdentity(identifier);
      const session = await api.createSession(identity.pds, identity.did, password.trim());
      if (session.did !== identity.did)
        throw new PlatformError(
          'bad_request',
          `Bluesky signed in ${session.did}, not ${identity.did}. Check the handle and connect again.`,
        );
      if (session.active === false)
        throw new PlatformError(
          'bad_request',
          `This Bluesky account is ${session.status ?? 'not active'}: it cannot post now.`,
        );
      const profile = await profileOf(identity.pds, session.did);
      const tokens = tokensOf(session);
      return [
        {
          externalId: session.did,
          username: session.handle,
          name: profile.name ?? session.handle,
          pictureUrl: profile.pictureUrl,
          tokens,
          // An earlier OAuth session's key and server are not this session's: cleared.
          secrets: { dpopKey: '' },
          extra: {
            did: session.did,
            handle: session.handle,
            pds: identity.pds,
            issuer: null,
            // Direct messages answer only to app passwords made with access to them.
            dmAccess: tokens.scopes.includes('com.atproto.appPassPrivileged'),
          },
        },
      ];
    },

    async refresh(account): Promise<RefreshedTokens> {
      const dpopKey = storedDpopKey(account);
      if (dpopKey) {
        const refreshToken = account.tokens.refreshToken;
        if (!refreshToken)
          throw new PlatformError(
            'reauth',
            'Herald has no Bluesky session to renew for this account. Sign in to Bluesky again.',
          );
        if (!oauth)
          throw new PlatformError(
            'reauth',
            'This Bluesky account signed in on Bluesky, and Herald can renew such sessions only with a public https address. Reconnect it with an app password.',
          );
        const server = await oauth.authServerMetadata(issuerOf(account));
        // Single use: the server answers a new refresh token, stored by the caller in the same
        // locked update (integrations.service refreshAccount), so no one spends this one twice.
        const tokens = await oauth.refresh({ server, dpopKey, refreshToken });
        if (tokens.sub !== account.externalId)
          throw new PlatformError(
            'reauth',
            `Bluesky renewed the session of ${tokens.sub}, not of ${account.externalId}. Reconnect the account.`,
          );
        return oauthTokensOf(tokens);
      }
      const refreshJwt = account.tokens.refreshToken;
      if (!refreshJwt)
        throw new PlatformError(
          'reauth',
          'Herald has no Bluesky session to renew for this account. Reconnect it with an app password.',
        );
      const session = await api.refreshSession(pdsOf(account), refreshJwt);
      return tokensOf(session);
    },

    async revoke(account) {
      const dpopKey = storedDpopKey(account);
      if (dpopKey) {
        const flow = requireOAuth();
        const server = await flow.authServerMetadata(issuerOf(account));
        // Revoking the refresh token ends the whole session, its access tokens with it.
        await flow.revoke({
          server,
          dpopKey,
          token: account.tokens.refreshToken ?? account.tokens.accessToken,
        });
        return;
      }
      if (account.tokens.refreshToken)
        await api.deleteSession(pdsOf(account), account.tokens.refreshToken).catch(() => undefined);
    },
  };
}
