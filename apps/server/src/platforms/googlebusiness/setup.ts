import { gbpPushEndpoint } from '../../config.js';
import type { NetworkSetupFacts } from '../setup-facts.js';
import { oauthCodeExchange, type TokenProbe } from '../token-probe.js';
import { GBP_ACCESS_FORM, GBP_INBOX_POLL_MINUTES, GBP_SCOPES } from './limits.js';

/**
 * What Google Business Profile's developer app (a Google Cloud project) needs
 * (docs/networks.md#preflight): five APIs enabled and, before any of them answers, Google's
 * approval of the project (its quota is 0 until then, so every call is refused with 429).
 */
export const GBP_SETUP: NetworkSetupFacts = {
  env: {
    clientId: 'GOOGLE_BUSINESS_CLIENT_ID',
    clientSecret: 'GOOGLE_BUSINESS_CLIENT_SECRET',
  },
  console:
    'the Google Cloud console (APIs & Services: My Business Account Management API, My Business Business Information API, Google My Business API (v4), Business Profile Performance API enabled, and My Business Notifications API for pushed reviews; an OAuth client of type Web application with the redirect URI; the OAuth consent screen in production)',
  products: [{ name: 'Google Business Profile APIs', scopes: [...GBP_SCOPES] }],
  httpsRedirect: 'localhost-only',
  pulledMedia: 'the photo of a local post (Google fetches it from its URL)',
  inboxDelivery: (config) => {
    const push = config.inbox?.googleBusinessPush;
    return push
      ? `New and changed reviews are pushed through Cloud Pub/Sub (${push.topic}) and read at once; Herald points each connected location's Business Profile account at that topic. Grant Pub/Sub Publisher on it to mybusiness-api-pubsub@system.gserviceaccount.com, and give its push subscription the endpoint ${gbpPushEndpoint(config.apiPublicUrl)} with authentication as ${push.serviceAccountEmail} and the audience ${push.audience}. The ${GBP_INBOX_POLL_MINUTES}-minute poll stays as the safety net.`
      : `Reviews are read every ${GBP_INBOX_POLL_MINUTES} minutes. To read them the moment they are written, set GOOGLE_BUSINESS_PUBSUB_TOPIC and GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT (Cloud Pub/Sub push, docs/networks.md#google-business-profile-push).`;
  },
  tokenNotes: [
    `Google answers every Business Profile API call with 429 (quota 0) until it approves the Cloud project: request access with the form on ${GBP_ACCESS_FORM} (Google reviews it within about 14 days); asking for a quota increase instead does not help.`,
    'Google gives refresh tokens that expire after 7 days to apps whose OAuth consent screen is in testing mode (External audience): publish the app to "In production" in the Google Cloud console, or every location must be reconnected each week.',
  ],
};

/** Google's code exchange (api.ts): the plain OAuth 2.0 form. */
export const gbpTokenProbe: TokenProbe = (t) => oauthCodeExchange(t.urls.tokenUrl, t);
