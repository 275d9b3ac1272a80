import type {
  InboxAdapter,
  InboxCapabilities,
  InboxCursor,
  InboxMessageEvent,
} from '../inbox-types.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import { createLinkedInComments } from './comments.js';
import { LINKEDIN_COMMENTS_PAGE_MAX, LINKEDIN_FINALIZE_TIMEOUT_MS } from './limits.js';
import { createLinkedInPublishApi, type LinkedInCommentElement } from './publish-api.js';
import type { LinkedInUrls } from './urls.js';

/**
 * LinkedIn's inbox (docs/inbox.md#linkedin-and-tiktok): no direct messages (the Messages API is for
 * approved partners only); for a Page, the comments on its recent posts by polling
 * `/rest/posts?q=author` and `/rest/socialActions/{post}/comments`, answered as the Page. A
 * member's own posts give nothing: reading their comments needs restricted access.
 */
export const LINKEDIN_INBOX_POSTS_PER_POLL = 10;
export const LINKEDIN_INBOX_POLL_MINUTES = 10;
/** LinkedIn's longest comment. */
export const LINKEDIN_COMMENT_MAX = 1250;
export const LINKEDIN_PAGE_LIMITATION =
  'LinkedIn has no API for messages to Pages, so only comments on the Page’s posts and mentions of the Page appear here.';
export const LINKEDIN_MEMBER_LIMITATION =
  'LinkedIn lets only approved partners read messages and the comments on a member’s own posts, so this profile has nothing in the inbox.';
const MEMBER = 'LinkedIn member';

const isPage = (account: StoredAccount) => account.externalId.startsWith('urn:li:organization:');

interface LinkedInInboxCursor {
  at?: number;
  atIds?: string[];
  /** Organization notifications: the newest `lastModifiedAt` read, and the ids read at it. */
  mentionsAt?: number;
  mentionIds?: string[];
}

/** Notifications read per page, and pages per poll (the rest waits for the next poll). */
const NOTIFICATIONS_PAGE = 50;
const NOTIFICATIONS_PAGES_PER_POLL = 4;
/** LinkedIn keeps an organization's notifications for 60 days: the first import reads them all. */
export const LINKEDIN_NOTIFICATION_DAYS = 60;

export function createLinkedInInbox(settings: AdapterSettings<LinkedInUrls>): InboxAdapter {
  const api = createLinkedInPublishApi(settings);
  const comments = createLinkedInComments({ api, finalizeTimeoutMs: LINKEDIN_FINALIZE_TIMEOUT_MS });
  const token = (account: StoredAccount) => account.tokens.accessToken;

  /** Every comment under a post, replies included (one level, as LinkedIn nests them). */
  async function commentsOf(account: StoredAccount, post: string) {
    const top =
      (await api.comments(token(account), post, 0, LINKEDIN_COMMENTS_PAGE_MAX)).elements ?? [];
    const all: LinkedInCommentElement[] = [...top];
    for (const c of top)
      if ((c.commentsSummary?.totalFirstLevelComments ?? 0) > 0 && c.commentUrn)
        all.push(
          ...((await api.comments(token(account), c.commentUrn, 0, LINKEDIN_COMMENTS_PAGE_MAX))
            .elements ?? []),
        );
    return all;
  }

  function toEvent(
    c: LinkedInCommentElement,
    account: StoredAccount,
    post: { id: string; text: string | null },
  ): InboxMessageEvent {
    const actor = c.actor ?? '';
    const own = actor === account.externalId;
    const ownName = typeof account.extra.name === 'string' ? account.extra.name : null;
    return {
      type: 'message',
      kind: 'comment',
      externalId: c.commentUrn ?? c.id ?? '',
      threadExternalId: post.id,
      direction: own ? 'out' : 'in',
      // LinkedIn answers URNs only; members' names are not readable through the API.
      author: {
        externalId: actor,
        name: own ? ownName : MEMBER,
        username: null,
        pictureUrl: null,
        profileUrl: null,
      },
      text: c.message?.text ?? '',
      createdAt: new Date(c.created?.time ?? Date.now()),
      attachments: [],
      parentExternalId: c.parentComment ?? null,
      rootPost: {
        externalId: post.id,
        permalink: `https://www.linkedin.com/feed/update/${post.id}/`,
        text: post.text,
      },
    };
  }

  /**
   * Mentions of the organization, from its notifications (`SHARE_MENTION`): each is its own
   * conversation, keyed by the post that mentions it, which the Page can answer in a comment.
   * Ids read at the newest time are kept so a poll that looks again from that time stores
   * nothing twice.
   */
  async function mentionsOf(account: StoredAccount, state: LinkedInInboxCursor) {
    const since = state.mentionsAt ?? Date.now() - LINKEDIN_NOTIFICATION_DAYS * 24 * 3_600_000;
    const seen = new Set(state.mentionIds ?? []);
    const events: InboxMessageEvent[] = [];
    let newest = state.mentionsAt;
    let ids = new Set(state.mentionIds ?? []);
    for (let page = 0; page < NOTIFICATIONS_PAGES_PER_POLL; page++) {
      const answer = await api.organizationNotifications(
        token(account),
        account.externalId,
        ['SHARE_MENTION'],
        since,
        page * NOTIFICATIONS_PAGE,
        NOTIFICATIONS_PAGE,
      );
      const elements = answer.elements ?? [];
      for (const n of elements) {
        const share = n.decoratedGeneratedActivity?.share;
        const post = share?.entity ?? n.generatedActivity ?? n.sourcePost;
        const at = n.lastModifiedAt;
        if (!post || at === undefined || n.action !== 'SHARE_MENTION') continue;
        if (state.mentionsAt !== undefined && at === state.mentionsAt && seen.has(post)) continue;
        if (newest === undefined || at > newest) {
          newest = at;
          ids = new Set([post]);
        } else if (at === newest) ids.add(post);
        const permalink = `https://www.linkedin.com/feed/update/${post}/`;
        events.push({
          type: 'message',
          kind: 'mention',
          externalId: post,
          threadExternalId: post,
          direction: 'in',
          author: {
            externalId: share?.owner ?? '',
            name: MEMBER,
            username: null,
            pictureUrl: null,
            profileUrl: null,
          },
          text: share?.text ?? 'Mentioned the Page in a post.',
          createdAt: new Date(at),
          attachments: [],
          parentExternalId: null,
          rootPost: { externalId: post, permalink, text: share?.text ?? null },
        });
      }
      if (elements.length < NOTIFICATIONS_PAGE) break;
    }
    return { events, mentionsAt: newest, mentionIds: [...ids] };
  }

  return {
    capabilities(account): InboxCapabilities {
      const page = isPage(account);
      return {
        dm: false,
        comments: page,
        mentions: page,
        privateReply: false,
        like: false,
        hide: false,
        deleteComment: false,
        block: false,
        dmWindowHours: null,
        humanAgentWindowHours: null,
        replyMaxLength: LINKEDIN_COMMENT_MAX,
        limitation: page ? LINKEDIN_PAGE_LIMITATION : LINKEDIN_MEMBER_LIMITATION,
        historyNote: page
          ? `Herald reads the comments on the Page’s ${LINKEDIN_INBOX_POSTS_PER_POLL} most recent posts, and mentions of the Page from the last ${LINKEDIN_NOTIFICATION_DAYS} days.`
          : null,
        pollIntervalMinutes: page ? LINKEDIN_INBOX_POLL_MINUTES : 1440,
      };
    },

    async poll(account, cursor) {
      if (!isPage(account)) return { events: [], cursor: cursor ?? {} };
      const state = (cursor ?? {}) as LinkedInInboxCursor;
      const posts =
        (await api.postsBy(token(account), account.externalId, LINKEDIN_INBOX_POSTS_PER_POLL))
          .elements ?? [];
      const events: InboxMessageEvent[] = [];
      for (const post of posts)
        for (const c of await commentsOf(account, post.id))
          events.push(toEvent(c, account, { id: post.id, text: post.commentary ?? null }));
      const seen = new Set(state.atIds ?? []);
      const at = state.at;
      const fresh = events.filter((e) => {
        const t = e.createdAt.getTime();
        return at === undefined || t > at || (t === at && !seen.has(e.externalId));
      });
      let newest = at;
      let ids = new Set(state.atIds ?? []);
      for (const e of fresh) {
        const t = e.createdAt.getTime();
        if (newest === undefined || t > newest) {
          newest = t;
          ids = new Set([e.externalId]);
        } else if (t === newest) ids.add(e.externalId);
      }
      const mentions = await mentionsOf(account, state);
      const next: LinkedInInboxCursor = {
        at: newest,
        atIds: [...ids],
        ...(mentions.mentionsAt !== undefined
          ? { mentionsAt: mentions.mentionsAt, mentionIds: mentions.mentionIds }
          : {}),
      };
      return { events: [...fresh, ...mentions.events], cursor: next as InboxCursor };
    },

    async replyToComment(account, thread, commentExternalId, text) {
      const root = thread.rootPostExternalId ?? thread.threadExternalId;
      const sent = await comments.reply!(
        account,
        { externalId: root, commentId: commentExternalId ?? '' },
        text,
      );
      return { externalId: sent.id, createdAt: new Date(sent.createdTime) };
    },

    async findSent(account, thread, text, since) {
      const root = thread.rootPostExternalId ?? thread.threadExternalId;
      const after = since.getTime() - 60_000;
      const hit = (await commentsOf(account, root)).find(
        (c) =>
          c.actor === account.externalId &&
          c.message?.text === text &&
          (c.created?.time ?? 0) >= after,
      );
      return hit
        ? {
            externalId: hit.commentUrn ?? hit.id ?? '',
            createdAt: new Date(hit.created?.time ?? Date.now()),
          }
        : null;
    },
  };
}
