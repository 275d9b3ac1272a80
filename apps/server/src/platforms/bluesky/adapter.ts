import { PlatformError } from '../errors.js';
import type {
  ConnectableAccount,
  PlatformAdapter,
  RefreshedTokens,
  TokenSet,
  WritePoints,
} from '../types.js';
import { type BlueskyApi, identifierOf, pdsOf, type Session } from './api.js';
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
  'Bluesky accounts connect with a handle and an app password, in Settings → Connected accounts.';

/**
 * Bluesky (docs/networks.md#bluesky-connect): the person gives their handle (or DID) and an app
 * password; Herald finds the account's DID and its PDS from its DID document (never assuming
 * bsky.social), signs in there once (`createSession`) and keeps the session's access and refresh
 * tokens. The session is renewed with `refreshSession`, never by signing in again: Bluesky allows
 * few sign-ins a day. The app password itself is not kept.
 */
export function createBlueskyAdapter(
  api: BlueskyApi,
  fetchPage: (url: string) => Promise<Response>,
  writePoints?: WritePoints,
): PlatformAdapter {
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

    async connect() {
      throw new PlatformError('bad_request', NO_OAUTH);
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
          extra: {
            did: session.did,
            handle: session.handle,
            pds: identity.pds,
            // Direct messages answer only to app passwords made with access to them.
            dmAccess: tokens.scopes.includes('com.atproto.appPassPrivileged'),
          },
        },
      ];
    },

    async refresh(account): Promise<RefreshedTokens> {
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
      if (account.tokens.refreshToken)
        await api.deleteSession(pdsOf(account), account.tokens.refreshToken).catch(() => undefined);
    },
  };
}
