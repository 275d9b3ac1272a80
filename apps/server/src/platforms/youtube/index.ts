import type { NetworkModule } from '../network-module.js';
import { createYouTubeAdapter } from './adapter.js';
import type { YouTubeUrls } from './api.js';
import { createYouTubeInbox } from './inbox.js';
import { YOUTUBE_CONCURRENCY } from './limits.js';
import { createYouTubeMetrics } from './metrics.js';
import { YOUTUBE_SETUP, youtubeTokenProbe } from './setup.js';

export const network: NetworkModule<YouTubeUrls, 'YouTube'> = {
  name: 'YouTube',
  slug: 'youtube',
  productionUrls: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    revokeUrl: 'https://oauth2.googleapis.com/revoke',
    apiBase: 'https://www.googleapis.com/youtube/v3',
    uploadBase: 'https://www.googleapis.com/upload/youtube/v3',
  },
  sandboxUrls: (base) => ({
    authorizeUrl: `${base}/o/oauth2/v2/auth`,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    apiBase: `${base}/youtube/v3`,
    uploadBase: `${base}/upload/youtube/v3`,
  }),
  publishCaps: { concurrency: YOUTUBE_CONCURRENCY },
  setup: YOUTUBE_SETUP,
  tokenProbe: youtubeTokenProbe,
  // Videos and thumbnails are uploaded (resumable upload, thumbnails.set).
  pullsMediaByUrl: false,
  webhookReceiver: null,
  createAdapter: (settings) => ({
    ...createYouTubeAdapter(settings),
    metrics: createYouTubeMetrics(settings),
    inbox: createYouTubeInbox(settings),
  }),
};
