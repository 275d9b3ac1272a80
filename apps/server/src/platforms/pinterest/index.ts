import type { NetworkModule } from '../network-module.js';
import { createPinterestAdapter } from './adapter.js';
import type { PinterestUrls } from './api.js';
import { createPinterestInbox } from './inbox.js';
import { PINTEREST_CONCURRENCY } from './limits.js';
import { createPinterestMetrics } from './metrics.js';
import { PINTEREST_SETUP, pinterestTokenProbe } from './setup.js';

export const network: NetworkModule<PinterestUrls, 'Pinterest'> = {
  name: 'Pinterest',
  slug: 'pinterest',
  productionUrls: {
    authorizeUrl: 'https://www.pinterest.com/oauth/',
    apiBase: 'https://api.pinterest.com/v5',
  },
  sandboxUrls: (base) => ({ authorizeUrl: `${base}/oauth/`, apiBase: `${base}/v5` }),
  publishCaps: { concurrency: PINTEREST_CONCURRENCY },
  setup: PINTEREST_SETUP,
  tokenProbe: pinterestTokenProbe,
  // Images go as base64 in the pin, videos are uploaded (POST /v5/media).
  pullsMediaByUrl: false,
  webhookReceiver: null,
  createAdapter: (settings) => ({
    ...createPinterestAdapter(settings),
    metrics: createPinterestMetrics(settings),
    inbox: createPinterestInbox(),
  }),
};
