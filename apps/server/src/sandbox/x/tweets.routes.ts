import twitterText from 'twitter-text';
import type { FastifyInstance } from 'fastify';
import { sleep } from '../kit/call-knobs.js';
import { avatarDataUrl } from '../kit/consent.js';
import type { KeyedLock } from '../kit/keyed-lock.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import type { XAccess, XCaller } from './access.js';
import { processingInfo } from './media.routes.js';
import {
  X_MEDIA_CATEGORIES,
  X_PUBLISHING,
  xDailyCapped,
  xEscapeText,
  xFailures,
  xRoute,
} from './responses.js';
import { snowflake, type XPublishingStore, type XTweet } from './store.js';

/**
 * `POST /2/tweets` and `DELETE /2/tweets/{id}` (docs/networks.md#x-publishing, #x-comments, #x-sandbox): weighted
 * length (280, or 25,000 for a Premium subscriber: the `premium` knob), up to 4 media that finished processing, duplicates refused, replies (with the
 * "summoned" rule, on unless the reply_open knob lifts it), 100 posts per 15 min per user, the
 * 24-hour cap on demand (daily_cap_next).
 */
export interface XTweetDeps {
  oauth: SandboxOAuth;
  access: XAccess;
  posts: XPublishingStore;
  withLock: KeyedLock;
}

interface CreateBody {
  text?: unknown;
  media?: { media_ids?: unknown };
  reply?: { in_reply_to_tweet_id?: unknown };
  quote_tweet_id?: unknown;
}

const DUPLICATE = 'You are not allowed to create a Tweet with duplicate content.';
const NOT_SUMMONED =
  'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.';

/** Another user's reply, added through `/_emu/comments`. */
export interface XCommentInput {
  target: XTweet;
  fromName: string;
  message: string;
  likes: number;
  authorId: string;
  username: string;
}

export function registerXTweetRoutes(scope: FastifyInstance, deps: XTweetDeps) {
  const { oauth, posts, withLock } = deps;

  /** Media keys of media_ids that can be attached now, or the error X gives. */
  async function attachable(caller: XCaller, raw: unknown, now: number): Promise<string[]> {
    if (raw === undefined) return [];
    const ids = Array.isArray(raw) ? raw : [];
    if (
      !ids.length ||
      ids.length > X_PUBLISHING.maxMediaPerPost ||
      ids.some((i) => typeof i !== 'string')
    )
      throw xFailures.invalid('media.media_ids: size must be between 1 and 4', {
        'media.media_ids': ids.map(String),
      });
    const media = await Promise.all(ids.map((id: string) => posts.getMedia(id)));
    const invalid = ids.filter((id: string, i) => {
      const m = media[i];
      return !m || m.accountId !== caller.account.id || m.finalizedAt === null;
    });
    if (invalid.length)
      throw xFailures.invalid('Your media IDs are invalid.', { 'media.media_ids': invalid });
    const unready = media.filter((m) => {
      const state = processingInfo(m!, now)?.state;
      return state !== undefined && state !== 'succeeded';
    });
    if (unready.length)
      throw xFailures.invalid(
        `Media ${unready.map((m) => m!.id).join(', ')} did not finish processing.`,
        { 'media.media_ids': unready.map((m) => m!.id) },
      );
    if (media.length > 1 && media.some((m) => X_MEDIA_CATEGORIES[m!.category]!.processes))
      throw xFailures.invalid(
        'A post can have one video, one GIF, or up to four images, not a mix.',
        { 'media.media_ids': ids },
      );
    return media.map((m) => m!.key);
  }

  /** The tweet replied to, if the reply is allowed. */
  async function replyTarget(caller: XCaller, raw: unknown) {
    if (raw === undefined) return null;
    const parent = typeof raw === 'string' ? await posts.getTweet(raw) : null;
    if (!parent || parent.deletedAt !== null)
      throw xFailures.forbidden(
        'You attempted to reply to a Tweet that is deleted or not visible to you.',
      );
    const summoned =
      parent.authorId === caller.account.id ||
      parent.text.toLowerCase().includes(`@${caller.account.username.toLowerCase()}`);
    if (!caller.scenario.isOn('reply_open') && !summoned) throw xFailures.forbidden(NOT_SUMMONED);
    return parent;
  }

  /** Refuses the post over the account's cap; otherwise counts it. Under the author's lock. */
  async function countPost(caller: XCaller, now: number) {
    if (await caller.scenario.take('daily_cap_next')) {
      const nowSeconds = Math.ceil(Date.now() / 1000);
      throw xDailyCapped(
        nowSeconds,
        nowSeconds + X_PUBLISHING.dailyCapResetSeconds,
        X_PUBLISHING.postsPerDay,
      );
    }
    const cap = caller.scenario.value('publish_cap') ?? X_PUBLISHING.postsPerWindow;
    const windowMs = X_PUBLISHING.postWindowSeconds * 1000;
    const times = (await posts.postWindow(caller.account.id)).filter((t) => t > now - windowMs);
    if (times.length >= cap) {
      const resetsIn = times[0]! + windowMs - now;
      throw xFailures.rateLimited(Math.ceil((Date.now() + resetsIn) / 1000), cap);
    }
    // Past this many posts a window cannot be reached: nothing to remember.
    if (cap <= 10_000) await posts.savePostWindow(caller.account.id, [...times, now]);
  }

  scope.post(
    '/2/tweets',
    xRoute(async (request, reply) => {
      const caller = await deps.access(request, ['tweet.write', 'tweet.read', 'users.read']);
      const body = (request.body ?? {}) as CreateBody;
      // Quote posts left the self-serve tiers on 2026-04-20 (docs/networks.md#x-what-changed-in-2026).
      if (body.quote_tweet_id !== undefined) throw xFailures.clientNotEnrolled();
      const text = typeof body.text === 'string' ? body.text : '';
      const now = await oauth.now();
      const mediaKeys = await attachable(caller, body.media?.media_ids, now);
      if (!text.trim() && !mediaKeys.length)
        throw xFailures.invalid('You must provide text or media for a post.', { text: [] });
      // X's own counting library (https://docs.x.com/fundamentals/counting-characters).
      const length = twitterText.parseTweet(text).weightedLength;
      const maxLength = caller.scenario.isOn('premium')
        ? X_PUBLISHING.maxWeightedLengthPremium
        : X_PUBLISHING.maxWeightedLength;
      if (length > maxLength)
        throw xFailures.forbidden(
          `Tweet needs to be a bit shorter: ${length} of ${maxLength} weighted characters.`,
        );
      const cashtags = new Set(twitterText.extractCashtags(text).map((c) => c.toUpperCase()));
      if (cashtags.size > X_PUBLISHING.maxCashtags)
        throw xFailures.forbidden(
          `A post created through the API may contain at most ${X_PUBLISHING.maxCashtags} cashtag; this one has ${cashtags.size}.`,
        );
      const parent = await replyTarget(caller, body.reply?.in_reply_to_tweet_id);

      const tweet = await withLock(`author:${caller.account.id}`, async () => {
        const earlier = text.trim() ? await posts.duplicateOf(caller.account.id, text) : null;
        if (earlier && now - earlier.createdAt < X_PUBLISHING.duplicateWindowMs) {
          const still = await posts.getTweet(earlier.tweetId);
          if (still && still.deletedAt === null) throw xFailures.forbidden(DUPLICATE);
        }
        await countPost(caller, now);
        const id = snowflake(now);
        const created: XTweet = {
          id,
          text,
          authorId: caller.account.id,
          author: {
            name: caller.account.name,
            username: caller.account.username,
            pictureUrl: avatarDataUrl(caller.account.name, 203),
          },
          createdAt: now,
          conversationId: parent ? parent.conversationId : id,
          inReplyToTweetId: parent?.id ?? null,
          inReplyToUserId: parent?.authorId ?? null,
          mediaKeys,
          likeCount: 0,
          replyCount: 0,
          viaApi: true,
          deletedAt: null,
        };
        await posts.saveTweet(created);
        if (text.trim()) await posts.rememberText(created);
        return created;
      });
      if (parent) await bumpReplies(parent.id, 1);

      const hangMs = await caller.scenario.takeValue('finalize_timeout');
      if (hangMs !== null) {
        // The post exists; the answer never arrives (docs/networks.md#scenario-knobs finalize_timeout).
        await sleep(hangMs);
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
      return reply.status(201).send({
        data: { id: tweet.id, text: xEscapeText(text), edit_history_tweet_ids: [tweet.id] },
      });
    }),
  );

  async function bumpReplies(id: string, by: number) {
    await withLock(`tweet:${id}`, async () => {
      const tweet = await posts.getTweet(id);
      if (!tweet) return;
      tweet.replyCount = Math.max(0, tweet.replyCount + by);
      await posts.saveTweet(tweet);
    });
  }

  scope.delete(
    '/2/tweets/:id',
    xRoute(async (request) => {
      const caller = await deps.access(request, ['tweet.write', 'tweet.read', 'users.read']);
      const id = (request.params as { id: string }).id;
      const tweet = await posts.getTweet(id);
      if (!tweet || tweet.deletedAt !== null) throw xFailures.notFound(id);
      if (tweet.authorId !== caller.account.id)
        throw xFailures.forbidden('You are not allowed to delete a Tweet that is not yours.');
      tweet.deletedAt = await oauth.now();
      await posts.saveTweet(tweet);
      await posts.forgetText(tweet);
      if (tweet.inReplyToTweetId) await bumpReplies(tweet.inReplyToTweetId, -1);
      return { data: { deleted: true } };
    }),
  );

  /** For `/_emu/comments`: another user's reply, as if posted on X. */
  return {
    async addComment(input: XCommentInput) {
      const now = await oauth.now();
      const id = snowflake(now);
      const comment: XTweet = {
        id,
        text: input.message,
        authorId: input.authorId,
        author: {
          name: input.fromName,
          username: input.username,
          pictureUrl: avatarDataUrl(input.fromName, 40),
        },
        createdAt: now,
        conversationId: input.target.conversationId,
        inReplyToTweetId: input.target.id,
        inReplyToUserId: input.target.authorId,
        mediaKeys: [],
        likeCount: input.likes,
        replyCount: 0,
        viaApi: false,
        deletedAt: null,
      };
      await posts.saveTweet(comment);
      await bumpReplies(input.target.id, 1);
      return comment;
    },
  };
}
