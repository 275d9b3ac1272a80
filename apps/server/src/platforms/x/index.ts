import type { NetworkModule } from '../network-module.js';
import { createXAdapter } from './adapter.js';
import { createXInbox } from './inbox.js';
import { createXMetrics } from './metrics.js';
import { createXWebhookAdmin } from './webhooks.js';
import type { XUrls } from './api.js';

export const network: NetworkModule<XUrls> = {
  name: 'X',
  slug: 'x',
  productionUrls: {
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    apiBase: 'https://api.x.com',
  },
  sandboxUrls: (base) => ({ authorizeUrl: `${base}/i/oauth2/authorize`, apiBase: base }),
  createAdapter: (settings) => ({
    ...createXAdapter(settings),
    metrics: createXMetrics(settings),
    inbox: {
      ...createXInbox(settings),
      // Each account's Activity API subscriptions; the app's webhook is registered once
      // (createXWebhookAdmin(settings).ensure(url), docs/inbox.md#x-webhooks).
      subscribe: (account) => createXWebhookAdmin(settings).subscribe(account),
      checkSubscription: (account) => createXWebhookAdmin(settings).isSubscribed(account),
    },
  }),
};
