import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { oauthSignIn, registerAuthorizeEndpoint } from '../kit/authorize.js';
import { createEmuClock, type EmuClock, registerClockRoutes } from '../kit/clock.js';
import { avatarDataUrl, bearerToken, isHeraldCallback, type Params } from '../kit/consent.js';
import { SandboxOAuth, type SandboxAccount } from '../kit/oauth-state.js';
import { pkceMatches, randomDigits, randomToken } from '../kit/secrets.js';
import { emuTenant, notYours, scopeEmuRoutes } from '../kit/tenant.js';
import { registerXBodyParsers } from '../x/body.js';
import {
  escapeHtml,
  IDEMPOTENCY_SECONDS,
  instanceDocument,
  SANDBOX_SERVERS,
  type SandboxServerName,
  serverStore,
  sniffMediaType,
  statusLength,
} from './servers.js';

const SCOPES = new Set([
  'read',
  'write',
  'push',
  'profile',
  'write:statuses',
  'write:media',
  'read:accounts',
  'read:statuses',
  'read:notifications',
]);

interface EmuStatus {
  id: string;
  accountId: string;
  text: string;
  spoilerText: string;
  visibility: string;
  language: string | null;
  inReplyToId: string | null;
  /** The status this one quotes (Mastodon 4.5 quote posts). */
  quotedId?: string | null;
  mediaIds: string[];
  createdAt: number;
  favourites: number;
  /** The accounts of this server that favourited it (a favourite counts once per account). */
  favouritedBy?: string[];
  reblogs: number;
}

interface EmuMedia {
  id: string;
  type: 'image' | 'video';
  description: string | null;
  /** Polls still answered 206 before the file is processed. */
  pollsLeft: number;
  size: number;
}

const mastodonError = (reply: FastifyReply, status: number, error: string) =>
  reply.code(status).send({ error });

/** One emulated server: its app registrations, accounts, statuses and media. */
function registerServer(scope: FastifyInstance, ctx: SandboxContext, host: SandboxServerName) {
  const store = serverStore(ctx.store, host);
  const oauth = new SandboxOAuth(store, () => randomDigits(18));
  const prefix = `/${host}`;
  const publicBase = `${ctx.publicBase}${prefix}`;
  const ownId = (id: string) => `${id}@${host}`;
  const limits = SANDBOX_SERVERS[host];

  // Herald keeps this server's accounts as `{id}@{host}`: the consent page's tenancy too.
  const serverCtx: SandboxContext = {
    ...ctx,
    signerOf: async (request) => {
      const signer = await ctx.signerOf(request);
      return {
        organizationIds: signer.organizationIds,
        owns: (ids) => signer.owns(ids.map(ownId)),
        connectedElsewhere: (ids) => signer.connectedElsewhere(ids.map(ownId)),
      };
    },
  };

  async function account(request: FastifyRequest, reply: FastifyReply) {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) {
      await mastodonError(reply, 401, 'The access token is invalid');
      return null;
    }
    return check.account;
  }

  const accountJson = (a: SandboxAccount) => ({
    id: a.id,
    username: a.username,
    acct: a.username,
    display_name: a.name,
    // As on the other sandboxes: a data: picture, which Herald does not keep.
    avatar: avatarDataUrl(a.name, 250),
    url: `${publicBase}/@${a.username}`,
    followers_count: 12,
    statuses_count: 0,
  });

  async function statusJson(s: EmuStatus, depth = 0): Promise<Record<string, unknown>> {
    const author = await oauth.findAccount(s.accountId);
    const all = await store.list<EmuStatus>('status');
    const replies = all.filter((r) => r.data.inReplyToId === s.id).length;
    const quotes = all.filter((r) => r.data.quotedId === s.id).length;
    const quoted = s.quotedId ? await store.get<EmuStatus>('status', s.quotedId) : null;
    const media = await Promise.all(s.mediaIds.map((id) => store.get<EmuMedia>('media', id)));
    return {
      id: s.id,
      url: `${publicBase}/@${author?.username ?? 'unknown'}/${s.id}`,
      uri: `${publicBase}/users/${author?.username ?? 'unknown'}/statuses/${s.id}`,
      content: `<p>${escapeHtml(s.text)}</p>`,
      created_at: new Date(s.createdAt).toISOString(),
      in_reply_to_id: s.inReplyToId,
      spoiler_text: s.spoilerText,
      sensitive: Boolean(s.spoilerText),
      visibility: s.visibility,
      language: s.language,
      account: author ? accountJson(author) : null,
      media_attachments: media
        .filter((m): m is EmuMedia => m !== null)
        .map((m) => ({ id: m.id, type: m.type, description: m.description })),
      replies_count: replies,
      reblogs_count: s.reblogs,
      favourites_count: s.favourites,
      quotes_count: quotes,
      // A quote carries the status it quotes one level deep, as the server renders it.
      quote: quoted
        ? {
            state: 'accepted',
            quoted_status: depth === 0 ? await statusJson(quoted, depth + 1) : null,
          }
        : null,
    };
  }

  scope.get(`${prefix}/api/v2/instance`, async () => instanceDocument(host));

  scope.post(`${prefix}/api/v1/apps`, async (request, reply) => {
    const f = (request.body ?? {}) as Params;
    if (!f.client_name || !f.redirect_uris)
      return mastodonError(reply, 422, "Validation failed: Application name can't be blank");
    const scopes = (f.scopes ?? 'read').split(/\s+/).filter(Boolean);
    if (scopes.some((s) => !SCOPES.has(s)))
      return mastodonError(reply, 422, 'Validation failed: Scopes are not valid');
    const app = {
      client_id: randomToken(16),
      client_secret: randomToken(24),
      redirect_uri: f.redirect_uris,
      scopes,
    };
    await store.put('app', app.client_id, app);
    return { id: randomDigits(6), name: f.client_name, ...app, redirect_uris: [f.redirect_uris] };
  });

  registerAuthorizeEndpoint(scope, serverCtx, oauthSignIn(oauth), {
    network: `Mastodon (${host})`,
    path: `${prefix}/oauth/authorize`,
    accountLabel: `Username on ${host}`,
    check: (p) => {
      if (!p.client_id || !isHeraldCallback(ctx, p.redirect_uri))
        return {
          ok: false,
          page: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
        };
      const scopes = (p.scope ?? 'read').split(/\s+/).filter(Boolean);
      const fail = (description: string) => ({
        ok: false as const,
        redirectUri: p.redirect_uri!,
        error: { error: 'invalid_scope', error_description: description, state: p.state },
      });
      if (p.response_type !== 'code') return fail('response_type must be code.');
      if (scopes.some((s) => !SCOPES.has(s)))
        return fail('The requested scope is invalid, unknown, or malformed.');
      if (p.code_challenge && p.code_challenge_method !== 'S256')
        return fail('code_challenge_method must be S256.');
      return {
        ok: true,
        request: {
          clientId: p.client_id,
          redirectUri: p.redirect_uri!,
          state: p.state,
          scopes,
          codeChallenge: p.code_challenge ?? null,
          codeChallengeMethod: p.code_challenge ? 'S256' : null,
        },
      };
    },
    hidden: (r) => ({
      client_id: r.clientId,
      redirect_uri: r.redirectUri,
      scope: r.scopes.join(' '),
      response_type: 'code',
      ...(r.state !== undefined ? { state: r.state } : {}),
      ...(r.codeChallenge
        ? { code_challenge: r.codeChallenge, code_challenge_method: 'S256' }
        : {}),
    }),
    denied: (r) => ({
      error: 'access_denied',
      error_description: 'The resource owner or authorization server denied the request.',
      state: r.state,
    }),
    approved: (code, r) => ({ code, state: r.state }),
  });

  scope.post(`${prefix}/oauth/token`, async (request, reply) => {
    const f = (request.body ?? {}) as Params;
    const app = f.client_id ? await store.get<{ client_secret: string }>('app', f.client_id) : null;
    if (!app || app.client_secret !== f.client_secret)
      return reply.code(401).send({
        error: 'invalid_client',
        error_description:
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
      });
    const grantError = (description: string) =>
      reply.code(400).send({ error: 'invalid_grant', error_description: description });
    if (f.grant_type !== 'authorization_code' || !f.code)
      return grantError('The provided authorization grant is invalid.');
    const redeemed = await oauth.redeemCode(f.code, 600);
    if (!redeemed.ok)
      return grantError(
        'The provided authorization grant is invalid, expired, revoked, or was issued to another client.',
      );
    const code = redeemed.code;
    if (code.clientId !== f.client_id || code.redirectUri !== f.redirect_uri)
      return grantError('The redirect uri included is not valid.');
    if (code.codeChallenge && !pkceMatches(code, f.code_verifier))
      return grantError('The code verifier is not valid.');
    // Mastodon tokens do not expire: a century stands for never.
    const issued = await oauth.issueGrant({
      accountId: code.accountId,
      clientId: code.clientId,
      scopes: code.scopes,
      accessTtl: 100 * 365 * 24 * 3600,
      refreshTtl: false,
    });
    return {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      scope: code.scopes.join(' '),
      created_at: Math.floor((await oauth.now()) / 1000),
    };
  });

  scope.post(`${prefix}/oauth/revoke`, async (request) => {
    const f = (request.body ?? {}) as Params;
    if (f.token) await oauth.revoke(f.token);
    return {};
  });

  scope.get(`${prefix}/api/v1/accounts/verify_credentials`, async (request, reply) => {
    const me = await account(request, reply);
    return me ? accountJson(me) : reply;
  });

  // The largest file a server takes, and room for the form around it.
  const withFiles = { bodyLimit: Math.max(limits.imageSizeLimit, limits.videoSizeLimit) + 65_536 };
  scope.post(`${prefix}/api/v2/media`, withFiles, async (request, reply) => {
    const me = await account(request, reply);
    if (!me) return reply;
    const f = (request.body ?? {}) as Record<string, string | Buffer | undefined>;
    const file = f.file;
    if (!Buffer.isBuffer(file))
      return mastodonError(reply, 422, "Validation failed: File can't be blank");
    const kind = file.length >= 12 ? sniffMediaType(file) : null;
    if (!kind)
      return mastodonError(
        reply,
        422,
        'Validation failed: File content type is invalid, File is invalid',
      );
    const isVideo = kind === 'video';
    const max = isVideo ? limits.videoSizeLimit : limits.imageSizeLimit;
    if (file.length > max)
      return mastodonError(
        reply,
        422,
        `Validation failed: File size must be less than ${Math.round(max / 1048576)} MB`,
      );
    const description = typeof f.description === 'string' ? f.description : null;
    if (description && description.length > 1500)
      return mastodonError(
        reply,
        422,
        'Validation failed: Description is too long (maximum is 1500 characters)',
      );
    const media: EmuMedia = {
      id: randomDigits(18),
      type: isVideo ? 'video' : 'image',
      description,
      // Every file is processed asynchronously here: the client must wait for it (202).
      pollsLeft: 1,
      size: file.length,
    };
    await store.put('media', media.id, media);
    return reply.code(202).send({ id: media.id, type: media.type, url: null, description });
  });

  scope.get<{ Params: { id: string } }>(`${prefix}/api/v1/media/:id`, async (request, reply) => {
    const me = await account(request, reply);
    if (!me) return reply;
    const media = await store.get<EmuMedia>('media', request.params.id);
    if (!media) return mastodonError(reply, 404, 'Record not found');
    if (media.pollsLeft > 0) {
      await store.put('media', media.id, { ...media, pollsLeft: media.pollsLeft - 1 });
      return reply.code(206).send({ id: media.id, type: media.type, url: null });
    }
    return {
      id: media.id,
      type: media.type,
      url: `${publicBase}/media/${media.id}`,
      description: media.description,
    };
  });

  scope.post(`${prefix}/api/v1/statuses`, async (request, reply) => {
    const me = await account(request, reply);
    if (!me) return reply;
    const key = request.headers['idempotency-key'];
    const now = await oauth.now();
    if (typeof key === 'string') {
      const seen = await store.get<{ statusId: string; at: number }>(
        'idempotency',
        `${me.id}:${key}`,
      );
      if (seen && now - seen.at < IDEMPOTENCY_SECONDS * 1000) {
        const existing = await store.get<EmuStatus>('status', seen.statusId);
        if (existing) return statusJson(existing);
      }
    }
    const b = (request.body ?? {}) as Record<string, unknown>;
    const text = typeof b.status === 'string' ? b.status : '';
    const spoilerText = typeof b.spoiler_text === 'string' ? b.spoiler_text : '';
    const mediaIds = Array.isArray(b.media_ids) ? b.media_ids.map(String) : [];
    if (!text.trim() && !mediaIds.length)
      return mastodonError(reply, 422, "Validation failed: Text can't be blank");
    if (statusLength(text) + [...spoilerText].length > limits.maxCharacters)
      return mastodonError(
        reply,
        422,
        `Validation failed: Text character limit of ${limits.maxCharacters} exceeded`,
      );
    if (mediaIds.length > limits.maxMedia)
      return mastodonError(reply, 422, `Cannot attach more than ${limits.maxMedia} files`);
    const attached: EmuMedia[] = [];
    for (const id of mediaIds) {
      const media = await store.get<EmuMedia>('media', id);
      if (!media)
        return mastodonError(reply, 422, 'Validation failed: Media attachments are invalid');
      attached.push(media);
      if (media.pollsLeft > 0)
        return mastodonError(
          reply,
          422,
          'Cannot attach files that have not finished processing. Try again in a moment!',
        );
    }
    if (attached.length > 1 && attached.some((m) => m.type === 'video'))
      return mastodonError(
        reply,
        422,
        'Cannot attach a video to a post that already contains images',
      );
    const inReplyToId = typeof b.in_reply_to_id === 'string' ? b.in_reply_to_id : null;
    if (inReplyToId && !(await store.get<EmuStatus>('status', inReplyToId)))
      return mastodonError(reply, 404, 'Record not found');
    const visibility = typeof b.visibility === 'string' ? b.visibility : 'public';
    const status: EmuStatus = {
      id: `${now}${randomDigits(4)}`,
      accountId: me.id,
      text,
      spoilerText,
      visibility,
      language: typeof b.language === 'string' ? b.language : null,
      inReplyToId,
      mediaIds,
      createdAt: now,
      favourites: 0,
      reblogs: 0,
    };
    await store.put('status', status.id, status);
    if (typeof key === 'string')
      await store.put('idempotency', `${me.id}:${key}`, { statusId: status.id, at: now });
    // A test's knob: the status is made, its answer lost on the way (a crash, a dropped line).
    if (await store.get('drop_answer', me.id)) {
      await store.delete('drop_answer', me.id);
      return reply.code(504).send('Gateway Timeout');
    }
    return statusJson(status);
  });

  scope.get<{ Params: { id: string } }>(`${prefix}/api/v1/statuses/:id`, async (request, reply) => {
    if (!(await account(request, reply))) return reply;
    const s = await store.get<EmuStatus>('status', request.params.id);
    return s ? statusJson(s) : mastodonError(reply, 404, 'Record not found');
  });

  /** Favouriting is idempotent on the server: a second favourite by one account changes nothing. */
  for (const action of ['favourite', 'unfavourite'] as const) {
    scope.post<{ Params: { id: string } }>(
      `${prefix}/api/v1/statuses/:id/${action}`,
      async (request, reply) => {
        const me = await account(request, reply);
        if (!me) return reply;
        const s = await store.get<EmuStatus>('status', request.params.id);
        if (!s) return mastodonError(reply, 404, 'Record not found');
        const by = new Set(s.favouritedBy ?? []);
        const had = by.has(me.id);
        if (action === 'favourite') by.add(me.id);
        else by.delete(me.id);
        const delta = (action === 'favourite' ? 1 : -1) * Number(had !== by.has(me.id));
        const next = { ...s, favouritedBy: [...by], favourites: s.favourites + delta };
        await store.put('status', s.id, next);
        return { ...(await statusJson(next)), favourited: by.has(me.id) };
      },
    );
  }

  scope.get<{ Params: { id: string } }>(
    `${prefix}/api/v1/statuses/:id/context`,
    async (request, reply) => {
      if (!(await account(request, reply))) return reply;
      const root = await store.get<EmuStatus>('status', request.params.id);
      if (!root) return mastodonError(reply, 404, 'Record not found');
      const all = (await store.list<EmuStatus>('status')).map((r) => r.data);
      const descendants: EmuStatus[] = [];
      const walk = (id: string) => {
        for (const s of all
          .filter((x) => x.inReplyToId === id)
          .sort((a, b) => a.createdAt - b.createdAt)) {
          descendants.push(s);
          walk(s.id);
        }
      };
      walk(root.id);
      return {
        ancestors: [],
        descendants: await Promise.all(descendants.map((s) => statusJson(s))),
      };
    },
  );

  scope.get<{ Params: { id: string }; Querystring: { limit?: string } }>(
    `${prefix}/api/v1/accounts/:id/statuses`,
    async (request, reply) => {
      if (!(await account(request, reply))) return reply;
      const limit = Math.min(Number(request.query.limit ?? 20) || 20, 40);
      const mine = (await store.list<EmuStatus>('status'))
        .map((r) => r.data)
        .filter((s) => s.accountId === request.params.id)
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, limit);
      return Promise.all(mine.map((s) => statusJson(s)));
    },
  );

  const mentionsOf = (s: EmuStatus, me: SandboxAccount) =>
    s.accountId !== me.id && s.text.includes(`@${me.username}`);

  /**
   * Mentions of the account and quotes of its statuses, newest first. `types[]` narrows them as
   * the server does; a type it does not know is no filter at all.
   */
  scope.get<{ Querystring: { since_id?: string; 'types[]'?: string | string[] } }>(
    `${prefix}/api/v1/notifications`,
    async (request, reply) => {
      const me = await account(request, reply);
      if (!me) return reply;
      const since = request.query.since_id ? BigInt(request.query.since_id) : null;
      const asked = [request.query['types[]'] ?? []].flat();
      const wanted = (type: string) => asked.length === 0 || asked.includes(type);
      const statuses = (await store.list<EmuStatus>('status')).map((r) => r.data);
      const mineIds = new Set(statuses.filter((s) => s.accountId === me.id).map((s) => s.id));
      const typeOf = (s: EmuStatus): 'quote' | 'mention' | null => {
        if (s.accountId === me.id) return null;
        if (s.quotedId && mineIds.has(s.quotedId)) return 'quote';
        return mentionsOf(s, me) ? 'mention' : null;
      };
      const found = statuses
        .map((s) => ({ s, type: typeOf(s) }))
        .filter(
          (n): n is { s: EmuStatus; type: 'quote' | 'mention' } =>
            n.type !== null && wanted(n.type) && (since === null || BigInt(n.s.id) > since),
        )
        .sort((a, b) => b.s.createdAt - a.s.createdAt)
        .slice(0, 40);
      return Promise.all(
        found.map(async ({ s, type }) => {
          const json = await statusJson(s);
          return {
            id: s.id,
            type,
            created_at: json.created_at,
            account: json.account,
            status: json,
          };
        }),
      );
    },
  );

  /** Direct statuses between the account and one other person form one conversation. */
  scope.get(`${prefix}/api/v1/conversations`, async (request, reply) => {
    const me = await account(request, reply);
    if (!me) return reply;
    const direct = (await store.list<EmuStatus>('status'))
      .map((r) => r.data)
      .filter((s) => s.visibility === 'direct' && (s.accountId === me.id || mentionsOf(s, me)))
      .sort((a, b) => b.createdAt - a.createdAt);
    const byOther = new Map<string, EmuStatus>();
    for (const s of direct) {
      // Herald's own direct status names the other person: `@name …`.
      const named = /^@([\w.]+)/.exec(s.text)?.[1];
      const other =
        s.accountId === me.id ? named && (await oauth.findAccount(named))?.id : s.accountId;
      if (other && !byOther.has(other)) byOther.set(other, s);
    }
    return Promise.all(
      [...byOther.entries()].map(async ([otherId, last]) => {
        const other = await oauth.findAccount(otherId);
        return {
          id: `conv-${otherId}`,
          unread: last.accountId !== me.id,
          accounts: other ? [accountJson(other)] : [],
          last_status: await statusJson(last),
        };
      }),
    );
  });

  // Test-facing controls, for the accounts of the caller's organization.
  const owned = async (request: FastifyRequest, username: unknown) => {
    const a = typeof username === 'string' ? await oauth.findAccount(username) : null;
    if (!a || !emuTenant(request).owns(ownId(a.id))) throw notYours('account');
    return a;
  };

  scope.post(`/_emu${prefix}/drop-next-answer`, async (request) => {
    const a = await owned(request, (request.body as Params | null)?.account);
    await store.put('drop_answer', a.id, { on: true });
    return { ok: true };
  });

  scope.get<{ Querystring: { account?: string } }>(`/_emu${prefix}/statuses`, async (request) => {
    const a = await owned(request, request.query.account);
    const mine = (await store.list<EmuStatus>('status'))
      .map((r) => r.data)
      .filter((s) => s.accountId === a.id)
      .sort((x, y) => x.createdAt - y.createdAt);
    return { statuses: mine };
  });

  async function friend() {
    let other = await oauth.findAccount('fediverse_friend');
    if (!other) {
      other = {
        id: randomDigits(18),
        username: 'fediverse_friend',
        name: 'Fediverse Friend',
        createdAt: await oauth.now(),
      };
      await store.put('account', other.username, other);
      await store.put('account_id', other.id, { username: other.username });
    }
    return other;
  }

  /** Someone else mentions the account, publicly or in a direct message (`direct: true`). */
  scope.post(`/_emu${prefix}/mention`, async (request) => {
    const b = (request.body ?? {}) as Params & { direct?: boolean };
    const a = await owned(request, b.account);
    const other = await friend();
    const now = await oauth.now();
    const status: EmuStatus = {
      id: `${now}${randomDigits(4)}`,
      accountId: other.id,
      text: `@${a.username} ${b.text ?? 'hello'}`,
      spoilerText: '',
      visibility: b.direct ? 'direct' : 'public',
      language: null,
      inReplyToId: null,
      mediaIds: [],
      createdAt: now,
      favourites: 0,
      reblogs: 0,
    };
    await store.put('status', status.id, status);
    return { id: status.id };
  });

  /** Someone else replies to one of the account's statuses (and favourites it). */
  scope.post(`/_emu${prefix}/reply`, async (request, reply) => {
    const b = (request.body ?? {}) as Params;
    const a = await owned(request, b.account);
    const target = b.statusId ? await store.get<EmuStatus>('status', b.statusId) : null;
    if (!target) return mastodonError(reply, 404, 'Record not found');
    const other = await friend();
    const now = await oauth.now();
    const status: EmuStatus = {
      id: `${now}${randomDigits(4)}`,
      accountId: other.id,
      text: b.text ?? `@${a.username} nice post`,
      spoilerText: '',
      visibility: 'public',
      language: null,
      inReplyToId: target.id,
      mediaIds: [],
      createdAt: now,
      favourites: 0,
      reblogs: 0,
    };
    await store.put('status', status.id, status);
    await store.put('status', target.id, {
      ...target,
      favourites: target.favourites + 2,
      reblogs: target.reblogs + 1,
    });
    return { id: status.id };
  });

  /** Someone else quotes one of the account's statuses with words of their own. */
  scope.post(`/_emu${prefix}/quote`, async (request, reply) => {
    const b = (request.body ?? {}) as Params;
    await owned(request, b.account);
    const target = b.statusId ? await store.get<EmuStatus>('status', b.statusId) : null;
    if (!target) return mastodonError(reply, 404, 'Record not found');
    const other = await friend();
    const now = await oauth.now();
    const status: EmuStatus = {
      id: `${now}${randomDigits(4)}`,
      accountId: other.id,
      text: b.text ?? 'worth reading',
      spoilerText: '',
      visibility: 'public',
      language: null,
      inReplyToId: null,
      quotedId: target.id,
      mediaIds: [],
      createdAt: now,
      favourites: 0,
      reblogs: 0,
    };
    await store.put('status', status.id, status);
    return { id: status.id };
  });
}

/**
 * The Mastodon emulator (docs/networks.md#mastodon-sandbox), mounted at `{api}/sandbox/mastodon`:
 * each emulated server at `/{host}` with its own instance document, app registrations, consent
 * page, accounts, statuses (Idempotency-Key kept an hour), media processed asynchronously (202,
 * then 206 until ready) and replies. `POST /_emu/clock {advance_seconds}` moves every server's
 * clock at once, as time passes for all of them (an operator's control).
 */
export function registerMastodonSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  registerXBodyParsers(scope);
  scopeEmuRoutes(scope, ctx.tenantOf);
  const hosts = Object.keys(SANDBOX_SERVERS) as SandboxServerName[];
  for (const host of hosts) registerServer(scope, ctx, host);
  // Each server keeps its clock in its own store, where its SandboxOAuth reads it.
  const clocks = hosts.map((host) => createEmuClock(serverStore(ctx.store, host)));
  const first = clocks[0]!;
  const all: EmuClock = {
    now: () => first.now(),
    offsetMs: () => first.offsetMs(),
    async advance(seconds) {
      let offset = 0;
      for (const clock of clocks) offset = await clock.advance(seconds);
      return offset;
    },
  };
  registerClockRoutes(scope, all, ctx.clockMoved);
}
