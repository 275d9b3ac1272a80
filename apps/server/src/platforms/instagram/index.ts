import type { NetworkModule } from '../network-module.js';
import {
  META_PRODUCTION_URLS,
  metaSandboxUrls,
  withGraphVersion,
  type MetaUrls,
} from '../meta/urls.js';
import { createInstagramAdapter } from './adapter.js';
import { createInstagramInbox } from './inbox.js';
import { createInstagramMetrics } from './metrics.js';

export const network: NetworkModule<MetaUrls> = {
  name: 'Instagram',
  slug: 'instagram',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  withApiVersions: withGraphVersion,
  createAdapter: (settings) => ({
    ...createInstagramAdapter(settings),
    metrics: createInstagramMetrics(settings),
    // Human Agent (7-day replies) stays off until Meta grants it (docs/inbox.md).
    inbox: createInstagramInbox(settings),
  }),
};
