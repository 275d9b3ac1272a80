import type { NetworkModule } from '../network-module.js';
import { createMastodonAdapter } from './adapter.js';
import type { MastodonUrls } from './api.js';
import { createMastodonInbox } from './inbox.js';
import { MASTODON_CONCURRENCY } from './limits.js';
import { createMastodonMetrics } from './metrics.js';
import { MASTODON_SETUP, mastodonTokenProbe } from './setup.js';

export const network: NetworkModule<MastodonUrls, 'Mastodon'> = {
  name: 'Mastodon',
  slug: 'mastodon',
  // `{instance}` is the host of the server the account is on.
  productionUrls: { serverBase: 'https://{instance}' },
  sandboxUrls: (base) => ({ serverBase: `${base}/{instance}` }),
  publishCaps: { concurrency: MASTODON_CONCURRENCY },
  setup: MASTODON_SETUP,
  tokenProbe: mastodonTokenProbe,
  // Files are uploaded to the server (POST /api/v2/media).
  pullsMediaByUrl: false,
  webhookReceiver: null,
  createAdapter: (settings) => ({
    ...createMastodonAdapter(settings),
    metrics: createMastodonMetrics(settings),
    inbox: createMastodonInbox(settings),
  }),
};
