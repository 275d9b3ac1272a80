import twitterText from 'twitter-text';

/**
 * What X charges a self-serve (pay-per-use) app, in US dollars: the one place Herald keeps these
 * prices (docs/networks.md#x-billing). X prices per request for writes and per resource returned
 * for reads; a resource read twice within one UTC day is billed once.
 *
 * Source: X's pricing page https://docs.x.com/x-api/getting-started/pricing (read 2026-12-02), and
 * X's changelog entry of 2026-04-16 https://docs.x.com/changelog (effective 2026-04-20: a post is
 * $0.015, a post containing a URL $0.20, a summoned reply stays $0.01). "Owned Reads" ($0.001)
 * apply only to the account that owns the developer app, never to a customer's token, so Herald
 * counts the full read price.
 */
export const X_PRICES = {
  /** The date the figures below were checked against X's pricing page. */
  checkedOn: '2026-12-02',
  /** The date X's current write prices took effect. */
  effectiveFrom: '2026-04-20',
  source: 'https://docs.x.com/x-api/getting-started/pricing',
  /** `POST /2/tweets` ("Content: Create"), per post. */
  postUsd: 0.015,
  /** `POST /2/tweets` whose text contains a URL ("Content: Create (with URL)"), per post. */
  postWithUrlUsd: 0.2,
  /** A reply to someone who mentioned or quoted the account ("summoned"). */
  summonedReplyUsd: 0.01,
  /** "Posts: Read", per post returned (mentions timeline, search, lookups). */
  postReadUsd: 0.005,
  /** "DM Event: Read", per direct-message event returned. */
  dmEventReadUsd: 0.01,
  /** "DM Interaction: Create", per direct message sent. */
  dmSendUsd: 0.015,
} as const;

/** Whether X counts this text as a post with a URL (the links X would shorten to t.co). */
export const xTextHasUrl = (text: string) => twitterText.extractUrls(text).length > 0;

/** What X charges for creating one post with this text. */
export const xPostPriceUsd = (text: string) =>
  xTextHasUrl(text) ? X_PRICES.postWithUrlUsd : X_PRICES.postUsd;

export interface XPostsCost {
  /** How many posts are created (the post, each further thread part, the first comment). */
  posts: number;
  /** How many of them contain a URL. */
  withUrl: number;
  /** Their total price, in US dollars. */
  totalUsd: number;
}

/** What X charges for creating these posts (a thread's parts and a first comment are posts too). */
export function xPostsCost(texts: readonly string[]): XPostsCost {
  const withUrl = texts.filter(xTextHasUrl).length;
  const plain = texts.length - withUrl;
  // Rounded to a tenth of a cent: sums of binary fractions drift (0.015 * 3 = 0.045000000000000005).
  const totalUsd =
    Math.round((withUrl * X_PRICES.postWithUrlUsd + plain * X_PRICES.postUsd) * 1000) / 1000;
  return { posts: texts.length, withUrl, totalUsd };
}

/** Dollars as X's prices read: cents, or a tenth of a cent where needed ($0.015, $0.20, $1.23). */
export function formatUsd(value: number) {
  const tenths = Math.round(value * 1000);
  return `$${(tenths / 1000).toFixed(tenths % 10 === 0 ? 2 : 3)}`;
}

/**
 * The composer's line for one X account: what X will charge for the post as it stands
 * (docs/product.md#x-cost). `texts` are the post's text, then its further parts and first comment.
 */
export function xCostSentence(texts: readonly string[]): string {
  const cost = xPostsCost(texts);
  const post = formatUsd(X_PRICES.postUsd);
  const link = formatUsd(X_PRICES.postWithUrlUsd);
  if (cost.posts <= 1)
    return cost.withUrl
      ? `X charges about ${link} for this post because it has a link (${post} without).`
      : `X charges about ${post} for this post (${link} with a link).`;
  const linked =
    cost.withUrl === 0
      ? `each ${post}; ${link} with a link`
      : cost.withUrl === cost.posts
        ? `each ${link} because each has a link`
        : `${cost.withUrl} with a link at ${link}, ${cost.posts - cost.withUrl} at ${post}`;
  return `X charges about ${formatUsd(cost.totalUsd)} for these ${cost.posts} posts (${linked}).`;
}
