import { createHash, randomInt } from 'node:crypto';
import type { SandboxStore } from '../store.js';

/**
 * What the X emulator remembers about publishing, in the sandbox store. Besides the canonical
 * `tweet` record, each tweet is copied into its author's timeline and its conversation, so the
 * timeline and search endpoints read one small kind instead of every tweet ever posted.
 */
export interface XTweet {
  id: string;
  /** As sent; X escapes &, < and > when it answers. */
  text: string;
  authorId: string;
  author: { name: string; username: string; pictureUrl: string };
  createdAt: number;
  conversationId: string;
  inReplyToTweetId: string | null;
  inReplyToUserId: string | null;
  mediaKeys: string[];
  likeCount: number;
  replyCount: number;
  /** Posted through the API by a connected sandbox account (not a comment added by a test). */
  viaApi: boolean;
  deletedAt: number | null;
  /** Hidden by the author of the conversation's root post (`PUT /2/tweets/{id}/hidden`). */
  hidden?: boolean;
}

export interface XMedia {
  id: string;
  key: string;
  accountId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  /** segment_index → bytes received (a segment sent again replaces itself). */
  segments: Record<string, number>;
  createdAt: number;
  finalizedAt: number | null;
  processingMs: number;
  fails: boolean;
  /** Why processing fails, in X's words (the `processing_info.error.message`); absent: the knob's. */
  failure?: string;
  /** The first bytes of segment 0, base64: where a video's duration is written (`moov` first). */
  head?: string;
  /** Set by `POST /2/media/metadata` (docs/product.md#alt-text). */
  altText?: string | null;
}

interface PostWindow {
  /** Times of the posts inside the current rate window, oldest first. */
  times: number[];
}

const X_EPOCH = 1288834974657n;
let sequence = 0;

/** A snowflake id like X's: 41 bits of time, 10 of machine, 12 of sequence; 19 digits today. */
export function snowflake(nowMs: number): string {
  const time = BigInt(Math.floor(nowMs)) - X_EPOCH;
  const machine = BigInt(randomInt(0, 1024));
  sequence = (sequence + 1) & 0xfff;
  return ((time << 22n) | (machine << 12n) | BigInt(sequence)).toString();
}

/** Newest first, comparing snowflakes as numbers. */
export const byIdDescending = (a: { id: string }, b: { id: string }) =>
  b.id.length - a.id.length || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A stable 19-digit id for someone who only exists as a commenter. */
export function stableUserId(seed: string): string {
  const digits = [...createHash('sha256').update(`x-user:${seed}`).digest()]
    .map((b) => String(b % 10))
    .join('');
  return `1${digits.slice(0, 18)}`;
}

const duplicateKey = (authorId: string, text: string) =>
  createHash('sha256').update(`${authorId}\n${text.trim()}`).digest('hex');

export function createXPublishingStore(store: SandboxStore) {
  const timelineKind = (authorId: string) => `timeline:${authorId}`;
  const conversationKind = (conversationId: string) => `conversation:${conversationId}`;
  const isReply = (t: XTweet) => t.conversationId !== t.id;

  return {
    getTweet: (id: string) => store.get<XTweet>('tweet', id),

    /** Writes the tweet and its copies (timeline, conversation); deleted tweets leave both. */
    async saveTweet(tweet: XTweet) {
      await store.put('tweet', tweet.id, tweet);
      if (tweet.deletedAt !== null) {
        await store.delete(timelineKind(tweet.authorId), tweet.id);
        if (isReply(tweet)) await store.delete(conversationKind(tweet.conversationId), tweet.id);
        return;
      }
      await store.put(timelineKind(tweet.authorId), tweet.id, tweet);
      if (isReply(tweet)) await store.put(conversationKind(tweet.conversationId), tweet.id, tweet);
    },

    /** The author's live tweets, newest first. */
    async timeline(authorId: string): Promise<XTweet[]> {
      return (await store.list<XTweet>(timelineKind(authorId)))
        .map((r) => r.data)
        .sort(byIdDescending);
    },

    /** Live replies of every depth in a conversation, newest first. */
    async conversation(conversationId: string): Promise<XTweet[]> {
      return (await store.list<XTweet>(conversationKind(conversationId)))
        .map((r) => r.data)
        .sort(byIdDescending);
    },

    /** Every tweet ever posted, deleted ones included (for `/_emu/posts`). */
    async allTweets(): Promise<XTweet[]> {
      return (await store.list<XTweet>('tweet')).map((r) => r.data);
    },

    async duplicateOf(authorId: string, text: string) {
      return store.get<{ tweetId: string; createdAt: number }>(
        'duplicate',
        duplicateKey(authorId, text),
      );
    },
    rememberText: (tweet: XTweet) =>
      store.put('duplicate', duplicateKey(tweet.authorId, tweet.text), {
        tweetId: tweet.id,
        createdAt: tweet.createdAt,
      }),
    forgetText: (tweet: XTweet) =>
      store.delete('duplicate', duplicateKey(tweet.authorId, tweet.text)),

    getMedia: (id: string) => store.get<XMedia>('media', id),
    putMedia: (media: XMedia) => store.put('media', media.id, media),

    async postWindow(authorId: string): Promise<number[]> {
      return (await store.get<PostWindow>('post_window', authorId))?.times ?? [];
    },
    savePostWindow: (authorId: string, times: number[]) =>
      store.put('post_window', authorId, { times } satisfies PostWindow),
  };
}

export type XPublishingStore = ReturnType<typeof createXPublishingStore>;
