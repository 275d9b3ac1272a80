import type { NetworkModule } from '../network-module.js';
import { META_PRODUCTION_URLS, metaSandboxUrls, type MetaUrls } from '../meta/urls.js';
import { createFacebookAdapter } from './adapter.js';
import { createFacebookMetrics } from './metrics.js';

export const network: NetworkModule<MetaUrls> = {
  name: 'Facebook',
  slug: 'facebook',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  createAdapter: (settings) => ({
    ...createFacebookAdapter(settings),
    metrics: createFacebookMetrics(settings),
  }),
};
