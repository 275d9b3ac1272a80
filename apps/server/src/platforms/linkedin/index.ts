import type { NetworkModule } from '../network-module.js';
import { createLinkedInAdapter, linkedInKindOf } from './adapter.js';
import { createLinkedInInbox } from './inbox.js';
import { createLinkedInMetrics } from './metrics.js';
import {
  LINKEDIN_PRODUCTION_URLS,
  linkedInSandboxUrls,
  withLinkedInVersion,
  type LinkedInUrls,
} from './urls.js';

export const network: NetworkModule<LinkedInUrls> = {
  name: 'LinkedIn',
  slug: 'linkedin',
  productionUrls: LINKEDIN_PRODUCTION_URLS,
  sandboxUrls: linkedInSandboxUrls,
  withApiVersions: withLinkedInVersion,
  createAdapter: (settings) => ({
    ...createLinkedInAdapter(settings),
    metrics: createLinkedInMetrics(settings),
    inbox: createLinkedInInbox(settings),
  }),
  // LinkedIn grants a sign-in only when every scope asked for is available to the app, and the
  // Community Management API must be alone on its app: one app per kind
  // (docs/decisions/0012-linkedin-connect-kinds.md).
  connectKinds: [
    {
      kind: 'person',
      label: 'LinkedIn profile',
      requirement:
        'Needs a LinkedIn app with the products "Share on LinkedIn" and "Sign In with LinkedIn using OpenID Connect".',
      configKey: 'linkedin',
    },
    {
      kind: 'organization',
      label: 'LinkedIn Page',
      requirement:
        'Needs a second LinkedIn app whose only product is the "Community Management API".',
      configKey: 'linkedinPage',
    },
  ],
  kindOf: linkedInKindOf,
};
