import { grownCount } from '../kit/growth.js';
import { xEscapeText } from './responses.js';
import type { XTweet } from './store.js';

/** Field lists of a request (`tweet.fields=a,b`, `expansions=…`). */
export const fieldList = (value: unknown) =>
  new Set(
    String(value ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean),
  );

/** A tweet as X answers it: id, text and edit history always, the rest when asked for. */
/**
 * A tweet with the requested fields. With `viewer` and `now` (the emulator's clock), its metrics
 * grow with the post's age (docs/analytics.md#sandbox); non-public metrics go to its author only,
 * for posts up to 30 days old, as on X.
 */
export function renderTweet(
  tweet: XTweet,
  fields: Set<string>,
  clock?: { now: number; viewer: string },
) {
  const age = clock ? clock.now - tweet.createdAt : 0;
  const grown = (metric: string, scale: number) =>
    clock ? grownCount(tweet.id, metric, age, scale) : 0;
  const out: Record<string, unknown> = {
    id: tweet.id,
    text: xEscapeText(tweet.text),
    edit_history_tweet_ids: [tweet.id],
  };
  if (fields.has('author_id')) out.author_id = tweet.authorId;
  if (fields.has('created_at')) out.created_at = new Date(tweet.createdAt).toISOString();
  if (fields.has('conversation_id')) out.conversation_id = tweet.conversationId;
  if (fields.has('in_reply_to_user_id') && tweet.inReplyToUserId)
    out.in_reply_to_user_id = tweet.inReplyToUserId;
  if (fields.has('referenced_tweets') && tweet.inReplyToTweetId)
    out.referenced_tweets = [{ type: 'replied_to', id: tweet.inReplyToTweetId }];
  if (fields.has('attachments') && tweet.mediaKeys.length)
    out.attachments = { media_keys: tweet.mediaKeys };
  if (fields.has('public_metrics'))
    out.public_metrics = {
      retweet_count: grown('retweet_count', 6),
      reply_count: tweet.replyCount,
      like_count: tweet.likeCount + grown('like_count', 40),
      quote_count: grown('quote_count', 2),
      bookmark_count: grown('bookmark_count', 5),
      impression_count: grown('impression_count', 1500),
    };
  if (
    fields.has('non_public_metrics') &&
    clock &&
    clock.viewer === tweet.authorId &&
    age < 30 * 86_400_000
  )
    out.non_public_metrics = {
      impression_count: grown('impression_count', 1500),
      url_link_clicks: grown('url_link_clicks', 20),
      user_profile_clicks: grown('user_profile_clicks', 10),
      engagements: grown('engagements', 90),
    };
  return out;
}

/** `includes.users` for `expansions=author_id`: each author once. */
export function includedUsers(tweets: XTweet[], userFields: Set<string>) {
  const users = new Map<string, Record<string, unknown>>();
  for (const t of tweets) {
    if (users.has(t.authorId)) continue;
    users.set(t.authorId, {
      id: t.authorId,
      name: t.author.name,
      username: t.author.username,
      ...(userFields.has('profile_image_url') ? { profile_image_url: t.author.pictureUrl } : {}),
    });
  }
  return [...users.values()];
}

/** `next_token`: where the next page starts, opaque to the client. */
export const pageToken = (id: string) => Buffer.from(`after:${id}`).toString('base64url');
export const pageStart = (token: unknown) => {
  if (typeof token !== 'string' || !token) return null;
  const decoded = Buffer.from(token, 'base64url').toString();
  return decoded.startsWith('after:') ? decoded.slice(6) : undefined;
};

/** One page of tweets (newest first) after the token's id, with X's `meta`. */
export function pageOf<T extends { id: string }>(tweets: T[], max: number, token: unknown) {
  const after = pageStart(token);
  // The first tweet older than the last one sent (which may have been deleted since).
  const older = (id: string) =>
    !!after && (id.length < after.length || (id.length === after.length && id < after));
  const start = after
    ? Math.max(
        0,
        tweets.findIndex((t) => older(t.id)),
      )
    : 0;
  if (after && !tweets.some((t) => older(t.id))) return { page: [], meta: { result_count: 0 } };
  const page = tweets.slice(start, start + max);
  const more = start + max < tweets.length;
  return {
    page,
    meta: {
      result_count: page.length,
      ...(page.length ? { newest_id: page[0]!.id, oldest_id: page.at(-1)!.id } : {}),
      ...(more && page.length ? { next_token: pageToken(page.at(-1)!.id) } : {}),
    },
  };
}
