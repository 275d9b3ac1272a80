import type { NetworkModule } from '../network-module.js';
import { createLinkedInAdapter } from './adapter.js';
import { createLinkedInMetrics } from './metrics.js';
import { LINKEDIN_PRODUCTION_URLS, linkedInSandboxUrls, type LinkedInUrls } from './urls.js';

export const network: NetworkModule<LinkedInUrls> = {
  name: 'LinkedIn',
  slug: 'linkedin',
  productionUrls: LINKEDIN_PRODUCTION_URLS,
  sandboxUrls: linkedInSandboxUrls,
  createAdapter: (settings) => ({
    ...createLinkedInAdapter(settings),
    metrics: createLinkedInMetrics(settings),
  }),
};
