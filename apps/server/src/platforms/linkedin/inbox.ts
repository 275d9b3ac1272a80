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
 * LinkedIn's inbox (docs/inbox.md#linkedin-and-tiktok, inbox-and-analytics-apis.md §6): no direct
 * messages (the Messages API is for approved partners only); for a Page, the comments on its
 * recent posts by polling `/rest/posts?q=author` and `/rest/socialActions/{post}/comments`, answered
 * as the Page. A member's own posts give nothing: reading their comments needs restricted access.
 */
export const LINKEDIN_INBOX_POSTS_PER_POLL = 10;
export const LINKEDIN_INBOX_POLL_MINUTES = 10;
/** LinkedIn's longest comment. */
export const LINKEDIN_COMMENT_MAX = 1250;
export const LINKEDIN_PAGE_LIMITATION =
  'LinkedIn has no API for messages to Pages, so only comments on the Page’s posts appear here.';
export const LINKEDIN_MEMBER_LIMITATION =
  'LinkedIn lets only approved partners read messages and the comments on a member’s own posts, so this profile has nothing in the inbox.';
const MEMBER = 'LinkedIn member';

const isPage = (account: StoredAccount) => account.externalId.startsWith('urn:li:organization:');

interface LinkedInInboxCursor {
  at?: number;
  atIds?: string[];
}

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

  return {
    capabilities(account): InboxCapabilities {
      const page = isPage(account);
      return {
        dm: false,
        comments: page,
        mentions: false,
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
          ? `Herald reads the comments on the Page’s ${LINKEDIN_INBOX_POSTS_PER_POLL} most recent posts.`
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
      const next: LinkedInInboxCursor = { at: newest, atIds: [...ids] };
      return { events: fresh, cursor: next as InboxCursor };
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
