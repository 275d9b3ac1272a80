import type { NetworkModule } from '../network-module.js';
import { META_PRODUCTION_URLS, metaSandboxUrls, type MetaUrls } from '../meta/urls.js';
import { createFacebookAdapter } from './adapter.js';

export const network: NetworkModule<MetaUrls> = {
  name: 'Facebook',
  slug: 'facebook',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  createAdapter: createFacebookAdapter,
};
