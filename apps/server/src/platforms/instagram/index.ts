import type { NetworkModule } from '../network-module.js';
import { META_PRODUCTION_URLS, metaSandboxUrls, type MetaUrls } from '../meta/urls.js';
import { createInstagramAdapter } from './adapter.js';

export const network: NetworkModule<MetaUrls> = {
  name: 'Instagram',
  slug: 'instagram',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  createAdapter: createInstagramAdapter,
};
