import {
  pickNumbers,
  sumPresent,
  type AdapterSettings,
  type MetricsAdapter,
  type PostMetricValues,
} from '../types.js';
import { createYouTubeApi, type YouTubeUrls, type YouTubeVideo } from './api.js';
import { YOUTUBE_STATS_BATCH } from './limits.js';

const count = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** A video's statistics in Herald's names; YouTube keeps dislikes private. */
function valuesOf(video: YouTubeVideo): PostMetricValues {
  const s = video.statistics ?? {};
  const raw = pickNumbers({
    viewCount: count(s.viewCount),
    likeCount: count(s.likeCount),
    commentCount: count(s.commentCount),
    favoriteCount: count(s.favoriteCount),
  });
  const interactions = sumPresent(raw.likeCount, raw.commentCount);
  return {
    ...(raw.viewCount !== undefined ? { views: raw.viewCount, videoViews: raw.viewCount } : {}),
    ...(raw.likeCount !== undefined ? { likes: raw.likeCount } : {}),
    ...(raw.commentCount !== undefined ? { comments: raw.commentCount } : {}),
    ...(interactions !== undefined ? { interactions } : {}),
    raw,
  };
}

/**
 * YouTube's counts (docs/networks.md#youtube-metrics): `videos.list?part=statistics` for up to
 * 50 videos in one call (1 unit), and the channel's subscribers and views (`channels.list`).
 */
export function createYouTubeMetrics(settings: AdapterSettings<YouTubeUrls>): MetricsAdapter {
  const api = createYouTubeApi(settings);
  return {
    billedReads: false,
    batchSize: YOUTUBE_STATS_BATCH,
    async postMetrics(account, post) {
      const [video] = await api.videos(account.tokens.accessToken, [post.externalId], 'statistics');
      return video ? valuesOf(video) : null;
    },
    async postMetricsBatch(account, posts) {
      const videos = await api.videos(
        account.tokens.accessToken,
        posts.map((p) => p.externalId),
        'statistics',
      );
      return new Map(videos.map((v) => [v.id, valuesOf(v)]));
    },
    async accountMetrics(account) {
      const channel = (await api.myChannels(account.tokens.accessToken)).find(
        (c) => c.id === account.externalId,
      );
      if (!channel) return null;
      const raw = pickNumbers({
        subscriberCount: count(channel.statistics?.subscriberCount),
        viewCount: count(channel.statistics?.viewCount),
      });
      return {
        ...(raw.subscriberCount !== undefined ? { followers: raw.subscriberCount } : {}),
        ...(raw.viewCount !== undefined ? { views: raw.viewCount } : {}),
        raw,
      };
    },
  };
}
