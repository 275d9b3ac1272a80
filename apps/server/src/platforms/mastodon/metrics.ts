import { sumPresent, pickNumbers, type AdapterSettings, type MetricsAdapter } from '../types.js';
import { createMastodonApi, instanceOf, type MastodonUrls } from './api.js';

/**
 * Mastodon's counts (docs/networks.md#mastodon-metrics): a status's favourites, boosts, quotes
 * (shares with boosts, as Bluesky's reposts and quotes) and replies, and the account's followers. Servers count no views.
 */
export function createMastodonMetrics(settings: AdapterSettings<MastodonUrls>): MetricsAdapter {
  const api = createMastodonApi(settings);
  return {
    billedReads: false,
    async postMetrics(account, post) {
      const status = await api.status(
        instanceOf(account),
        account.tokens.accessToken,
        post.externalId,
      );
      const raw = pickNumbers({
        favourites_count: status.favourites_count,
        reblogs_count: status.reblogs_count,
        replies_count: status.replies_count,
        quotes_count: status.quotes_count,
      });
      const likes = raw.favourites_count;
      const shares = sumPresent(raw.reblogs_count, raw.quotes_count);
      const comments = raw.replies_count;
      const interactions = sumPresent(likes, shares, comments);
      return {
        ...(likes !== undefined ? { likes } : {}),
        ...(shares !== undefined ? { shares } : {}),
        ...(comments !== undefined ? { comments } : {}),
        ...(interactions !== undefined ? { interactions } : {}),
        raw,
      };
    },
    async accountMetrics(account) {
      const me = await api.me(instanceOf(account), account.tokens.accessToken);
      const raw = pickNumbers({ followers_count: me.followers_count });
      return {
        ...(raw.followers_count !== undefined ? { followers: raw.followers_count } : {}),
        raw,
      };
    },
  };
}
