import type { NetworkModule } from '../network-module.js';
import {
  META_PRODUCTION_URLS,
  metaSandboxUrls,
  withGraphVersion,
  type MetaUrls,
} from '../meta/urls.js';
import { createFacebookAdapter } from './adapter.js';
import { createFacebookInbox } from './inbox.js';
import { createFacebookMetrics } from './metrics.js';

export const network: NetworkModule<MetaUrls> = {
  name: 'Facebook',
  slug: 'facebook',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  withApiVersions: withGraphVersion,
  createAdapter: (settings) => ({
    ...createFacebookAdapter(settings),
    metrics: createFacebookMetrics(settings),
    // Human Agent (7-day replies) stays off until Meta grants it (docs/inbox.md).
    inbox: createFacebookInbox(settings),
  }),
};
