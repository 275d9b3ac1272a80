import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { avatarDataUrl, bearerToken } from '../kit/consent.js';
import { readReceivedMedia } from '../kit/media-facts.js';
import { registerBlueskyOAuth } from './oauth.js';
import { hashOf, randomToken } from '../kit/secrets.js';
import { emuTenant, notYours, scopeEmuRoutes } from '../kit/tenant.js';
import {
  blobCid,
  didForHandle,
  freshTid,
  postRecordProblem,
  recordCid,
  sessionJwt,
  TID,
} from './records.js';

interface EmuAccount {
  did: string;
  handle: string;
  /** Set by the first sign-in: the app password this account answers to from then on. */
  password: string | null;
  /** Whether that app password reaches direct messages (`privileged`). */
  privileged: boolean;
  displayName: string;
  followers: number;
  createdAt: number;
}

interface EmuSession {
  /** The whole token's hash: a token altered anywhere is not this session's. */
  hash: string;
  did: string;
  kind: 'access' | 'refresh';
  exp: number;
  scope: string;
  revoked: boolean;
}

interface EmuRecord {
  uri: string;
  cid: string;
  did: string;
  collection: string;
  rkey: string;
  value: Record<string, unknown>;
  indexedAt: string;
  likes: number;
  reposts: number;
  quotes: number;
}

interface EmuNotification {
  recipient: string;
  uri: string;
  cid: string;
  author: string;
  reason: 'mention' | 'reply' | 'quote';
  reasonSubject?: string;
  record: Record<string, unknown>;
  indexedAt: string;
}

interface EmuConvo {
  id: string;
  members: string[];
}

interface EmuMessage {
  id: string;
  convoId: string;
  sender: string;
  text: string;
  sentAt: string;
}

interface EmuVideoJob {
  jobId: string;
  did: string;
  size: number;
  /** Polls still answered "processing" before the blob is handed back. */
  pollsLeft: number;
}

/** Session lifetimes of the reference PDS: access 2 hours, refresh 90 days. */
const ACCESS_SECONDS = 2 * 3600;
const REFRESH_SECONDS = 90 * 24 * 3600;
/** The size a PDS hosted by Bluesky takes in one blob. */
const BLOB_LIMIT = 52_428_800;
/** The sandbox's convention for an app password made with access to direct messages. */
const PRIVILEGED_PREFIX = 'priv-';
/** Who writes to sandbox accounts: replies, mentions and messages come from here. */
const FRIEND_HANDLE = 'friend.bsky.sandbox';

/**
 * The reference PDS's limits on an account's record writes (`repo-write-hour`, `repo-write-day`):
 * points per window, a created record costing 3 and a deleted one 1.
 */
const WRITE_WINDOWS = [
  { seconds: 3600, points: 5_000 },
  { seconds: 24 * 3600, points: 35_000 },
];
const WRITE_COST = { create: 3, delete: 1 } as const;

/**
 * The video service's limits: a video of up to 100 MB and three minutes, and a daily allowance
 * per account (25 videos and 10 GB a day, Bluesky's figures when video launched).
 */
const VIDEO_BYTES = 100_000_000;
const VIDEO_SECONDS = 180;
const DAILY_VIDEOS = 25;
const DAILY_VIDEO_BYTES = 10_000_000_000;

interface EmuVideoDay {
  videos: number;
  bytes: number;
}

interface EmuWrites {
  writes: Array<{ at: number; points: number }>;
}

const xrpcError = (reply: FastifyReply, status: number, error: string, message: string) =>
  reply.code(status).send({ error, message });

/** The id of a token the emulator issued (its `jti`), or '' for anything else. */
function jtiOf(token: string): string {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    return typeof claims.jti === 'string' ? claims.jti : '';
  } catch {
    return '';
  }
}

const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The Bluesky emulator (docs/networks.md#bluesky-sandbox), mounted at `{api}/sandbox/bluesky`: a
 * PDS (`/xrpc/com.atproto.*`, sessions from app passwords, records, blobs), a PLC directory
 * (`/plc/{did}`), the AppView's reads (`app.bsky.feed.*`, `actor.getProfile`, notifications), the
 * chat service (`chat.bsky.convo.*`, behind the `atproto-proxy` header) and the video service
 * (`/video/xrpc/app.bsky.video.*`), with the reference server's paths and `{error, message}`
 * refusals. Any handle signs in: its first sign-in sets the app password it answers to after.
 */
export function registerBlueskySandbox(scope: FastifyInstance, ctx: SandboxContext) {
  const { store } = ctx;
  scopeEmuRoutes(scope, ctx.tenantOf);
  // uploadBlob and uploadVideo send the file itself as the body.
  scope.addContentTypeParser(
    ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: VIDEO_BYTES + 1 },
    (_request, body, done) => done(null, body),
  );

  async function accountByHandle(handle: string): Promise<EmuAccount> {
    const known = await store.get<{ did: string }>('handle', handle);
    if (known) {
      const account = await store.get<EmuAccount>('account', known.did);
      if (account) return account;
    }
    const did = didForHandle(handle);
    const label = handle.split('.')[0] ?? handle;
    const account: EmuAccount = {
      did,
      handle,
      password: null,
      privileged: false,
      displayName: label.charAt(0).toUpperCase() + label.slice(1),
      followers: 42,
      createdAt: Date.now(),
    };
    await store.put('account', did, account);
    await store.put('handle', handle, { did });
    // The id Herald keeps for the account (its DID), as every emulator lists its accounts.
    await store.put('account_id', did, { handle });
    return account;
  }

  const accountByDid = (did: string) => store.get<EmuAccount>('account', did);

  async function issue(account: EmuAccount) {
    const now = Math.floor(Date.now() / 1000);
    const scope = account.privileged ? 'com.atproto.appPassPrivileged' : 'com.atproto.appPass';
    const make = async (kind: EmuSession['kind'], seconds: number) => {
      const jti = randomToken(12);
      const jwt = sessionJwt({
        sub: account.did,
        scope: kind === 'refresh' ? 'com.atproto.refresh' : scope,
        exp: now + seconds,
        jti,
      });
      await store.put('session', jti, {
        hash: hashOf(jwt),
        did: account.did,
        kind,
        exp: now + seconds,
        scope: kind === 'refresh' ? 'com.atproto.refresh' : scope,
        revoked: false,
      } satisfies EmuSession);
      return jwt;
    };
    return {
      did: account.did,
      handle: account.handle,
      accessJwt: await make('access', ACCESS_SECONDS),
      refreshJwt: await make('refresh', REFRESH_SECONDS),
      active: true,
    };
  }

  /** The session a bearer token stands for, or a refusal in the PDS's words. */
  async function session(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: EmuSession['kind'],
  ): Promise<{ jti: string; session: EmuSession; account: EmuAccount } | null> {
    // An OAuth access token, bound to the DPoP key whose proof comes with each request.
    if (kind === 'access' && request.headers.authorization?.startsWith('DPoP ')) {
      const grant = await oauth.resourceAccount(request, reply);
      const account = grant ? await accountByDid(grant.did) : null;
      if (!grant) return null;
      if (!account) {
        await xrpcError(reply, 400, 'InvalidToken', 'Token could not be verified');
        return null;
      }
      const scope = grant.scope.split(' ').includes('transition:chat.bsky')
        ? 'com.atproto.appPassPrivileged'
        : 'com.atproto.access';
      return {
        jti: '',
        account,
        session: { hash: '', did: grant.did, kind, exp: grant.exp / 1000, scope, revoked: false },
      };
    }
    const token = bearerToken(request);
    if (!token) {
      await xrpcError(reply, 401, 'AuthenticationRequired', 'Authentication Required');
      return null;
    }
    const jti = jtiOf(token);
    const found = jti ? await store.get<EmuSession>('session', jti) : null;
    if (!found || found.hash !== hashOf(token) || found.revoked || found.kind !== kind) {
      await xrpcError(reply, 400, 'InvalidToken', 'Token could not be verified');
      return null;
    }
    if (found.exp * 1000 <= Date.now()) {
      await xrpcError(reply, 400, 'ExpiredToken', 'Token has expired');
      return null;
    }
    const account = await accountByDid(found.did);
    if (!account) {
      await xrpcError(reply, 400, 'InvalidToken', 'Token could not be verified');
      return null;
    }
    return { jti, session: found, account };
  }

  const profileView = (a: EmuAccount) => ({
    did: a.did,
    handle: a.handle,
    displayName: a.displayName,
    // As on the other sandboxes: a data: picture, which Herald does not keep.
    avatar: avatarDataUrl(a.displayName, 210),
  });

  const recordId = (did: string, collection: string, rkey: string) =>
    `${did}/${collection}/${rkey}`;

  async function recordByUri(uri: string) {
    const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
    return m ? store.get<EmuRecord>('record', recordId(m[1]!, m[2]!, m[3]!)) : null;
  }

  async function postView(r: EmuRecord) {
    const author = await accountByDid(r.did);
    const replies = (await store.list<EmuRecord>('record')).filter(
      (x) =>
        (x.data.value.reply as { parent?: { uri?: string } } | undefined)?.parent?.uri === r.uri,
    ).length;
    return {
      uri: r.uri,
      cid: r.cid,
      author: author ? profileView(author) : { did: r.did, handle: 'handle.invalid' },
      record: r.value,
      replyCount: replies,
      repostCount: r.reposts,
      likeCount: r.likes,
      quoteCount: r.quotes,
      bookmarkCount: 0,
      indexedAt: r.indexedAt,
    };
  }

  async function putRecord(
    did: string,
    collection: string,
    rkey: string,
    value: Record<string, unknown>,
  ) {
    const uri = `at://${did}/${collection}/${rkey}`;
    const record: EmuRecord = {
      uri,
      cid: recordCid(value),
      did,
      collection,
      rkey,
      value,
      indexedAt: new Date().toISOString(),
      likes: 0,
      reposts: 0,
      quotes: 0,
    };
    await store.put('record', recordId(did, collection, rkey), record);
    return record;
  }

  /** Tells the accounts a new post concerns: the author of what it replies to, those it mentions. */
  async function notify(record: EmuRecord) {
    const told = new Set<string>();
    const tell = async (recipient: string, reason: EmuNotification['reason'], subject?: string) => {
      if (recipient === record.did || told.has(recipient)) return;
      told.add(recipient);
      await store.put('notification', `${recipient}/${record.uri}`, {
        recipient,
        uri: record.uri,
        cid: record.cid,
        author: record.did,
        reason,
        ...(subject ? { reasonSubject: subject } : {}),
        record: record.value,
        indexedAt: record.indexedAt,
      } satisfies EmuNotification);
    };
    // A reply that also mentions the author arrives once, as a mention.
    const facets = Array.isArray(record.value.facets) ? record.value.facets : [];
    for (const facet of facets as Array<{ features?: Array<{ $type?: string; did?: string }> }>)
      for (const f of facet.features ?? [])
        if (f.$type === 'app.bsky.richtext.facet#mention' && f.did) await tell(f.did, 'mention');
    const parent = (record.value.reply as { parent?: { uri?: string } } | undefined)?.parent?.uri;
    const parentRecord = parent ? await recordByUri(parent) : null;
    if (parentRecord) await tell(parentRecord.did, 'reply', parentRecord.uri);
  }

  // --- Identity: handle resolution and the PLC directory ---

  scope.get<{ Querystring: { handle?: string } }>(
    '/xrpc/com.atproto.identity.resolveHandle',
    async (request, reply) => {
      const handle = (request.query.handle ?? '').toLowerCase();
      if (!HANDLE.test(handle))
        return xrpcError(reply, 400, 'InvalidRequest', 'Error: handle must be a valid handle');
      return { did: (await accountByHandle(handle)).did };
    },
  );

  scope.get<{ Params: { did: string } }>('/plc/:did', async (request, reply) => {
    const account = await accountByDid(request.params.did);
    if (!account)
      return reply.code(404).send({ message: `DID not registered: ${request.params.did}` });
    return {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: account.did,
      alsoKnownAs: [`at://${account.handle}`],
      verificationMethod: [],
      service: [
        { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: ctx.publicBase },
      ],
    };
  });

  // --- PDS: sessions ---

  scope.post('/xrpc/com.atproto.server.createSession', async (request, reply) => {
    const body = (request.body ?? {}) as { identifier?: string; password?: string };
    const identifier = (body.identifier ?? '').trim().toLowerCase();
    const password = body.password ?? '';
    const account = identifier.startsWith('did:')
      ? await accountByDid(identifier)
      : HANDLE.test(identifier)
        ? await accountByHandle(identifier)
        : null;
    if (!account || !password)
      return xrpcError(reply, 401, 'AuthenticationRequired', 'Invalid identifier or password');
    if (account.password === null) {
      account.password = password;
      account.privileged = password.startsWith(PRIVILEGED_PREFIX);
      await store.put('account', account.did, account);
    } else if (account.password !== password) {
      return xrpcError(reply, 401, 'AuthenticationRequired', 'Invalid identifier or password');
    }
    return issue(account);
  });

  scope.post('/xrpc/com.atproto.server.refreshSession', async (request, reply) => {
    const found = await session(request, reply, 'refresh');
    if (!found) return reply;
    // A refresh token is used once: the new pair replaces it.
    await store.put('session', found.jti, { ...found.session, revoked: true });
    return issue(found.account);
  });

  scope.post('/xrpc/com.atproto.server.deleteSession', async (request, reply) => {
    const found = await session(request, reply, 'refresh');
    if (!found) return reply;
    await store.put('session', found.jti, { ...found.session, revoked: true });
    return reply.code(200).send();
  });

  scope.get<{ Querystring: { aud?: string; lxm?: string; exp?: string } }>(
    '/xrpc/com.atproto.server.getServiceAuth',
    async (request, reply) => {
      const found = await session(request, reply, 'access');
      if (!found) return reply;
      if (!request.query.aud)
        return xrpcError(
          reply,
          400,
          'InvalidRequest',
          'Error: Params must have the property "aud"',
        );
      const exp = Number(request.query.exp ?? 0);
      if (exp && exp * 1000 > Date.now() + 3600_000)
        return xrpcError(reply, 400, 'BadExpiration', 'expiration is too far in the future');
      const jti = randomToken(12);
      await store.put('service_token', jti, {
        did: found.account.did,
        lxm: request.query.lxm ?? null,
        exp: exp || Math.floor(Date.now() / 1000) + 60,
      });
      return {
        token: sessionJwt({ sub: found.account.did, scope: 'service', exp, jti }),
      };
    },
  );

  const oauth = registerBlueskyOAuth(scope, ctx, {
    byIdentifier: async (identifier) => {
      const value = identifier.toLowerCase();
      if (value.startsWith('did:')) return accountByDid(value);
      return HANDLE.test(value) ? accountByHandle(value) : null;
    },
  });

  // --- PDS: repository ---

  /**
   * Counts a write's points against the account's windows, as the PDS does before it looks at
   * the write; over a window, the answer is 429 `RateLimitExceeded` with the `ratelimit-*`
   * headers (`ratelimit-reset` in epoch seconds) and nothing is written.
   */
  async function chargeWrite(reply: FastifyReply, did: string, points: number) {
    const now = Date.now();
    const longest = Math.max(...WRITE_WINDOWS.map((w) => w.seconds)) * 1000;
    const spent = ((await store.get<EmuWrites>('write_points', did))?.writes ?? []).filter(
      (w) => w.at > now - longest,
    );
    for (const window of WRITE_WINDOWS) {
      const inside = spent.filter((w) => w.at > now - window.seconds * 1000);
      const used = inside.reduce((sum, w) => sum + w.points, 0);
      if (used + points <= window.points) continue;
      const reset = Math.ceil(((inside[0]?.at ?? now) + window.seconds * 1000) / 1000);
      reply
        .header('ratelimit-limit', String(window.points))
        .header('ratelimit-remaining', String(Math.max(0, window.points - used)))
        .header('ratelimit-reset', String(reset))
        .header('ratelimit-policy', `${window.points};w=${window.seconds}`);
      await xrpcError(reply, 429, 'RateLimitExceeded', 'Rate Limit Exceeded');
      return false;
    }
    spent.push({ at: now, points });
    await store.put('write_points', did, { writes: spent });
    return true;
  }

  scope.get<{ Querystring: { repo?: string; collection?: string; rkey?: string } }>(
    '/xrpc/com.atproto.repo.getRecord',
    async (request, reply) => {
      const { repo = '', collection = '', rkey = '' } = request.query;
      const found = await store.get<EmuRecord>('record', recordId(repo, collection, rkey));
      if (!found)
        return xrpcError(
          reply,
          400,
          'RecordNotFound',
          `Could not locate record: at://${repo}/${collection}/${rkey}`,
        );
      return { uri: found.uri, cid: found.cid, value: found.value };
    },
  );

  scope.post('/xrpc/com.atproto.repo.createRecord', async (request, reply) => {
    const found = await session(request, reply, 'access');
    if (!found) return reply;
    if (!(await chargeWrite(reply, found.account.did, WRITE_COST.create))) return reply;
    const body = (request.body ?? {}) as {
      repo?: string;
      collection?: string;
      rkey?: string;
      record?: Record<string, unknown>;
    };
    if (body.repo !== found.account.did && body.repo !== found.account.handle)
      return xrpcError(
        reply,
        400,
        'InvalidRequest',
        'Error: Input/repo must be the signed-in account',
      );
    if (body.collection !== 'app.bsky.feed.post')
      return xrpcError(reply, 400, 'InvalidRequest', `Unsupported collection: ${body.collection}`);
    const record = body.record ?? {};
    const problem = postRecordProblem(record);
    if (problem)
      return xrpcError(
        reply,
        400,
        'InvalidRequest',
        `Invalid app.bsky.feed.post record: ${problem}`,
      );
    const rkey = body.rkey ?? freshTid();
    if (!TID.test(rkey))
      return xrpcError(reply, 400, 'InvalidRequest', `Invalid record key: ${rkey}`);
    // The reference PDS fails on the repository's unique key, without a word of its own.
    if (await store.get('record', recordId(found.account.did, body.collection, rkey)))
      return xrpcError(reply, 500, 'InternalServerError', 'Internal Server Error');
    const written = await putRecord(found.account.did, body.collection, rkey, record);
    await notify(written);
    return { uri: written.uri, cid: written.cid, validationStatus: 'valid' };
  });

  scope.post('/xrpc/com.atproto.repo.deleteRecord', async (request, reply) => {
    const found = await session(request, reply, 'access');
    if (!found) return reply;
    if (!(await chargeWrite(reply, found.account.did, WRITE_COST.delete))) return reply;
    const body = (request.body ?? {}) as { repo?: string; collection?: string; rkey?: string };
    if (body.repo !== found.account.did)
      return xrpcError(
        reply,
        400,
        'InvalidRequest',
        'Error: Input/repo must be the signed-in account',
      );
    await store.delete('record', recordId(body.repo, body.collection ?? '', body.rkey ?? ''));
    return {};
  });

  scope.post('/xrpc/com.atproto.repo.uploadBlob', async (request, reply) => {
    const found = await session(request, reply, 'access');
    if (!found) return reply;
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (bytes.length > BLOB_LIMIT)
      return xrpcError(
        reply,
        400,
        'BlobTooLarge',
        'This file is too large. It is 52.43 MB but the maximum size is 50 MB.',
      );
    const mimeType = String(request.headers['content-type'] ?? 'application/octet-stream');
    return {
      blob: { $type: 'blob', ref: { $link: blobCid(bytes) }, mimeType, size: bytes.length },
    };
  });

  // --- AppView reads ---

  scope.get<{ Querystring: { actor?: string } }>(
    '/xrpc/app.bsky.actor.getProfile',
    async (request, reply) => {
      const actor = request.query.actor ?? '';
      const account = actor.startsWith('did:')
        ? await accountByDid(actor)
        : await store
            .get<{ did: string }>('handle', actor)
            .then((h) => (h ? accountByDid(h.did) : null));
      if (!account) return xrpcError(reply, 400, 'InvalidRequest', 'Profile not found');
      const posts = (await store.list<EmuRecord>('record')).filter(
        (r) => r.data.did === account.did,
      );
      return {
        ...profileView(account),
        followersCount: account.followers,
        followsCount: 7,
        postsCount: posts.length,
      };
    },
  );

  scope.get<{ Querystring: { uris?: string | string[] } }>(
    '/xrpc/app.bsky.feed.getPosts',
    async (request, reply) => {
      const uris = [request.query.uris ?? []].flat();
      if (uris.length > 25)
        return xrpcError(
          reply,
          400,
          'InvalidRequest',
          'Error: uris must not have more than 25 elements',
        );
      const posts = [];
      for (const uri of uris) {
        const found = await recordByUri(uri);
        if (found) posts.push(await postView(found));
      }
      return { posts };
    },
  );

  scope.get<{ Querystring: { uri?: string; depth?: string } }>(
    '/xrpc/app.bsky.feed.getPostThread',
    async (request, reply) => {
      const root = await recordByUri(request.query.uri ?? '');
      if (!root) return xrpcError(reply, 400, 'NotFound', `Post not found: ${request.query.uri}`);
      const all = (await store.list<EmuRecord>('record')).map((r) => r.data);
      const depth = Math.min(Number(request.query.depth ?? 6) || 6, 1000);
      const node = async (r: EmuRecord, level: number): Promise<Record<string, unknown>> => ({
        $type: 'app.bsky.feed.defs#threadViewPost',
        post: await postView(r),
        replies:
          level >= depth
            ? []
            : await Promise.all(
                all
                  .filter(
                    (x) =>
                      (x.value.reply as { parent?: { uri?: string } } | undefined)?.parent?.uri ===
                      r.uri,
                  )
                  .sort((a, b) => a.indexedAt.localeCompare(b.indexedAt))
                  .map((x) => node(x, level + 1)),
              ),
      });
      return { thread: await node(root, 0) };
    },
  );

  scope.get<{ Querystring: { limit?: string; reasons?: string | string[] } }>(
    '/xrpc/app.bsky.notification.listNotifications',
    async (request, reply) => {
      const found = await session(request, reply, 'access');
      if (!found) return reply;
      const reasons = [request.query.reasons ?? []].flat();
      const limit = Math.min(Number(request.query.limit ?? 50) || 50, 100);
      const mine = (await store.list<EmuNotification>('notification'))
        .map((n) => n.data)
        .filter((n) => n.recipient === found.account.did)
        .filter((n) => !reasons.length || reasons.includes(n.reason))
        .sort((a, b) => b.indexedAt.localeCompare(a.indexedAt))
        .slice(0, limit);
      const notifications = [];
      for (const n of mine) {
        const author = await accountByDid(n.author);
        notifications.push({
          uri: n.uri,
          cid: n.cid,
          author: author ? profileView(author) : { did: n.author, handle: 'handle.invalid' },
          reason: n.reason,
          ...(n.reasonSubject ? { reasonSubject: n.reasonSubject } : {}),
          record: n.record,
          isRead: false,
          indexedAt: n.indexedAt,
        });
      }
      return { notifications };
    },
  );

  // --- Chat, reached through the PDS with `atproto-proxy: did:web:api.bsky.chat#bsky_chat` ---

  async function chatSession(request: FastifyRequest, reply: FastifyReply) {
    const found = await session(request, reply, 'access');
    if (!found) return null;
    if (!String(request.headers['atproto-proxy'] ?? '').startsWith('did:web:api.bsky.chat')) {
      await xrpcError(reply, 501, 'MethodNotImplemented', 'Method Not Implemented');
      return null;
    }
    if (found.session.scope !== 'com.atproto.appPassPrivileged') {
      await xrpcError(reply, 400, 'InvalidToken', 'Bad token scope');
      return null;
    }
    return found;
  }

  const messageView = (m: EmuMessage) => ({
    $type: 'chat.bsky.convo.defs#messageView',
    id: m.id,
    rev: m.id,
    text: m.text,
    sender: { did: m.sender },
    sentAt: m.sentAt,
  });

  scope.get('/xrpc/chat.bsky.convo.listConvos', async (request, reply) => {
    const found = await chatSession(request, reply);
    if (!found) return reply;
    const convos = (await store.list<EmuConvo>('convo'))
      .map((c) => c.data)
      .filter((c) => c.members.includes(found.account.did));
    const messages = (await store.list<EmuMessage>('message')).map((m) => m.data);
    const out = [];
    for (const c of convos) {
      const members = [];
      for (const did of c.members) {
        const a = await accountByDid(did);
        if (a) members.push(profileView(a));
      }
      const last = messages
        .filter((m) => m.convoId === c.id)
        .sort((a, b) => b.sentAt.localeCompare(a.sentAt))[0];
      out.push({
        id: c.id,
        rev: last?.id ?? c.id,
        members,
        ...(last ? { lastMessage: messageView(last) } : {}),
        muted: false,
        unreadCount: 0,
      });
    }
    return { convos: out };
  });

  scope.get<{ Querystring: { convoId?: string } }>(
    '/xrpc/chat.bsky.convo.getMessages',
    async (request, reply) => {
      const found = await chatSession(request, reply);
      if (!found) return reply;
      const convo = await store.get<EmuConvo>('convo', request.query.convoId ?? '');
      if (!convo || !convo.members.includes(found.account.did))
        return xrpcError(reply, 400, 'InvalidRequest', 'Convo not found');
      const messages = (await store.list<EmuMessage>('message'))
        .map((m) => m.data)
        .filter((m) => m.convoId === convo.id)
        .sort((a, b) => b.sentAt.localeCompare(a.sentAt))
        .map(messageView);
      return { messages };
    },
  );

  scope.post('/xrpc/chat.bsky.convo.sendMessage', async (request, reply) => {
    const found = await chatSession(request, reply);
    if (!found) return reply;
    const body = (request.body ?? {}) as { convoId?: string; message?: { text?: string } };
    const convo = await store.get<EmuConvo>('convo', body.convoId ?? '');
    if (!convo || !convo.members.includes(found.account.did))
      return xrpcError(reply, 400, 'InvalidRequest', 'Convo not found');
    const text = body.message?.text ?? '';
    if (!text.trim()) return xrpcError(reply, 400, 'InvalidRequest', 'Message is empty');
    const message: EmuMessage = {
      id: freshTid(),
      convoId: convo.id,
      sender: found.account.did,
      text,
      sentAt: new Date().toISOString(),
    };
    await store.put('message', message.id, message);
    return messageView(message);
  });

  // --- Video service ---

  /** The account a service token the PDS issued for `lxm` stands for; null (and a 401) otherwise. */
  async function serviceAuth(request: FastifyRequest, reply: FastifyReply, lxm: string) {
    const jti = jtiOf(bearerToken(request) ?? '');
    const auth = jti
      ? await store.get<{ did: string; lxm: string | null; exp: number }>('service_token', jti)
      : null;
    if (!auth || auth.exp * 1000 <= Date.now() || auth.lxm !== lxm) {
      await xrpcError(reply, 401, 'AuthenticationRequired', 'Could not verify service auth token');
      return null;
    }
    return auth;
  }

  const videoDayKey = (did: string) => `${did}:${new Date().toISOString().slice(0, 10)}`;
  const videoDay = async (did: string) =>
    (await store.get<EmuVideoDay>('video_day', videoDayKey(did))) ?? { videos: 0, bytes: 0 };
  const uploadLimitsOf = (day: EmuVideoDay) => {
    const remainingDailyVideos = Math.max(0, DAILY_VIDEOS - day.videos);
    const remainingDailyBytes = Math.max(0, DAILY_VIDEO_BYTES - day.bytes);
    const canUpload = remainingDailyVideos > 0 && remainingDailyBytes > 0;
    return {
      canUpload,
      remainingDailyVideos,
      remainingDailyBytes,
      ...(canUpload
        ? {}
        : { message: 'You have reached your daily upload limit', error: 'Upload limit reached' }),
    };
  };

  scope.get('/video/xrpc/app.bsky.video.getUploadLimits', async (request, reply) => {
    const auth = await serviceAuth(request, reply, 'app.bsky.video.getUploadLimits');
    if (!auth) return reply;
    return uploadLimitsOf(await videoDay(auth.did));
  });

  scope.post<{ Querystring: { did?: string; name?: string } }>(
    '/video/xrpc/app.bsky.video.uploadVideo',
    async (request, reply) => {
      const auth = await serviceAuth(request, reply, 'com.atproto.repo.uploadBlob');
      if (!auth) return reply;
      if (auth.did !== request.query.did)
        return xrpcError(reply, 400, 'InvalidRequest', 'did does not match the service auth token');
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!bytes.length) return xrpcError(reply, 400, 'InvalidRequest', 'The video is empty');
      const day = await videoDay(auth.did);
      const limits = uploadLimitsOf(day);
      if (!limits.canUpload || bytes.length > limits.remainingDailyBytes)
        return xrpcError(reply, 400, 'InvalidRequest', 'You have reached your daily upload limit');
      if (bytes.length > VIDEO_BYTES)
        return xrpcError(reply, 400, 'InvalidRequest', 'Video is too large (maximum 100 MB)');
      const facts = await readReceivedMedia(bytes.subarray(0, 1024 * 1024), bytes.length);
      if (facts.durationSec !== null && facts.durationSec > VIDEO_SECONDS)
        return xrpcError(reply, 400, 'InvalidRequest', 'Video is too long (maximum 3 minutes)');
      await store.put('video_day', videoDayKey(auth.did), {
        videos: day.videos + 1,
        bytes: day.bytes + bytes.length,
      });
      const job: EmuVideoJob = {
        jobId: randomToken(10),
        did: auth.did,
        size: bytes.length,
        pollsLeft: 1,
      };
      await store.put('video_job', job.jobId, { ...job, cid: blobCid(bytes) });
      return { jobId: job.jobId, did: job.did, state: 'JOB_STATE_CREATED', progress: 0 };
    },
  );

  scope.get<{ Querystring: { jobId?: string } }>(
    '/video/xrpc/app.bsky.video.getJobStatus',
    async (request, reply) => {
      const job = await store.get<EmuVideoJob & { cid: string }>(
        'video_job',
        request.query.jobId ?? '',
      );
      if (!job) return xrpcError(reply, 400, 'InvalidRequest', 'Job not found');
      if (job.pollsLeft > 0) {
        await store.put('video_job', job.jobId, { ...job, pollsLeft: job.pollsLeft - 1 });
        return {
          jobStatus: { jobId: job.jobId, did: job.did, state: 'JOB_STATE_ENCODING', progress: 50 },
        };
      }
      return {
        jobStatus: {
          jobId: job.jobId,
          did: job.did,
          state: 'JOB_STATE_COMPLETED',
          progress: 100,
          blob: { $type: 'blob', ref: { $link: job.cid }, mimeType: 'video/mp4', size: job.size },
        },
      };
    },
  );

  // --- The web app's post page, where Herald's permalinks lead ---

  scope.get<{ Params: { actor: string; rkey: string } }>(
    '/web/profile/:actor/post/:rkey',
    async (request, reply) => {
      const found = await store.get<EmuRecord>(
        'record',
        recordId(request.params.actor, 'app.bsky.feed.post', request.params.rkey),
      );
      if (!found) return reply.code(404).type('text/html').send('<p>Post not found</p>');
      const author = await accountByDid(found.did);
      const esc = (s: string) =>
        s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return reply
        .type('text/html')
        .send(
          `<!doctype html><title>Bluesky (sandbox)</title><h1>@${esc(author?.handle ?? found.did)}</h1><p>${esc(String(found.value.text ?? ''))}</p>`,
        );
    },
  );

  // --- Test controls ---

  async function owned(request: FastifyRequest, did: string | undefined) {
    const account = did ? await accountByDid(did) : null;
    if (!account || !emuTenant(request).owns(account.did)) throw notYours('Bluesky account');
    return account;
  }

  /** Someone else replies to a post of the account (and likes and reposts it). */
  scope.post('/_emu/reply', async (request, reply) => {
    const b = (request.body ?? {}) as { uri?: string; text?: string };
    const target = b.uri ? await recordByUri(b.uri) : null;
    if (!target)
      return xrpcError(reply, 400, 'RecordNotFound', `Could not locate record: ${b.uri}`);
    await owned(request, target.did);
    const friend = await accountByHandle(FRIEND_HANDLE);
    const parent = { uri: target.uri, cid: target.cid };
    const root = (target.value.reply as { root?: typeof parent } | undefined)?.root ?? parent;
    const written = await putRecord(friend.did, 'app.bsky.feed.post', freshTid(), {
      $type: 'app.bsky.feed.post',
      text: b.text ?? 'Nice post!',
      createdAt: new Date().toISOString(),
      reply: { root, parent },
    });
    await notify(written);
    await store.put('record', recordId(target.did, target.collection, target.rkey), {
      ...target,
      likes: target.likes + 3,
      reposts: target.reposts + 1,
      quotes: target.quotes + 1,
    });
    return { uri: written.uri };
  });

  /** Someone else mentions the account in a post of their own. */
  scope.post('/_emu/mention', async (request) => {
    const b = (request.body ?? {}) as { did?: string; text?: string };
    const account = await owned(request, b.did);
    const friend = await accountByHandle(FRIEND_HANDLE);
    const text = `@${account.handle} ${b.text ?? 'hello'}`;
    const written = await putRecord(friend.did, 'app.bsky.feed.post', freshTid(), {
      $type: 'app.bsky.feed.post',
      text,
      createdAt: new Date().toISOString(),
      facets: [
        {
          index: { byteStart: 0, byteEnd: Buffer.byteLength(`@${account.handle}`) },
          features: [{ $type: 'app.bsky.richtext.facet#mention', did: account.did }],
        },
      ],
    });
    await notify(written);
    return { uri: written.uri };
  });

  /** Someone else sends the account a direct message. */
  scope.post('/_emu/dm', async (request) => {
    const b = (request.body ?? {}) as { did?: string; text?: string };
    const account = await owned(request, b.did);
    const friend = await accountByHandle(FRIEND_HANDLE);
    const convoId = `convo-${account.did.slice(-8)}`;
    await store.put('convo', convoId, { id: convoId, members: [account.did, friend.did] });
    const message: EmuMessage = {
      id: freshTid(),
      convoId,
      sender: friend.did,
      text: b.text ?? 'hi there',
      sentAt: new Date().toISOString(),
    };
    await store.put('message', message.id, message);
    return { convoId, id: message.id };
  });

  /** Ends the account's sessions as time would: access tokens, or refresh tokens too. */
  scope.post('/_emu/expire-sessions', async (request) => {
    const b = (request.body ?? {}) as { did?: string; refresh?: boolean };
    const account = await owned(request, b.did);
    let expired = 0;
    for (const { id, data } of await store.list<EmuSession>('session')) {
      if (data.did !== account.did || (data.kind === 'refresh' && !b.refresh)) continue;
      await store.put('session', id, { ...data, exp: Math.floor(Date.now() / 1000) - 1 });
      expired++;
    }
    return { expired };
  });

  /**
   * Spends write points of the account as other apps' writes would (`points`, now); `reset`
   * forgets what it spent before.
   */
  scope.post('/_emu/spend-write-points', async (request) => {
    const b = (request.body ?? {}) as { did?: string; points?: number; reset?: boolean };
    const account = await owned(request, b.did);
    const spent = b.reset
      ? []
      : ((await store.get<EmuWrites>('write_points', account.did))?.writes ?? []);
    spent.push({ at: Date.now(), points: Math.max(0, Number(b.points ?? 0)) });
    await store.put('write_points', account.did, { writes: spent });
    return { spent: spent.reduce((sum, w) => sum + w.points, 0) };
  });

  /** Sets what the account has used of today's video allowance (`videos`, `bytes`). */
  scope.post('/_emu/video-day', async (request) => {
    const b = (request.body ?? {}) as { did?: string; videos?: number; bytes?: number };
    const account = await owned(request, b.did);
    const day = { videos: Number(b.videos ?? 0), bytes: Number(b.bytes ?? 0) };
    await store.put('video_day', videoDayKey(account.did), day);
    return uploadLimitsOf(day);
  });

  /** The account's posts as the PDS holds them. */
  scope.get<{ Querystring: { did?: string } }>('/_emu/posts', async (request) => {
    const account = await owned(request, request.query.did);
    const posts = (await store.list<EmuRecord>('record'))
      .map((r) => r.data)
      .filter((r) => r.did === account.did)
      .sort((a, b) => a.rkey.localeCompare(b.rkey));
    return { posts };
  });
}
