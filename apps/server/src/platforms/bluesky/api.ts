import { resolveTxt } from 'node:dns/promises';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings, PlatformHttp, StoredAccount } from '../types.js';
import { describeBlueskyError } from './errors.js';
import { dpopSender, type EcKey } from './oauth.js';

/**
 * Where the parts of Bluesky live that are not the account's own PDS (which comes from its DID
 * document, never assumed): the handle resolver, the PLC directory, the AppView that answers
 * public reads, the video service, and the web app that shows posts.
 */
export interface BlueskyUrls {
  /** Answers `com.atproto.identity.resolveHandle` for any handle. */
  handleResolver: string;
  /** Holds did:plc documents at `/{did}`. */
  plcDirectory: string;
  /** Public reads: threads, posts and their counts, profiles. */
  appView: string;
  /** `app.bsky.video.*`: videos are processed there, then stored on the account's PDS. */
  videoService: string;
  /** The web app: `{web}/profile/{did}/post/{rkey}`. */
  web: string;
}

/** The chat service's DID, for the `atproto-proxy` header the PDS routes `chat.bsky.*` by. */
export const CHAT_PROXY = 'did:web:api.bsky.chat#bsky_chat';

export interface StrongRef {
  uri: string;
  cid: string;
}

export interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

export interface Session {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
  active?: boolean;
  status?: string;
}

export interface ProfileView {
  did: string;
  handle: string;
  displayName?: string;
  avatar?: string;
  followersCount?: number;
}

export interface PostView {
  uri: string;
  cid: string;
  author: ProfileView;
  record: { text?: string; createdAt?: string; reply?: { root: StrongRef; parent: StrongRef } };
  replyCount?: number;
  repostCount?: number;
  likeCount?: number;
  quoteCount?: number;
  bookmarkCount?: number;
  indexedAt: string;
}

export interface ThreadViewPost {
  $type?: string;
  post?: PostView;
  replies?: ThreadViewPost[];
}

export interface Notification {
  uri: string;
  cid: string;
  author: ProfileView;
  reason: string;
  reasonSubject?: string;
  record: { text?: string; createdAt?: string; reply?: { root: StrongRef; parent: StrongRef } };
  isRead: boolean;
  indexedAt: string;
}

export interface ChatMessage {
  id: string;
  rev: string;
  text?: string;
  sender: { did: string };
  sentAt: string;
  $type?: string;
}

export interface Convo {
  id: string;
  rev: string;
  members: ProfileView[];
  lastMessage?: ChatMessage;
}

export interface VideoJobStatus {
  jobId: string;
  did: string;
  state: string;
  progress?: number;
  blob?: BlobRef;
  error?: string;
  message?: string;
}

/** What a handle and its DID document say: the account, and where its data lives. */
export interface Identity {
  did: string;
  handle: string | null;
  pds: string;
}

const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DID = /^did:(plc:[a-z2-7]{24}|web:[a-z0-9.%-]+(:\d+)?)$/;

/**
 * The handle or DID in what a person typed (`@alice.bsky.social`, `alice.bsky.social`,
 * `did:plc:…`, a profile address); null when it names neither.
 */
export function identifierOf(typed: string): string | null {
  let value = typed.trim().replace(/^at:\/\//i, '');
  const profile = /^https?:\/\/[^/]+\/profile\/([^/?#]+)/i.exec(value);
  if (profile) value = decodeURIComponent(profile[1]!);
  value = value.replace(/^@/, '');
  if (value.toLowerCase().startsWith('did:')) return DID.test(value) ? value : null;
  value = value.toLowerCase();
  return HANDLE.test(value) && value.length <= 253 ? value : null;
}

/** The account's PDS, as its DID document said at connect. */
export function pdsOf(account: Pick<StoredAccount, 'extra'>): string {
  const pds = account.extra.pds;
  if (typeof pds !== 'string' || !pds)
    throw new PlatformError(
      'reauth',
      'Herald does not know where this Bluesky account keeps its posts. Reconnect it in Settings.',
    );
  return pds;
}

/** `at://{did}/{collection}/{rkey}` → its parts. */
export function parseAtUri(uri: string): { did: string; collection: string; rkey: string } {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!match) throw new PlatformError('bad_request', `"${uri}" is not a Bluesky post address.`);
  return { did: match[1]!, collection: match[2]!, rkey: match[3]! };
}

/** What marks a token packed with its DPoP key (`accessOf`): read only by this module's sender. */
const DPOP_PACKED = 'herald-dpop.';

/**
 * The access token a call carries: an app-password session's JWT as it is, or an OAuth access
 * token packed with the session's DPoP key (kept encrypted in `secrets.dpopKey`), which the
 * API's sender turns into `Authorization: DPoP …` and a proof (docs/networks.md#bluesky-oauth).
 */
export function accessOf(account: Pick<StoredAccount, 'tokens' | 'secrets'>): string {
  const key = account.secrets?.dpopKey;
  if (!key) return account.tokens.accessToken;
  return `${DPOP_PACKED}${Buffer.from(JSON.stringify({ t: account.tokens.accessToken, k: JSON.parse(key) })).toString('base64url')}`;
}

type TxtResolver = (name: string) => Promise<string[][]>;

export function createBlueskyApi(
  settings: Pick<AdapterSettings<BlueskyUrls>, 'urls' | 'http'>,
  dns: TxtResolver = resolveTxt,
) {
  const { urls } = settings;
  const sendDpop = dpopSender(settings.http);
  // OAuth sessions' calls go with a DPoP proof (and the server's nonce); others as they are.
  const http: PlatformHttp = (url, init = {}) => {
    const headers = { ...((init.headers ?? {}) as Record<string, string>) };
    const auth = headers.authorization ?? '';
    if (!auth.startsWith(`Bearer ${DPOP_PACKED}`)) return settings.http(url, init);
    delete headers.authorization;
    const packed = JSON.parse(
      Buffer.from(auth.slice(`Bearer ${DPOP_PACKED}`.length), 'base64url').toString('utf8'),
    ) as { t: string; k: EcKey };
    return sendDpop(
      packed.k,
      String(url),
      { ...init, method: init.method ?? 'GET', headers },
      packed.t,
    );
  };
  const xrpcUrl = (base: string, method: string, params?: Record<string, unknown>) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params ?? {})) {
      if (value === undefined || value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
    }
    const q = query.toString();
    return `${base.replace(/\/+$/, '')}/xrpc/${method}${q ? `?${q}` : ''}`;
  };
  const bearer = (token: string | undefined, more: Record<string, string> = {}) => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...more,
  });
  const query = <T>(
    base: string,
    method: string,
    params: Record<string, unknown>,
    token?: string,
    more: Record<string, string> = {},
  ) =>
    requestJson<T>(
      http,
      'Bluesky',
      xrpcUrl(base, method, params),
      { headers: bearer(token, more) },
      describeBlueskyError,
    );
  const procedure = <T>(
    base: string,
    method: string,
    body: unknown,
    token?: string,
    more: Record<string, string> = {},
  ) =>
    requestJson<T>(
      http,
      'Bluesky',
      xrpcUrl(base, method),
      {
        method: 'POST',
        headers: bearer(token, { 'content-type': 'application/json', ...more }),
        body: JSON.stringify(body),
      },
      describeBlueskyError,
    );

  /** A handle's DID from the resolver, its DNS TXT record, or its HTTPS well-known file. */
  async function resolveHandle(handle: string): Promise<string> {
    try {
      const answer = await query<{ did?: string }>(
        urls.handleResolver,
        'com.atproto.identity.resolveHandle',
        { handle },
      );
      if (answer.did && DID.test(answer.did)) return answer.did;
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind === 'transient') throw err;
    }
    const fromDns = await dns(`_atproto.${handle}`).catch(() => [] as string[][]);
    for (const record of fromDns) {
      const value = record.join('');
      if (value.startsWith('did=') && DID.test(value.slice(4))) return value.slice(4);
    }
    const res = await http(`https://${handle}/.well-known/atproto-did`).catch(() => null);
    const text = res?.ok ? (await res.text()).trim() : '';
    if (DID.test(text)) return text;
    throw new PlatformError(
      'bad_request',
      `Bluesky knows no account with the handle @${handle}. Check the handle (such as alice.bsky.social).`,
    );
  }

  async function didDocument(did: string): Promise<Record<string, unknown>> {
    const url = did.startsWith('did:plc:')
      ? `${urls.plcDirectory.replace(/\/+$/, '')}/${did}`
      : `https://${decodeURIComponent(did.slice('did:web:'.length))}/.well-known/did.json`;
    return requestJson<Record<string, unknown>>(http, 'Bluesky', url, {}, describeBlueskyError);
  }

  return {
    urls,

    /** Handle or DID → the account's DID, its current handle and its PDS (docs/networks.md#bluesky-connect). */
    async resolveIdentity(identifier: string): Promise<Identity> {
      const did = identifier.startsWith('did:') ? identifier : await resolveHandle(identifier);
      const doc = await didDocument(did);
      const services = Array.isArray(doc.service) ? (doc.service as Record<string, unknown>[]) : [];
      const pds = services.find(
        (s) =>
          typeof s.id === 'string' &&
          s.id.endsWith('#atproto_pds') &&
          s.type === 'AtprotoPersonalDataServer',
      )?.serviceEndpoint;
      if (typeof pds !== 'string' || !/^https?:\/\//.test(pds))
        throw new PlatformError(
          'bad_request',
          `The account ${did} names no Bluesky server (PDS) in its DID document.`,
        );
      const aka = Array.isArray(doc.alsoKnownAs) ? (doc.alsoKnownAs as unknown[]) : [];
      const handle = aka
        .filter((a): a is string => typeof a === 'string' && a.startsWith('at://'))
        .map((a) => a.slice('at://'.length))[0];
      // A handle is the account's only when its DID document names it back.
      if (!identifier.startsWith('did:') && handle !== identifier)
        throw new PlatformError(
          'bad_request',
          `@${identifier} points to ${did}, whose DID document does not name that handle back.`,
        );
      return { did, handle: handle ?? null, pds: pds.replace(/\/+$/, '') };
    },

    createSession: (pds: string, identifier: string, password: string) =>
      procedure<Session>(pds, 'com.atproto.server.createSession', { identifier, password }),

    refreshSession: (pds: string, refreshJwt: string) =>
      procedure<Session>(pds, 'com.atproto.server.refreshSession', undefined, refreshJwt),

    deleteSession: (pds: string, refreshJwt: string) =>
      procedure<unknown>(pds, 'com.atproto.server.deleteSession', undefined, refreshJwt),

    getRecord: <T>(pds: string, repo: string, collection: string, rkey: string) =>
      query<{ uri: string; cid: string; value: T }>(pds, 'com.atproto.repo.getRecord', {
        repo,
        collection,
        rkey,
      }),

    createRecord: (
      pds: string,
      token: string,
      input: { repo: string; collection: string; rkey: string; record: Record<string, unknown> },
    ) => procedure<StrongRef>(pds, 'com.atproto.repo.createRecord', input, token),

    deleteRecord: (pds: string, token: string, repo: string, collection: string, rkey: string) =>
      procedure<unknown>(pds, 'com.atproto.repo.deleteRecord', { repo, collection, rkey }, token),

    uploadBlob: (pds: string, token: string, bytes: Buffer, mimeType: string) =>
      requestJson<{ blob: BlobRef }>(
        http,
        'Bluesky',
        xrpcUrl(pds, 'com.atproto.repo.uploadBlob'),
        {
          method: 'POST',
          headers: bearer(token, { 'content-type': mimeType }),
          body: new Uint8Array(bytes),
        },
        describeBlueskyError,
      ),

    getServiceAuth: (pds: string, token: string, aud: string, lxm: string, exp: number) =>
      query<{ token: string }>(pds, 'com.atproto.server.getServiceAuth', { aud, lxm, exp }, token),

    uploadVideo: (serviceToken: string, did: string, name: string, bytes: Buffer) =>
      requestJson<VideoJobStatus>(
        http,
        'Bluesky',
        xrpcUrl(urls.videoService, 'app.bsky.video.uploadVideo', { did, name }),
        {
          method: 'POST',
          headers: bearer(serviceToken, { 'content-type': 'video/mp4' }),
          body: new Uint8Array(bytes),
        },
        describeBlueskyError,
      ),

    /** What the video service lets the account upload today (a service token for it first). */
    uploadLimits: (serviceToken: string) =>
      requestJson<{
        canUpload: boolean;
        remainingDailyVideos?: number;
        remainingDailyBytes?: number;
        message?: string;
        error?: string;
      }>(
        http,
        'Bluesky',
        xrpcUrl(urls.videoService, 'app.bsky.video.getUploadLimits'),
        { headers: bearer(serviceToken) },
        describeBlueskyError,
      ),

    videoJob: (jobId: string) =>
      query<{ jobStatus: VideoJobStatus }>(urls.videoService, 'app.bsky.video.getJobStatus', {
        jobId,
      }),

    postThread: (uri: string, depth: number) =>
      query<{ thread: ThreadViewPost }>(urls.appView, 'app.bsky.feed.getPostThread', {
        uri,
        depth,
        parentHeight: 0,
      }),

    posts: (uris: string[]) =>
      query<{ posts: PostView[] }>(urls.appView, 'app.bsky.feed.getPosts', { uris }),

    profile: (actor: string) =>
      query<ProfileView>(urls.appView, 'app.bsky.actor.getProfile', { actor }),

    notifications: (pds: string, token: string, cursor: string | undefined, limit: number) =>
      query<{ notifications: Notification[]; cursor?: string }>(
        pds,
        'app.bsky.notification.listNotifications',
        { limit, cursor, reasons: ['mention', 'reply', 'quote'] },
        token,
      ),

    convos: (pds: string, token: string, limit: number) =>
      query<{ convos: Convo[] }>(pds, 'chat.bsky.convo.listConvos', { limit }, token, {
        'atproto-proxy': CHAT_PROXY,
      }),

    messages: (pds: string, token: string, convoId: string, limit: number) =>
      query<{ messages: ChatMessage[] }>(
        pds,
        'chat.bsky.convo.getMessages',
        { convoId, limit },
        token,
        { 'atproto-proxy': CHAT_PROXY },
      ),

    sendMessage: (pds: string, token: string, convoId: string, text: string) =>
      procedure<ChatMessage>(
        pds,
        'chat.bsky.convo.sendMessage',
        { convoId, message: { text } },
        token,
        { 'atproto-proxy': CHAT_PROXY },
      ),
  };
}

export type BlueskyApi = ReturnType<typeof createBlueskyApi>;
