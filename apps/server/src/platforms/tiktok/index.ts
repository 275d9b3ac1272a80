import type { NetworkModule } from '../network-module.js';
import { TIKTOK_SETUP, tiktokTokenProbe } from './setup.js';
import { createTikTokAdapter } from './adapter.js';
import { createTikTokInbox } from './inbox.js';
import { createTikTokMetrics } from './metrics.js';
import type { TikTokUrls } from './api.js';

export const network: NetworkModule<TikTokUrls, 'TikTok'> = {
  name: 'TikTok',
  slug: 'tiktok',
  productionUrls: {
    authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
    apiBase: 'https://open.tiktokapis.com',
  },
  sandboxUrls: (base) => ({ authorizeUrl: `${base}/v2/auth/authorize/`, apiBase: base }),
  publishCaps: { concurrency: 2 },
  setup: TIKTOK_SETUP,
  tokenProbe: tiktokTokenProbe,
  // Photo posts are PULL_FROM_URL (videos are uploaded).
  pullsMediaByUrl: true,
  webhookReceiver: null,
  createAdapter: (settings) => ({
    ...createTikTokAdapter(settings),
    metrics: createTikTokMetrics(settings),
    inbox: createTikTokInbox(),
  }),
};
