import type { NetworkModule } from '../network-module.js';
import { FACEBOOK_SETUP, metaTokenProbe } from '../meta/setup.js';
import { metaWebhookReceiver } from '../meta/webhooks.js';
import { FACEBOOK_PUBLISH_CAPS } from './limits.js';
import {
  META_PRODUCTION_URLS,
  metaSandboxUrls,
  withGraphVersion,
  type MetaUrls,
} from '../meta/urls.js';
import { createFacebookAdapter } from './adapter.js';
import { createFacebookInbox } from './inbox.js';
import { createFacebookMetrics } from './metrics.js';

export const network: NetworkModule<MetaUrls, 'Facebook'> = {
  name: 'Facebook',
  slug: 'facebook',
  productionUrls: META_PRODUCTION_URLS,
  sandboxUrls: metaSandboxUrls,
  withApiVersions: withGraphVersion,
  publishCaps: { concurrency: 4, perAccount: FACEBOOK_PUBLISH_CAPS.concurrentPerAccount },
  setup: FACEBOOK_SETUP,
  tokenProbe: metaTokenProbe,
  // Photos are published by `url` (videos are uploaded).
  pullsMediaByUrl: true,
  webhookReceiver: metaWebhookReceiver,
  sharedApp: 'meta',
  createAdapter: (settings) => ({
    ...createFacebookAdapter(settings),
    metrics: createFacebookMetrics(settings),
    // Human Agent (7-day replies) stays off until Meta grants it (docs/inbox.md).
    inbox: createFacebookInbox(settings),
  }),
};
