import type { NetworkModule } from '../network-module.js';
import { createGbpAdapter } from './adapter.js';
import type { GbpUrls } from './api.js';
import { createGbpInbox } from './inbox.js';
import { GBP_CONCURRENCY } from './limits.js';
import { createGbpMetrics } from './metrics.js';
import { GBP_SETUP, gbpTokenProbe } from './setup.js';

export const network: NetworkModule<GbpUrls, 'Google Business Profile'> = {
  name: 'Google Business Profile',
  slug: 'googlebusiness',
  productionUrls: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    revokeUrl: 'https://oauth2.googleapis.com/revoke',
    accountsBase: 'https://mybusinessaccountmanagement.googleapis.com/v1',
    infoBase: 'https://mybusinessbusinessinformation.googleapis.com/v1',
    v4Base: 'https://mybusiness.googleapis.com/v4',
    performanceBase: 'https://businessprofileperformance.googleapis.com/v1',
    notificationsBase: 'https://mybusinessnotifications.googleapis.com/v1',
    jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
  },
  // The API hosts keep their paths on one base: none of the paths Herald calls collide.
  sandboxUrls: (base) => ({
    authorizeUrl: `${base}/o/oauth2/v2/auth`,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    accountsBase: `${base}/v1`,
    infoBase: `${base}/v1`,
    v4Base: `${base}/v4`,
    performanceBase: `${base}/v1`,
    notificationsBase: `${base}/v1`,
    jwksUrl: `${base}/oauth2/v3/certs`,
  }),
  publishCaps: { concurrency: GBP_CONCURRENCY },
  setup: GBP_SETUP,
  tokenProbe: gbpTokenProbe,
  // A local post's photo is `media[].sourceUrl`: Google fetches it.
  pullsMediaByUrl: true,
  webhookReceiver: null,
  createAdapter: (settings) => ({
    ...createGbpAdapter(settings),
    metrics: createGbpMetrics(settings),
    inbox: createGbpInbox(settings),
  }),
};
