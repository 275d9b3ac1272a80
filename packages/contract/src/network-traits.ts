import { PLATFORM_NAMES, type PlatformName } from './platforms.js';

/**
 * How long a first comment may be: `post` when the network publishes it as a post of the
 * account's own (X: a reply, under the account's post rule, its own limit included); otherwise
 * the comment's own limit, counted the network's way, whatever the post's are.
 */
export type FirstCommentRule = 'post' | { max: number; counting: 'codepoints' | 'utf16' };

/** What the web and the server both know about one network, besides its numbers. */
export interface NetworkTraits {
  /** URL segment: `/auth/{slug}`, `/{slug}/disconnect/{orgId}` (docs/product.md#api-calls). */
  slug: string;
  /** Whether a post can be a thread: each further part replies to the previous one. */
  threads: boolean;
  /**
   * Whether Herald publishes a first comment there, and its limit (see FirstCommentRule); null:
   * the network takes none from Herald.
   */
  firstComment: FirstCommentRule | null;
  /** The most characters an image's alt text may have; null: its files go without one. */
  altTextMax: number | null;
  /**
   * Whether an account's tokens expire and can be renewed on demand
   * (`GET /auth/{slug}/refresh`). Facebook Page tokens do not expire.
   */
  refreshableTokens: boolean;
  /**
   * Null where Herald reads and answers a published post's comments; otherwise the sentence that
   * says the network does not let apps read them, and what it allows instead.
   */
  commentsElsewhere: string | null;
}

/**
 * Every network's traits, one entry per name of PLATFORM_NAMES: a name added there without its
 * entry here fails the typecheck. The numbers of what a post may hold are in
 * network-constraints.ts, the rules only code can say in publish-rules.ts.
 */
export const NETWORK_TRAITS: Readonly<Record<PlatformName, NetworkTraits>> = {
  X: {
    slug: 'x',
    threads: true,
    // A post of the account's own: 280 weighted characters, URLs as 23, or an X Premium
    // account's own limit.
    firstComment: 'post',
    altTextMax: 1000,
    refreshableTokens: true,
    commentsElsewhere: null,
  },
  Instagram: {
    slug: 'instagram',
    threads: false,
    firstComment: { max: 2_200, counting: 'codepoints' },
    altTextMax: 1000,
    refreshableTokens: true,
    commentsElsewhere: null,
  },
  Facebook: {
    slug: 'facebook',
    threads: false,
    firstComment: { max: 8_000, counting: 'utf16' },
    altTextMax: 1000,
    refreshableTokens: false,
    commentsElsewhere: null,
  },
  Threads: {
    slug: 'threads',
    threads: true,
    firstComment: null,
    altTextMax: 1000,
    refreshableTokens: true,
    commentsElsewhere: null,
  },
  TikTok: {
    slug: 'tiktok',
    threads: false,
    firstComment: null,
    altTextMax: null,
    refreshableTokens: true,
    // TikTok's Content Posting API publishes and can turn comments off; no API Herald may use
    // reads or answers them.
    commentsElsewhere:
      'TikTok does not let apps read or answer comments. Open the post in the TikTok app to see and reply to them; whether people may comment is chosen per post when you schedule it.',
  },
  LinkedIn: {
    slug: 'linkedin',
    threads: false,
    firstComment: { max: 1_250, counting: 'codepoints' },
    altTextMax: 4086,
    refreshableTokens: true,
    commentsElsewhere: null,
  },
  Mastodon: {
    slug: 'mastodon',
    threads: true,
    // A reply of the account's own, under the account's post rule (its server's limit).
    firstComment: 'post',
    // The media description limit servers announce by default (configuration.media_attachments).
    altTextMax: 1500,
    // Mastodon tokens do not expire; there is nothing to renew.
    refreshableTokens: false,
    commentsElsewhere: null,
  },
  Bluesky: {
    slug: 'bluesky',
    // Each part replies to the one before, with the thread's first post as the root.
    threads: true,
    // A reply of the account's own, under the post rule (300 graphemes).
    firstComment: 'post',
    // The lexicon bounds no alt text; Bluesky's app stops at 2,000 characters, and so does Herald.
    altTextMax: 2000,
    // Sessions are renewed with the refresh token (com.atproto.server.refreshSession).
    refreshableTokens: true,
    commentsElsewhere: null,
  },
  YouTube: {
    slug: 'youtube',
    threads: false,
    // A video's comments are the audience's; Herald publishes none of its own under it.
    firstComment: null,
    altTextMax: null,
    // Google access tokens live an hour and are renewed with the refresh token.
    refreshableTokens: true,
    commentsElsewhere: null,
  },
  'Google Business Profile': {
    // Alphanumeric, so that INBOX_POLL_MINUTES_GOOGLEBUSINESS and the like are variable names.
    slug: 'googlebusiness',
    threads: false,
    firstComment: null,
    altTextMax: null,
    // Google access tokens live an hour and are renewed with the refresh token.
    refreshableTokens: true,
    // Local posts take no comments; the location's reviews are its inbox.
    commentsElsewhere:
      'Google Business Profile posts take no comments. Reviews of the location arrive in the inbox, where you can answer them.',
  },
  Pinterest: {
    slug: 'pinterest',
    threads: false,
    firstComment: null,
    // `POST /v5/pins` `alt_text`: at most 500 characters.
    altTextMax: 500,
    // Continuous refresh tokens: each refresh answers a new one, for 60 days more.
    refreshableTokens: true,
    // API v5 has no comment endpoints: a pin's comments are read and answered on Pinterest.
    commentsElsewhere:
      'Pinterest does not let apps read or answer comments. Open the pin on Pinterest to see and reply to them.',
  },
};

/** Whether a platform's name is one of the networks Herald knows, spelled as Herald spells it. */
export const isPlatformName = (name: string): name is PlatformName =>
  Object.prototype.hasOwnProperty.call(NETWORK_TRAITS, name);

/** The traits of the network of that exact name; null for a name Herald has none for. */
export function networkTraitsOf(name: string): NetworkTraits | null {
  return isPlatformName(name) ? NETWORK_TRAITS[name] : null;
}

/** The networks whose trait passes the test, in the order PLATFORM_NAMES lists them. */
export const networksWhere = (test: (traits: NetworkTraits) => boolean): PlatformName[] =>
  PLATFORM_NAMES.filter((name) => test(NETWORK_TRAITS[name]));

/**
 * URL segment of a network: `/auth/{slug}`, `/{slug}/disconnect/{orgId}`. A name Herald has no
 * traits for (operators may add names before an adapter exists) gets its lowercase name.
 */
export const platformSlug = (name: string) => networkTraitsOf(name)?.slug ?? name.toLowerCase();
