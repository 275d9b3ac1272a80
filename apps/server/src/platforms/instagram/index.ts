import type { NetworkModule } from '../network-module.js';
import { INSTAGRAM_SETUP, metaTokenProbe } from '../meta/setup.js';
import { metaWebhookReceiver } from '../meta/webhooks.js';
import { INSTAGRAM_PUBLISH_CAPS } from './limits.js';
import {
  META_PRODUCTION_URLS,
  metaSandboxUrls,
  withGraphVersion,
  type MetaUrls,
} from '../meta/urls.js';
import { createInstagramAdapter } from './adapter.js';
import { createInstagramInbox } from './inbox.js';
import { createInstagramMetrics } from './metrics.js';

export const network: NetworkModule<MetaUrls, 'Instagram'> = {
  name: 'Instagram',
  slug: 'instagram',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  withApiVersions: withGraphVersion,
  publishCaps: {
    concurrency: 4,
    perAccount: INSTAGRAM_PUBLISH_CAPS.concurrentPerAccount,
    perDay: INSTAGRAM_PUBLISH_CAPS.postsPer24h,
  },
  setup: INSTAGRAM_SETUP,
  tokenProbe: metaTokenProbe,
  // Containers name their media by `image_url` / `video_url`.
  pullsMediaByUrl: true,
  webhookReceiver: metaWebhookReceiver,
  sharedApp: 'meta',
  createAdapter: (settings) => ({
    ...createInstagramAdapter(settings),
    metrics: createInstagramMetrics(settings),
    // Human Agent (7-day replies) stays off until Meta grants it (docs/inbox.md).
    inbox: createInstagramInbox(settings),
  }),
};
