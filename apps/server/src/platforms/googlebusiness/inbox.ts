import { PlatformError } from '../errors.js';
import type {
  InboxAdapter,
  InboxCapabilities,
  InboxMessageEvent,
  InboxPushResult,
} from '../inbox-types.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import { createGbpApi, GBP_REVIEW_NOTIFICATIONS, type GbpReview, type GbpUrls } from './api.js';
import { createGoogleKeys, PushTokenError, readPushNotice, verifyPushToken } from './push.js';
import { v4ParentOf } from './location.js';
import { GBP_INBOX_POLL_MINUTES, GBP_REPLY_MAX_BYTES, GBP_REVIEWS_MAX_PAGES } from './limits.js';

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** The stars a review gave (`FOUR` → 4); null without a rating (`STAR_RATING_UNSPECIFIED`). */
export function ratingOf(starRating: string | undefined): number | null {
  return (starRating && STARS[starRating]) || null;
}

/**
 * A review has at most one reply, replaced by each PUT: the reply's id carries its time, so a
 * replaced reply and its successor are two messages, and the replaced one is marked deleted.
 */
const replyIdOf = (review: string, updateTime: string | undefined) =>
  `${review}/reply@${updateTime ?? ''}`;
/** The review a reply id (or a review id) belongs to. */
export const reviewOf = (externalId: string) => externalId.replace(/\/reply(@.*)?$/, '');
const isReply = (externalId: string) => /\/reply(@.*)?$/.test(externalId);

/**
 * The Google Business Profile inbox (docs/inbox.md#google-business-profile): the location's
 * reviews, read by polling `reviews.list` newest change first until the last change seen (and
 * at once when Google's Pub/Sub notification says a review came or changed: `push.ts`); each
 * review is a conversation of its own, its stars a field beside its words, and the location's
 * reply the answer in it. Replying creates or replaces the reply (`PUT …/reviews/{r}/reply`); deleting our
 * reply removes it (`DELETE …/reply`). Reviews themselves cannot be deleted by the business.
 */
export function createGbpInbox(settings: AdapterSettings<GbpUrls>): InboxAdapter {
  const api = createGbpApi(settings);
  const token = (account: StoredAccount) => account.tokens.accessToken;

  const reviewEvent = (r: GbpReview): InboxMessageEvent => {
    const words = r.comment?.trim() ?? '';
    const name = r.reviewer?.isAnonymous
      ? 'A Google user'
      : (r.reviewer?.displayName ?? 'A Google user');
    return {
      type: 'message',
      kind: 'comment',
      externalId: r.name,
      threadExternalId: r.name,
      direction: 'in',
      author: {
        externalId: `reviewer:${r.reviewId ?? r.name}`,
        name,
        username: null,
        pictureUrl: r.reviewer?.profilePhotoUrl ?? null,
        profileUrl: null,
      },
      text: words,
      rating: ratingOf(r.starRating),
      createdAt: new Date(r.createTime ?? Date.now()),
      attachments: [],
      parentExternalId: null,
      rootPost: null,
      edited: Boolean(r.updateTime && r.createTime && r.updateTime !== r.createTime),
    };
  };

  const replyEvent = (account: StoredAccount, r: GbpReview): InboxMessageEvent => ({
    type: 'message',
    kind: 'comment',
    externalId: replyIdOf(r.name, r.reviewReply?.updateTime),
    threadExternalId: r.name,
    direction: 'out',
    author: {
      externalId: account.externalId,
      name: 'The business',
      username: null,
      pictureUrl: null,
      profileUrl: null,
    },
    text: r.reviewReply?.comment ?? '',
    createdAt: new Date(r.reviewReply?.updateTime ?? Date.now()),
    attachments: [],
    parentExternalId: r.name,
    rootPost: null,
  });

  const push = settings.pubsubPush;
  const keyOf = createGoogleKeys(settings.http, settings.urls.jwksUrl, Date.now);
  /** The Business Profile account of a location: its notification setting is the account's. */
  const ownerOf = (account: StoredAccount) => v4ParentOf(account).replace(/\/locations\/.*$/, '');

  /**
   * Review notifications through Cloud Pub/Sub, when the operator configured a topic: the
   * location's account's one notification setting names Herald's topic and asks for new and
   * updated reviews (the types it already asks for on that topic are kept). Google keeps one
   * setting per account: one naming another topic belongs to another tool of the business, and
   * is left to it; that account's reviews are read every 30 minutes, with a note saying why.
   */
  const pushHalf: Pick<InboxAdapter, 'subscribe' | 'checkSubscription' | 'readPush'> = push
    ? {
        async checkSubscription(account) {
          const setting = await api.notificationSetting(token(account), ownerOf(account));
          return (
            setting?.pubsubTopic === push.topic &&
            GBP_REVIEW_NOTIFICATIONS.every((t) => setting.notificationTypes?.includes(t))
          );
        },
        async subscribe(account) {
          const owner = ownerOf(account);
          const current = await api.notificationSetting(token(account), owner);
          if (current?.pubsubTopic && current.pubsubTopic !== push.topic)
            throw new PlatformError(
              'bad_request',
              `This Business Profile account already sends its notifications to another Pub/Sub topic (${current.pubsubTopic}), probably another tool's. Google keeps one per account, so Herald leaves it as it is; clear it in that tool to have reviews pushed to Herald.`,
            );
          const kept = current?.pubsubTopic === push.topic ? (current.notificationTypes ?? []) : [];
          await api.setNotificationSetting(token(account), owner, {
            pubsubTopic: push.topic,
            notificationTypes: [...new Set([...kept, ...GBP_REVIEW_NOTIFICATIONS])],
          });
        },
        async readPush({ authorization, body }): Promise<InboxPushResult> {
          try {
            await verifyPushToken(authorization, push, keyOf, Date.now());
          } catch (err) {
            if (err instanceof PushTokenError) return { outcome: 'refused', reason: err.message };
            throw err;
          }
          const notice = readPushNotice(body);
          if (notice === null)
            return { outcome: 'ignored', reason: 'The notification is not about a review.' };
          if (typeof notice === 'string') return { outcome: 'malformed', reason: notice };
          return {
            outcome: 'read',
            accountExternalIds: [notice.locationId],
            id: notice.messageId,
          };
        },
      }
    : {};

  return {
    ...pushHalf,
    capabilities: (): InboxCapabilities => ({
      dm: false,
      comments: true,
      mentions: false,
      reviews: true,
      privateReply: false,
      like: false,
      likeUnavailable: 'Google does not let businesses like reviews.',
      hide: false,
      deleteComment: true,
      // A business deletes its answer to a review, never the review.
      deleteOwnRepliesOnly: true,
      block: false,
      dmWindowHours: null,
      humanAgentWindowHours: null,
      // 4,096 bytes: a reply of that many characters in any script stays within them.
      replyMaxLength: Math.floor(GBP_REPLY_MAX_BYTES / 4),
      limitation:
        'Google Business Profile has no messages in its API: its inbox is the location’s reviews. A review has one reply; answering again replaces it.',
      historyNote: null,
      pollIntervalMinutes: GBP_INBOX_POLL_MINUTES,
    }),

    async poll(account, cursor) {
      const since = typeof cursor?.since === 'string' ? Date.parse(cursor.since) : 0;
      const known = (cursor?.replies ?? {}) as Record<string, string>;
      const replies = { ...known };
      const events: InboxMessageEvent[] = [];
      let newest = since;
      let pageToken: string | undefined;
      const parent = v4ParentOf(account);
      read: for (let page = 0; page < GBP_REVIEWS_MAX_PAGES; page++) {
        const body = await api.reviews(token(account), parent, pageToken);
        for (const r of body?.reviews ?? []) {
          const at = Date.parse(r.updateTime ?? r.createTime ?? '') || 0;
          if (at <= since) break read;
          newest = Math.max(newest, at);
          events.push(reviewEvent(r));
          const current = r.reviewReply ? replyIdOf(r.name, r.reviewReply.updateTime) : null;
          const previous = known[r.name];
          // The reply seen before was replaced or removed at Google.
          if (previous && previous !== current)
            events.push({
              ...replyEvent(account, r),
              externalId: previous,
              text: '',
              deleted: true,
            });
          if (current) {
            events.push(replyEvent(account, r));
            replies[r.name] = current;
          } else delete replies[r.name];
        }
        pageToken = body?.nextPageToken;
        if (!pageToken) break;
      }
      return { events, cursor: { since: new Date(newest).toISOString(), replies } };
    },

    async replyToComment(account, thread, commentExternalId, text) {
      const review = reviewOf(commentExternalId ?? thread.threadExternalId);
      const made = await api.putReply(token(account), review, text);
      return {
        externalId: replyIdOf(review, made?.updateTime),
        createdAt: new Date(made?.updateTime ?? Date.now()),
      };
    },

    async findSent(account, thread, text) {
      const review = await api.review(token(account), reviewOf(thread.threadExternalId));
      if (review?.reviewReply?.comment !== text) return null;
      return {
        externalId: replyIdOf(review.name, review.reviewReply.updateTime),
        createdAt: new Date(review.reviewReply.updateTime ?? Date.now()),
      };
    },

    async deleteComment(account, externalId) {
      if (!isReply(externalId))
        throw new PlatformError(
          'bad_request',
          'Google does not let a business delete a review. You can delete your reply to it, or report the review on Google Maps.',
        );
      await api.deleteReply(token(account), reviewOf(externalId));
    },
  };
}
