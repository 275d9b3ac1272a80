import { PlatformError } from '../errors.js';
import { tokenSetFromOAuth } from '../oauth.js';
import type { AdapterSettings, PlatformAdapter } from '../types.js';
import { createMastodonApi, instanceOf, type MastodonUrls, serverOf } from './api.js';
import { MASTODON_SCOPES, serverLimitsOf } from './limits.js';
import { createMastodonPublishing } from './publishing.js';

const SCOPE = MASTODON_SCOPES.join(' ');

/**
 * Mastodon and compatible servers (docs/networks.md#mastodon-oauth): the person names their
 * server; Herald registers its app there once (`POST /api/v1/apps`, kept by the caller), then
 * signs in with the authorization code and PKCE (S256). Tokens do not expire and there is no
 * refresh: a refused token means reconnecting. The server's limits (`/api/v2/instance`) are read
 * at every connect and kept on the account: its text limit for the shared rules, all of them for
 * the publishing checks.
 */
export function createMastodonAdapter(settings: AdapterSettings<MastodonUrls>): PlatformAdapter {
  const api = createMastodonApi(settings);

  return {
    name: 'Mastodon',
    publishing: createMastodonPublishing(api),
    serverOf,

    async registerServerApp(instance, redirectUri) {
      const app = await api.registerApp(instance, redirectUri, SCOPE);
      if (!app.client_id || !app.client_secret)
        throw new PlatformError(
          'bad_request',
          `${instance} did not register Herald as an app. Check that it is a Mastodon server.`,
        );
      return { clientId: app.client_id, clientSecret: app.client_secret };
    },

    authorizeUrl({ server, redirectUri, state, codeChallenge }) {
      // Without a server (the preflight reading the scopes Herald sends), the best-known one.
      const instance = server?.instance ?? 'mastodon.social';
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: server?.clientId ?? settings.clientId,
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${api.authorizeUrl(instance)}?${query.toString().replace(/\+/g, '%20')}`;
    },

    async connect(input) {
      const server = input.server;
      if (!server)
        throw new PlatformError('bad_request', 'Choose the Mastodon server to connect on.');
      const { instance } = server;
      const token = await api.exchangeCode(instance, {
        code: input.code,
        redirectUri: input.redirectUri,
        codeVerifier: input.codeVerifier,
        clientId: server.clientId,
        clientSecret: server.clientSecret,
        scope: SCOPE,
      });
      const tokens = tokenSetFromOAuth(token);
      const [me, about] = await Promise.all([
        api.me(instance, tokens.accessToken),
        api.instance(instance),
      ]);
      const limits = serverLimitsOf(about.configuration);
      return [
        {
          // Account ids are the server's own: the host keeps two servers' accounts apart.
          externalId: `${me.id}@${instance}`,
          username: `${me.username}@${instance}`,
          name: me.display_name || me.username,
          pictureUrl: me.avatar ?? null,
          tokens: { ...tokens, accessTokenExpiresAt: null, refreshToken: null },
          textLimit: limits.maxCharacters,
          extra: { instance, accountId: me.id, acct: me.acct, limits },
          // Revoking needs Herald's app on that server.
          secrets: { clientId: server.clientId, clientSecret: server.clientSecret },
        },
      ];
    },

    async revoke(account) {
      const { clientId, clientSecret } = account.secrets;
      if (!clientId || !clientSecret) return;
      await api.revoke(instanceOf(account), account.tokens.accessToken, clientId, clientSecret);
    },
  };
}
