import type { InboxAdapter, InboxCapabilities } from '../inbox-types.js';

/**
 * Pinterest's inbox (docs/inbox.md#linkedin-and-tiktok): API v5 has no endpoint for comments,
 * messages or mentions, so the account is listed with this sentence and a poll finds nothing.
 */
export const PINTEREST_INBOX_LIMITATION =
  'Pinterest does not let apps read messages or comments, so this account has nothing in the inbox.';

export function createPinterestInbox(): InboxAdapter {
  return {
    capabilities(): InboxCapabilities {
      return {
        dm: false,
        comments: false,
        mentions: false,
        privateReply: false,
        like: false,
        hide: false,
        deleteComment: false,
        block: false,
        dmWindowHours: null,
        humanAgentWindowHours: null,
        replyMaxLength: 500,
        limitation: PINTEREST_INBOX_LIMITATION,
        historyNote: null,
        // Nothing to read: once a day keeps the scheduler's bookkeeping without calling Pinterest.
        pollIntervalMinutes: 1440,
      };
    },
    poll: async (_account, cursor) => ({ events: [], cursor: cursor ?? {} }),
  };
}
