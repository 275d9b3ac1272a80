import { checkDueFeeds, type FeedsDeps } from '../modules/feeds/feed-check.js';
import type { JobDefinition } from './runtime.js';

/**
 * Feeds (docs/feeds.md): every minute, checks the feeds whose next check is due (each feed's
 * own wait is at least FEED_MIN_INTERVAL_MINUTES, longer for its ttl or after failures).
 */
export function feedsCheckJob(deps: FeedsDeps): JobDefinition {
  return {
    queue: 'feeds.check.v1',
    cron: '* * * * *',
    retryLimit: 1,
    async handle() {
      const checked = await checkDueFeeds(deps);
      if (checked > 0) deps.log.info({ checked }, 'feeds checked');
    },
  };
}
