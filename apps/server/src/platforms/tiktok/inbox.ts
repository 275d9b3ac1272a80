import type { InboxAdapter, InboxCapabilities } from '../inbox-types.js';

/**
 * TikTok's inbox (docs/inbox.md#linkedin-and-tiktok): Herald's Login Kit and Content Posting app
 * can read neither direct messages nor comments; those need TikTok's API for Business, a second app
 * and sign-in. The account is listed with this sentence, and a poll finds nothing.
 */
export const TIKTOK_INBOX_LIMITATION =
  'TikTok does not let apps like Herald read direct messages or comments, so this account has nothing in the inbox.';

export function createTikTokInbox(): InboxAdapter {
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
        replyMaxLength: 150,
        limitation: TIKTOK_INBOX_LIMITATION,
        historyNote: null,
        // Nothing to read: once a day keeps the scheduler's bookkeeping without calling TikTok.
        pollIntervalMinutes: 1440,
      };
    },
    poll: async (_account, cursor) => ({ events: [], cursor: cursor ?? {} }),
  };
}
