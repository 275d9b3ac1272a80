import type {
  BlueskyVideoLimits,
  CreatePinterestBoard,
  PinterestBoard,
  PlatformName,
  TikTokCreatorInfo,
} from '@herald/contract';
import type { InboxAdapter } from './inbox-types.js';

/** fetch, as adapters receive it: requests to a sandbox are answered in-process. */
export type PlatformHttp = (url: string, init?: RequestInit) => Promise<Response>;

export interface TokenSet {
  accessToken: string;
  accessTokenExpiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

/** A refresh's answer: the new tokens, and the account's text limit when the network told it again. */
export type RefreshedTokens = TokenSet & { textLimit?: number | null };

/** One account a sign-in at the network can connect (a Facebook login may offer several Pages). */
export interface ConnectableAccount {
  externalId: string;
  username: string | null;
  name: string | null;
  pictureUrl: string | null;
  tokens: TokenSet;
  /** Non-secret data to keep (linked Page id, API version…). */
  extra?: Record<string, unknown>;
  /** Secret data to keep encrypted beside the tokens (a Page's user token…). */
  secrets?: Record<string, string>;
  /**
   * Why this account cannot be connected (a Facebook Page without the CREATE_CONTENT task), in
   * one sentence: it is shown in the picker, disabled, and never saved.
   */
  unavailable?: string;
  /**
   * The account's own text limit when the network grants it more than its usual rule (X Premium's
   * long posts); null or absent: the network's rule.
   */
  textLimit?: number | null;
  /**
   * Accounts connected through one grant at the network (one Facebook or LinkedIn login) share
   * this key: revoking Herald's access for one of them revokes it for all.
   */
  grantKey?: string;
}

/** What Herald stored for a connected account, handed back to the adapter. */
export interface StoredAccount {
  externalId: string;
  tokens: TokenSet;
  extra: Record<string, unknown>;
  secrets: Record<string, string>;
}

/**
 * The server an account connects on and Herald's app there, for networks made of many servers
 * (Mastodon): the app is registered once per server (`registerServerApp`) and kept by Herald.
 */
export interface ServerApp {
  /** The server's host, as `serverOf` normalized it (`mastodon.social`). */
  instance: string;
  clientId: string;
  clientSecret: string;
}

export interface AuthorizeInput {
  /** Networks of many servers: where the person signs in, and Herald's app there. */
  server?: ServerApp;
  redirectUri: string;
  state: string;
  /** S256 challenge of the verifier Herald keeps; adapters of networks without PKCE ignore it. */
  codeChallenge: string;
  /** The connect kind (networks with `connectKinds`); the network's first kind when absent. */
  kind?: string;
}

export interface CodeExchangeInput {
  /** Networks of many servers: the server the sign-in was started on, and Herald's app there. */
  server?: ServerApp;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  /** The connect kind the sign-in was started for (networks with `connectKinds`). */
  kind?: string;
  /** A pushed sign-in (`pushSignIn`): where it was pushed and with which key. */
  pushed?: PushedSignIn;
}

/**
 * A sign-in whose server is found per account and whose request is pushed there first (Bluesky's
 * AT Protocol OAuth: PAR, PKCE and DPoP), as the start found it and the callback finishes it.
 */
export interface PushedSignIn {
  /** The authorization server's issuer; the callback's `iss` was checked against it. */
  issuer: string;
  /** The account the person named (a DID), when they named one rather than a server. */
  account?: string;
  /** The secret the sign-in's proof-of-possession key is made from, the same at start and callback. */
  keySeed: string;
}

/**
 * The connection half of a network adapter (publishing comes with the publishing engine).
 * Every URL it calls comes from its settings, so the same code runs against the real network
 * and against its sandbox.
 */
export interface PlatformAdapter {
  readonly name: PlatformName;
  /** The network's authorize page for this sign-in. */
  authorizeUrl(input: AuthorizeInput): string;
  /**
   * Exchanges the code (and for short-lived tokens, trades them for long-lived ones), then lists
   * the accounts this sign-in can connect — usually one; Pages or business accounts may be many.
   */
  connect(input: CodeExchangeInput): Promise<ConnectableAccount[]>;
  /**
   * New tokens before the old ones expire; absent when the network cannot refresh. A network
   * may add what it says of the account now (`textLimit`, when asking was cheap); absent: unchanged.
   */
  refresh?(account: StoredAccount): Promise<RefreshedTokens>;
  /** Revokes Herald's access at the network, where the network has an endpoint for it. */
  revoke?(account: StoredAccount): Promise<void>;
  /**
   * True when `refresh` needs a refresh token the network may not have issued (LinkedIn gives
   * them to approved partners only). Such an account is not refreshed while its access token
   * lives; its organization's admins are reminded to reconnect before it expires.
   */
  refreshNeedsRefreshToken?: boolean;
  /**
   * Networks of many servers (Mastodon): the server's host from what a person typed
   * (`https://mastodon.social/`, `@me@mastodon.social`), or null when it names none.
   */
  serverOf?(typed: string): string | null;
  /**
   * Networks of many servers: registers Herald's app on the server (once per server and
   * redirect URI; the caller keeps what it answers) and reads nothing else.
   */
  registerServerApp?(
    instance: string,
    redirectUri: string,
  ): Promise<{ clientId: string; clientSecret: string }>;
  /**
   * Networks that connect with an account's own credentials instead of a sign-in page (Bluesky:
   * a handle and an app password): signs in once and lists the accounts to keep. The password
   * itself is not kept.
   */
  connectWithPassword?(input: {
    identifier: string;
    password: string;
  }): Promise<ConnectableAccount[]>;
  /**
   * Networks whose sign-in server is found from what the person typed (Bluesky: a handle, a DID
   * or a server address) and whose request is pushed there before the browser goes (PAR): where
   * to push it. Refuses (`bad_request`, in a sentence) when this Herald cannot offer that sign-in.
   */
  discoverSignIn?(typed: string): Promise<{ issuer: string; account?: string; loginHint?: string }>;
  /** Pushes the sign-in request (with `state` and the PKCE challenge); answers where the browser goes. */
  pushSignIn?(input: {
    issuer: string;
    loginHint?: string;
    state: string;
    codeChallenge: string;
    keySeed: string;
  }): Promise<string>;
  /** The publishing half; absent until a network's adapter implements it. */
  publishing?: PublishingAdapter;
  /** The analytics half (metrics.ts); absent for networks Herald reads no metrics from. */
  metrics?: MetricsAdapter;
  /** The inbox half (inbox.ts): DMs, comments and mentions; absent for networks Herald reads none from. */
  inbox?: InboxAdapter;
  /**
   * TikTok: what this creator may post now (creator_info), as the composer shows it
   * (docs/networks.md#tiktok-conformance). Absent on the other networks.
   */
  creatorInfo?(account: StoredAccount): Promise<TikTokCreatorInfo>;
  /**
   * Bluesky: the videos and bytes its video service lets this account upload today, as the
   * composer shows them (docs/networks.md#bluesky-limits). Absent on the other networks.
   */
  videoLimits?(account: StoredAccount): Promise<BlueskyVideoLimits>;
  /**
   * Bluesky with OAuth (Herald has a public https address): the client metadata document and the
   * JWKS Herald serves for authorization servers to read; null without OAuth.
   */
  oauthDocuments?(): { clientMetadata: object; jwks: object } | null;
  /** Pinterest: the account's boards a pin may be saved on (docs/networks.md#pinterest-publishing). */
  boards?(account: StoredAccount): Promise<PinterestBoard[]>;
  /** Pinterest: a new board, made from the composer. */
  createBoard?(account: StoredAccount, input: CreatePinterestBoard): Promise<PinterestBoard>;
}

/**
 * Counts what a network's calls cost against a daily quota of Herald's API project (YouTube's
 * units and uploads, platforms/youtube/quota.ts), as they are made.
 */
export interface QuotaMeter {
  spend(network: PlatformName, bucket: 'units' | 'uploads', amount: number): Promise<void>;
}

/** One window of a per-account write limit: at most `points` in any `seconds`. */
export interface WriteWindow {
  seconds: number;
  points: number;
}

/**
 * Where the record writes of accounts on a network that limits them by points (Bluesky) are
 * counted, in the database so that every process sees them (modules/publishing/write-points.ts).
 */
export interface WritePoints {
  /**
   * Takes `points` from the account's windows when each has room for them; otherwise takes
   * nothing and says when the first write that fits can go.
   */
  take(
    network: string,
    account: string,
    points: number,
    windows: readonly WriteWindow[],
  ): Promise<{ ok: true } | { ok: false; retryAt: Date }>;
  /** Whether `points` would fit now, taking nothing: the same answer as `take`. */
  room(
    network: string,
    account: string,
    points: number,
    windows: readonly WriteWindow[],
  ): Promise<{ ok: true } | { ok: false; retryAt: Date }>;
  /** The network said the account may not write before `until` (a 429 and its reset time). */
  pause(network: string, account: string, until: Date): Promise<void>;
}

/** The settings an adapter is built from: where the network lives and who we are to it. */
export interface AdapterSettings<Urls> {
  /** The connect kind this adapter serves (networks with `connectKinds`). */
  kind?: string;
  clientId: string;
  clientSecret: string;
  urls: Urls;
  http: PlatformHttp;
  /**
   * How a network's adapter reads pages people linked to (Bluesky's link cards): always through
   * the SSRF guard, sandbox or not, as the links are whatever people wrote. Absent: it reads none.
   */
  fetchLinked?: PlatformHttp;
  /**
   * The network has not reviewed (audited) the app yet, so it only allows a restricted use
   * (TikTok: SELF_ONLY posts, TIKTOK_UNAUDITED). Absent means reviewed.
   */
  unaudited?: boolean;
  /**
   * Where Herald's webhook endpoints are, `{apiPublicUrl}/webhooks` (docs/inbox.md#webhooks), for
   * networks whose API registers the app's callback URL (X's Activity API).
   */
  webhookBase?: string;
  /** Where the calls of a network with a daily project quota are counted; absent: nowhere. */
  quota?: QuotaMeter;
  /** Where per-account write points are counted (Bluesky); absent: nowhere, the network alone limits. */
  writePoints?: WritePoints;
  /**
   * Google Business Profile's review notifications through Cloud Pub/Sub (GOOGLE_BUSINESS_PUBSUB_*):
   * the topic Google publishes to, and what the push subscription's token must say. Absent:
   * reviews are polled only. Other networks ignore it.
   */
  pubsubPush?: { topic: string; audience: string; serviceAccountEmail: string };
  /** Herald's public API address (`API_PUBLIC_URL`), for documents a network reads from it. */
  apiPublicUrl?: string;
  /**
   * A stable secret of this Herald for the network's client keys (Bluesky's OAuth signing key),
   * derived from the secrets Herald keeps in its database.
   */
  clientKeySeed?: string;
  /**
   * The client key configured for the network (`addressedOAuthClient.keyEnv`: an ES256 private
   * JWK as JSON, checked at start); absent: the key is made from `clientKeySeed`.
   */
  oauthKey?: string;
}

/** One file of a post as the network receives it: a short-lived public URL Herald serves. */
export interface PublishMedia {
  kind: 'image' | 'video';
  mimeType: string;
  /** Signed URL under PUBLIC_URL; networks that pull media fetch it, others upload its bytes. */
  url: string;
  fileName: string;
  size: number;
  width: number | null;
  height: number | null;
  durationSec: number | null;
  /** The image's description for people who cannot see it (docs/product.md#alt-text); null: none. */
  altText?: string | null;
  /**
   * The bytes, for networks that take uploads (X, LinkedIn, TikTok FILE_UPLOAD); streamed.
   * `range.end` is inclusive, as in an HTTP Range header.
   */
  open(range?: { start: number; end: number }): Promise<NodeJS.ReadableStream>;
}

export interface PublishRequest {
  /** The text for this network (already the per-platform version). */
  text: string;
  media: PublishMedia[];
  /** Stable for this target across attempts (networks with idempotency keys use it). */
  idempotencyKey: string;
  /** What the user chose for this account when composing (TikTok: privacy, interactions…). */
  settings?: Record<string, unknown> | null;
  /** The post's scheduled time (YouTube can be asked to publish at it); null: at once. */
  scheduledAt?: Date | null;
}

/**
 * What `prepare` made at the network (container ids, upload ids…), persisted on the target
 * before the next phase so a restart continues instead of starting again. JSON only.
 */
export type PublishState = Record<string, unknown>;

export type CheckResult =
  | { status: 'ready'; state?: PublishState }
  | { status: 'pending'; retryAfterMs: number; state?: PublishState };

export interface PublishResult {
  externalId: string;
  /** Public URL of the post (Facebook permalink_url, Instagram permalink…), when known. */
  permalink: string | null;
  /** Instagram shortcode, TikTok username and the like, for embeds. */
  extra?: Record<string, unknown>;
}

/** A comment as Herald shows it (docs/product.md#comment-entity), with nested replies. */
export interface NetworkComment {
  id: string;
  message: string;
  likes: number;
  createdTime: string;
  from: { id: string; name: string; pictureUrl: string | null };
  /** Whether the connected account wrote it (Edit/Delete are offered for these). */
  isOwn: boolean;
  replies: NetworkComment[];
}

/**
 * The publishing half of an adapter, in the three phases of docs/networks.md#adapter-contract. Errors are
 * PlatformError with the right kind. `finalize` is the one visible call and is never retried
 * blindly by the engine.
 */
export interface PublishingAdapter {
  /** Upload media, create containers: invisible, and safe to repeat. */
  prepare(account: StoredAccount, request: PublishRequest): Promise<PublishState>;
  /**
   * Processing status of what prepare made; or the bytes of an upload prepare started (the
   * request carries the media): safe to repeat, and a state it returns is kept.
   */
  check(
    account: StoredAccount,
    state: PublishState,
    request?: PublishRequest,
  ): Promise<CheckResult>;
  /**
   * True when prepare and check make no call to the network for this request (a text post on
   * X): the publisher runs them in memory and claims the target straight for finalize, one
   * committed step instead of three. Absent or false: they may call the network.
   */
  preparesLocally?(request: PublishRequest): boolean;
  /**
   * Makes the post visible; returns its id and permalink. Throws PlatformError
   * `unknown_outcome` when the post may have become visible (timeout, dropped connection, 5xx
   * after the request was sent); any other kind promises nothing visible happened.
   */
  finalize(
    account: StoredAccount,
    request: PublishRequest,
    state: PublishState,
  ): Promise<PublishResult>;
  /**
   * After an unknown outcome of finalize: looks the post up at the network (recent posts,
   * container status). Returns it if it was published, null if it certainly was not; throws when
   * the network cannot tell.
   */
  reconcile?(
    account: StoredAccount,
    request: PublishRequest,
    state: PublishState,
  ): Promise<PublishResult | null>;
  /**
   * A post uploaded ahead that the network itself makes public at a time (YouTube's
   * `status.publishAt`) follows its post until then: `reschedule` moves that time (null: public
   * now, for Publish now), `withdraw` removes what was uploaded (already gone counts as done),
   * `lookUpScheduled` reads it again when its time comes (null: it is no longer there). Absent:
   * nothing waits at the network, and finalize's result never names a time to come.
   */
  reschedule?(account: StoredAccount, externalId: string, at: Date | null): Promise<void>;
  withdraw?(account: StoredAccount, externalId: string): Promise<void>;
  lookUpScheduled?(account: StoredAccount, externalId: string): Promise<PublishResult | null>;
  /**
   * Publishes what follows a published post (docs/product.md#threads-and-first-comments): a thread
   * part replying to `replyTo` (X, Threads), or the first comment on `postId` (X as a reply of the
   * account itself, Instagram, Facebook, LinkedIn). A visible call, with finalize's rule: throws
   * `unknown_outcome` when it may have gone through.
   */
  followUp?(
    account: StoredAccount,
    input: { kind: 'part' | 'first_comment'; postId: string; replyTo: string; text: string },
  ): Promise<PublishResult>;
  listComments?(
    account: StoredAccount,
    externalId: string,
    page: { cursor?: string; limit: number },
  ): Promise<{ comments: NetworkComment[]; nextCursor: string | null }>;
  reply?(
    account: StoredAccount,
    target: { externalId: string; commentId: string },
    message: string,
  ): Promise<NetworkComment>;
  editComment?(account: StoredAccount, commentId: string, message: string): Promise<void>;
  deleteComment?(account: StoredAccount, commentId: string): Promise<void>;
}

/**
 * Metrics a network gave for one published post, in Herald's names (docs/analytics.md#metric-model).
 * A metric the network does not give is left out (absent, never 0); `raw` keeps what the network
 * answered under its own names.
 */
export interface PostMetricValues {
  views?: number;
  reach?: number;
  likes?: number;
  comments?: number;
  shares?: number;
  saves?: number;
  clicks?: number;
  videoViews?: number;
  watchTimeMs?: number;
  /** The network's engagement, summed from its components (docs/analytics.md#engagement-rate). */
  interactions?: number;
  raw: Record<string, number>;
}

/** An account's figures for a day, in Herald's names; absent when the network does not give them. */
export interface AccountMetricValues {
  followers?: number;
  views?: number;
  reach?: number;
  profileViews?: number;
  interactions?: number;
  raw: Record<string, number>;
  /**
   * Followers at the end of past UTC days, where the network gives a daily series (Instagram's
   * `follower_count`): fills the days Herald did not read, never replaces a day it did.
   */
  followersHistory?: Array<{ day: string; followers: number }>;
}

/** A post of a connected account as the network lists it (whoever published it). */
export interface ListedPost {
  externalId: string;
  publishedAt: Date;
  permalink: string | null;
  text: string | null;
  /** The network's picture of the post (an image, a video's cover); null without one. */
  thumbnailUrl: string | null;
}

/**
 * The posts of a network's listing published since `since`, each read by `read`: one without a
 * readable publishing time (null or an invalid date), or published earlier, is left out.
 */
export function listedSince<T>(
  items: readonly T[] | undefined,
  since: Date,
  read: (item: T) => Omit<ListedPost, 'publishedAt'> & { publishedAt: Date | null },
): ListedPost[] {
  const out: ListedPost[] = [];
  for (const item of items ?? []) {
    const { publishedAt, ...rest } = read(item);
    if (!publishedAt || Number.isNaN(publishedAt.getTime()) || publishedAt < since) continue;
    out.push({ ...rest, publishedAt });
  }
  return out;
}

/**
 * The analytics half of an adapter (platforms/<network>/metrics.ts). Either method answers null
 * when the network gives nothing for this kind of account (a LinkedIn member); refusals are
 * PlatformError like everywhere else.
 */
export interface MetricsAdapter {
  /** Whether every read is billed by the network (X): collection then needs the organization's consent. */
  readonly billedReads: boolean;
  postMetrics(
    account: StoredAccount,
    post: { externalId: string; publishedAt: Date },
  ): Promise<PostMetricValues | null>;
  accountMetrics(account: StoredAccount): Promise<AccountMetricValues | null>;
  /**
   * Several posts' metrics in one request (X: `GET /2/tweets?ids=`, up to
   * `batchSize`), by network id; a post the network did not answer for is left out.
   */
  postMetricsBatch?(
    account: StoredAccount,
    posts: Array<{ externalId: string; publishedAt: Date }>,
  ): Promise<Map<string, PostMetricValues>>;
  readonly batchSize?: number;
  /**
   * The account's posts published since `since`, newest first, at most `limit`, whoever
   * published them (docs/analytics.md#posts-published-outside-herald). Absent where listing
   * is billed or not granted.
   */
  listRecentPosts?(
    account: StoredAccount,
    opts: { since: Date; limit: number },
  ): Promise<ListedPost[]>;
}

/** Keeps the metrics that are numbers; a missing or non-numeric value stays absent. */
export function pickNumbers<K extends string>(
  values: Partial<Record<K, unknown>>,
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const [key, value] of Object.entries(values) as Array<[K, unknown]>) {
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  }
  return out;
}

/** The sum of those parts the network gave; absent when it gave none of them. */
export function sumPresent(...parts: Array<number | undefined>): number | undefined {
  const present = parts.filter((p): p is number => typeof p === 'number');
  return present.length ? present.reduce((a, b) => a + b, 0) : undefined;
}
