import type { NetworkModule } from '../network-module.js';
import { META_PRODUCTION_URLS, metaSandboxUrls, type MetaUrls } from '../meta/urls.js';
import { createInstagramAdapter } from './adapter.js';
import { createInstagramMetrics } from './metrics.js';

export const network: NetworkModule<MetaUrls> = {
  name: 'Instagram',
  slug: 'instagram',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  createAdapter: (settings) => ({
    ...createInstagramAdapter(settings),
    metrics: createInstagramMetrics(settings),
  }),
};
