import type { NetworkModule } from '../network-module.js';
import { THREADS_POST_CAP } from './limits.js';
import { THREADS_SETUP, threadsTokenProbe } from './setup.js';
import { threadsWebhookReceiver } from './webhooks.js';
import { createThreadsAdapter } from './adapter.js';
import { createThreadsInbox } from './inbox.js';
import { createThreadsMetrics } from './metrics.js';
import type { ThreadsUrls } from './api.js';

export const network: NetworkModule<ThreadsUrls, 'Threads'> = {
  name: 'Threads',
  slug: 'threads',
  productionUrls: {
    authorizeUrl: 'https://threads.com/oauth/authorize',
    graphBase: 'https://graph.threads.net',
  },
  sandboxUrls: (base) => ({ authorizeUrl: `${base}/oauth/authorize`, graphBase: base }),
  publishCaps: { concurrency: 4, perDay: THREADS_POST_CAP.posts },
  setup: THREADS_SETUP,
  tokenProbe: threadsTokenProbe,
  // Containers name their media by `image_url` / `video_url`.
  pullsMediaByUrl: true,
  webhookReceiver: threadsWebhookReceiver,
  createAdapter: (settings) => ({
    ...createThreadsAdapter(settings),
    metrics: createThreadsMetrics(settings),
    inbox: createThreadsInbox(settings),
  }),
};
