import { createHash } from 'node:crypto';
import { PlatformError } from '../errors.js';
import { form, requestJson } from '../oauth.js';
import type { AdapterSettings, PlatformHttp, StoredAccount } from '../types.js';
import { describeMastodonError } from './errors.js';
import type { MastodonInstanceConfiguration } from './limits.js';

/**
 * Where Mastodon servers live: `serverBase` holds `{instance}`, replaced by a server's host
 * (`https://{instance}` for real servers, `{sandbox}/{instance}` for the emulated ones).
 */
export interface MastodonUrls {
  serverBase: string;
}

export interface MastodonAccount {
  id: string;
  username: string;
  acct: string;
  display_name?: string;
  avatar?: string;
  url?: string;
  followers_count?: number;
  statuses_count?: number;
}

export interface MastodonMedia {
  id: string;
  type: string;
  url: string | null;
  description?: string | null;
}

export interface MastodonStatus {
  id: string;
  url?: string | null;
  uri?: string;
  content: string;
  created_at: string;
  in_reply_to_id?: string | null;
  account: MastodonAccount;
  replies_count?: number;
  reblogs_count?: number;
  favourites_count?: number;
  /** Mastodon 4.5 and later; older servers leave it out. */
  quotes_count?: number;
  /** The status this one quotes (4.5 and later), when its author allowed the quote. */
  quote?: { state: string; quoted_status?: MastodonStatus | null } | null;
  visibility?: string;
  spoiler_text?: string;
  media_attachments?: Array<{ id: string }>;
}

const HOST =
  /^(?=.{4,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+(?::\d{1,5})?$/;

/**
 * The server's host from what a person typed for it: a host (`mastodon.social`), an address
 * (`https://mastodon.social/about`), or their handle (`@me@mastodon.social`). Null when none of
 * these names a server.
 */
export function serverOf(typed: string): string | null {
  let value = typed.trim().toLowerCase();
  const handle = /^@?[^@\s/]+@([^@\s/]+)$/.exec(value);
  if (handle) value = handle[1]!;
  value = value.replace(/^https?:\/\//, '').split(/[/?#]/)[0]!;
  return HOST.test(value) ? value : null;
}

/** The server an account is on, as stored at connect. */
export function instanceOf(account: Pick<StoredAccount, 'extra'>): string {
  const instance = account.extra.instance;
  if (typeof instance !== 'string' || !instance)
    throw new PlatformError(
      'reauth',
      'Herald does not know which Mastodon server this account is on. Reconnect it in Settings.',
    );
  return instance;
}

/**
 * Keeps to a server's rate limit before it refuses: once an answer says no request is left
 * (`X-RateLimit-Remaining: 0`), the account's next requests to that server wait for
 * `X-RateLimit-Reset` (a `rate_limited` error, retried then) instead of drawing a 429.
 */
export function respectRateLimits(http: PlatformHttp, now = () => Date.now()): PlatformHttp {
  const exhausted = new Map<string, number>();
  return async (url, init) => {
    const auth = new Headers(init?.headers).get('authorization') ?? '';
    const key = `${new URL(url).host} ${createHash('sha256').update(auth).digest('hex')}`;
    const until = exhausted.get(key);
    if (until !== undefined && until > now())
      throw new PlatformError(
        'rate_limited',
        'Mastodon allows this account no more requests right now. Herald will try again when the server allows it.',
        { status: 429, retryAfterSeconds: Math.ceil((until - now()) / 1000) },
      );
    exhausted.delete(key);
    const res = await http(url, init);
    const reset = Date.parse(res.headers.get('x-ratelimit-reset') ?? '');
    if (res.headers.get('x-ratelimit-remaining') === '0' && !Number.isNaN(reset))
      exhausted.set(key, reset);
    return res;
  };
}

export function createMastodonApi(settings: Pick<AdapterSettings<MastodonUrls>, 'urls' | 'http'>) {
  const http: PlatformHttp = respectRateLimits(settings.http);
  const base = (instance: string) => settings.urls.serverBase.replace('{instance}', instance);
  const call = <T>(instance: string, path: string, init: RequestInit = {}) =>
    requestJson<T>(http, 'Mastodon', `${base(instance)}${path}`, init, describeMastodonError);
  const bearer = (token: string, more: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...more,
  });

  return {
    base,
    authorizeUrl: (instance: string) => `${base(instance)}/oauth/authorize`,

    registerApp: (instance: string, redirectUri: string, scopes: string) =>
      call<{ client_id: string; client_secret: string }>(instance, '/api/v1/apps', {
        method: 'POST',
        body: form({ client_name: 'Herald', redirect_uris: redirectUri, scopes }),
      }),

    exchangeCode: (
      instance: string,
      input: {
        code: string;
        redirectUri: string;
        codeVerifier: string;
        clientId: string;
        clientSecret: string;
        scope: string;
      },
    ) =>
      call<Record<string, unknown>>(instance, '/oauth/token', {
        method: 'POST',
        body: form({
          grant_type: 'authorization_code',
          code: input.code,
          client_id: input.clientId,
          client_secret: input.clientSecret,
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
          scope: input.scope,
        }),
      }),

    revoke: (instance: string, token: string, clientId: string, clientSecret: string) =>
      call<unknown>(instance, '/oauth/revoke', {
        method: 'POST',
        body: form({ client_id: clientId, client_secret: clientSecret, token }),
      }),

    instance: (instance: string) =>
      call<{ configuration?: MastodonInstanceConfiguration }>(instance, '/api/v2/instance'),

    me: (instance: string, token: string) =>
      call<MastodonAccount>(instance, '/api/v1/accounts/verify_credentials', {
        headers: bearer(token),
      }),

    uploadMedia: (instance: string, token: string, body: FormData) =>
      call<MastodonMedia>(instance, '/api/v2/media', {
        method: 'POST',
        headers: bearer(token),
        body,
      }),

    media: (instance: string, token: string, id: string) =>
      call<MastodonMedia>(instance, `/api/v1/media/${encodeURIComponent(id)}`, {
        headers: bearer(token),
      }),

    postStatus: (
      instance: string,
      token: string,
      idempotencyKey: string,
      body: Record<string, unknown>,
    ) =>
      call<MastodonStatus>(instance, '/api/v1/statuses', {
        method: 'POST',
        headers: bearer(token, {
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        }),
        body: JSON.stringify(body),
      }),

    /** `favourite` and `unfavourite` are idempotent: repeating one changes nothing. */
    favourite: (instance: string, token: string, id: string, on: boolean) =>
      call<MastodonStatus>(
        instance,
        `/api/v1/statuses/${encodeURIComponent(id)}/${on ? 'favourite' : 'unfavourite'}`,
        { method: 'POST', headers: bearer(token) },
      ),

    status: (instance: string, token: string, id: string) =>
      call<MastodonStatus>(instance, `/api/v1/statuses/${encodeURIComponent(id)}`, {
        headers: bearer(token),
      }),

    context: (instance: string, token: string, id: string) =>
      call<{ ancestors: MastodonStatus[]; descendants: MastodonStatus[] }>(
        instance,
        `/api/v1/statuses/${encodeURIComponent(id)}/context`,
        { headers: bearer(token) },
      ),

    /** Mentions of the account and quotes of its statuses (a type older servers ignore). */
    mentionsAndQuotes: (instance: string, token: string, sinceId: string | null) =>
      call<MastodonNotification[]>(
        instance,
        `/api/v1/notifications?types[]=mention&types[]=quote&limit=40${sinceId ? `&since_id=${encodeURIComponent(sinceId)}` : ''}`,
        { headers: bearer(token) },
      ),

    conversations: (instance: string, token: string) =>
      call<MastodonConversation[]>(instance, '/api/v1/conversations?limit=40', {
        headers: bearer(token),
      }),

    accountStatuses: (instance: string, token: string, accountId: string, limit: number) =>
      call<MastodonStatus[]>(
        instance,
        `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=${limit}`,
        { headers: bearer(token) },
      ),
  };
}

export type MastodonApi = ReturnType<typeof createMastodonApi>;

export interface MastodonNotification {
  id: string;
  type: string;
  created_at: string;
  account: MastodonAccount;
  status?: MastodonStatus | null;
}

export interface MastodonConversation {
  id: string;
  accounts: MastodonAccount[];
  last_status: MastodonStatus | null;
}
