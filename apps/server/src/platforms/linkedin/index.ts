import type { NetworkModule } from '../network-module.js';
import { LINKEDIN_PUBLISH_LIMITS } from './limits.js';
import { LINKEDIN_PAGE_SETUP, LINKEDIN_PERSON_SETUP, linkedInTokenProbe } from './setup.js';
import { createLinkedInAdapter, linkedInKindOf } from './adapter.js';
import { createLinkedInInbox } from './inbox.js';
import { createLinkedInMetrics } from './metrics.js';
import {
  LINKEDIN_PRODUCTION_URLS,
  linkedInSandboxUrls,
  withLinkedInVersion,
  type LinkedInUrls,
} from './urls.js';

export const network: NetworkModule<LinkedInUrls, 'LinkedIn'> = {
  name: 'LinkedIn',
  slug: 'linkedin',
  productionUrls: LINKEDIN_PRODUCTION_URLS,
  sandboxUrls: linkedInSandboxUrls,
  withApiVersions: withLinkedInVersion,
  publishCaps: {
    concurrency: LINKEDIN_PUBLISH_LIMITS.concurrency,
    perDay: LINKEDIN_PUBLISH_LIMITS.postsPerDay,
  },
  setup: LINKEDIN_PERSON_SETUP,
  tokenProbe: linkedInTokenProbe,
  // Images and videos are uploaded to LinkedIn.
  pullsMediaByUrl: false,
  webhookReceiver: null,
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
      description: 'Posts as you, from your personal LinkedIn profile.',
      requirement:
        'Needs a LinkedIn app with the products "Share on LinkedIn" and "Sign In with LinkedIn using OpenID Connect".',
    },
    {
      kind: 'organization',
      label: 'LinkedIn Page',
      description: 'Posts as a LinkedIn Page you administer.',
      requirement:
        'Needs a second LinkedIn app whose only product is the "Community Management API".',
      setup: LINKEDIN_PAGE_SETUP,
    },
  ],
  kindOf: linkedInKindOf,
};
