import { type MetricsAdapter, type PostMetricValues, pickNumbers, sumPresent } from '../types.js';
import type { BlueskyApi, PostView } from './api.js';
import { BLUESKY_LIMITS } from './limits.js';

function valuesOf(post: PostView): PostMetricValues {
  const raw = pickNumbers({
    likeCount: post.likeCount,
    repostCount: post.repostCount,
    replyCount: post.replyCount,
    quoteCount: post.quoteCount,
  });
  const likes = raw.likeCount;
  const shares = sumPresent(raw.repostCount, raw.quoteCount);
  const comments = raw.replyCount;
  const interactions = sumPresent(likes, shares, comments);
  return {
    ...(likes !== undefined ? { likes } : {}),
    ...(shares !== undefined ? { shares } : {}),
    ...(comments !== undefined ? { comments } : {}),
    ...(interactions !== undefined ? { interactions } : {}),
    raw,
  };
}

/**
 * Bluesky's counts (docs/networks.md#bluesky-metrics), from the AppView: a post's likes, reposts,
 * quotes (shares) and replies (`app.bsky.feed.getPosts`, 25 at once), and the account's followers
 * (`app.bsky.actor.getProfile`). Bluesky counts no views.
 */
export function createBlueskyMetrics(api: BlueskyApi): MetricsAdapter {
  return {
    billedReads: false,
    batchSize: BLUESKY_LIMITS.postsPerRead,
    async postMetrics(_account, post) {
      const { posts } = await api.posts([post.externalId]);
      return posts[0] ? valuesOf(posts[0]) : null;
    },
    async postMetricsBatch(_account, posts) {
      const { posts: found } = await api.posts(posts.map((p) => p.externalId));
      return new Map(found.map((p) => [p.uri, valuesOf(p)]));
    },
    async accountMetrics(account) {
      const profile = await api.profile(account.externalId);
      const raw = pickNumbers({ followersCount: profile.followersCount });
      return {
        ...(raw.followersCount !== undefined ? { followers: raw.followersCount } : {}),
        raw,
      };
    },
  };
}
