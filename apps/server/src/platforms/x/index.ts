import type { NetworkModule } from '../network-module.js';
import { X_PUBLISH_LIMITS } from './limits.js';
import { X_SETUP, xTokenProbe } from './setup.js';
import { xWebhookReceiver } from './webhooks.js';
import { createXAdapter } from './adapter.js';
import { createXInbox } from './inbox.js';
import { createXMetrics } from './metrics.js';
import { createXWebhookAdmin } from './webhooks.js';
import type { XUrls } from './api.js';

export const network: NetworkModule<XUrls, 'X'> = {
  name: 'X',
  slug: 'x',
  productionUrls: {
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    apiBase: 'https://api.x.com',
  },
  sandboxUrls: (base) => ({ authorizeUrl: `${base}/i/oauth2/authorize`, apiBase: base }),
  publishCaps: { concurrency: X_PUBLISH_LIMITS.concurrency },
  setup: X_SETUP,
  tokenProbe: xTokenProbe,
  // Media is uploaded to X (media.write).
  pullsMediaByUrl: false,
  webhookReceiver: xWebhookReceiver,
  createAdapter: (settings) => ({
    ...createXAdapter(settings),
    metrics: createXMetrics(settings),
    inbox: {
      ...createXInbox(settings),
      // The app's webhook (registered unless X holds it valid), then the account's Activity API
      // subscriptions delivered to it (docs/inbox.md#x-webhooks).
      subscribe: async (account) => {
        const admin = createXWebhookAdmin(settings);
        const webhookId = settings.webhookBase
          ? await admin.ensure(`${settings.webhookBase}/x`)
          : undefined;
        await admin.subscribe(account, webhookId);
      },
      checkSubscription: (account) => createXWebhookAdmin(settings).isSubscribed(account),
    },
  }),
};
