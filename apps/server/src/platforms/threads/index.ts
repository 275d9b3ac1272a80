import type { NetworkModule } from '../network-module.js';
import { createThreadsAdapter } from './adapter.js';
import { createThreadsInbox } from './inbox.js';
import { createThreadsMetrics } from './metrics.js';
import type { ThreadsUrls } from './api.js';

export const network: NetworkModule<ThreadsUrls> = {
  name: 'Threads',
  slug: 'threads',
  productionUrls: {
    authorizeUrl: 'https://threads.com/oauth/authorize',
    graphBase: 'https://graph.threads.net',
  },
  sandboxUrls: (base) => ({ authorizeUrl: `${base}/oauth/authorize`, graphBase: base }),
  createAdapter: (settings) => ({
    ...createThreadsAdapter(settings),
    metrics: createThreadsMetrics(settings),
    inbox: createThreadsInbox(settings),
  }),
};
