import type { NetworkSetupFacts } from '../setup-facts.js';
import { formPost, probeCode, type TokenProbe } from '../token-probe.js';

/** What TikTok's developer app needs (docs/networks.md#preflight). */
export const TIKTOK_SETUP: NetworkSetupFacts = {
  env: { clientId: 'TIKTOK_CLIENT_KEY', clientSecret: 'TIKTOK_CLIENT_SECRET' },
  console: 'the TikTok developer portal (Login Kit, Redirect URI)',
  products: [
    { name: 'Login Kit', scopes: ['user.info.basic', 'user.info.stats', 'video.list'] },
    {
      name: 'Content Posting API with Direct Post enabled',
      scopes: ['video.publish', 'video.upload'],
    },
  ],
  httpsRedirect: 'required',
  verifiesMediaDomain: true,
  pulledMedia: 'the images of photo posts',
  audit: {
    env: 'TIKTOK_UNAUDITED',
    restrictions:
      'posts go out visible to their creator only (SELF_ONLY), at most 5 people may post in 24 hours and their accounts must be private',
    refusedOtherwise: 'every post that is not private',
  },
};

/** TikTok's code exchange (api.ts): its client id is called `client_key`. */
export const tiktokTokenProbe: TokenProbe = (t) =>
  formPost(`${t.urls.apiBase}/v2/oauth/token/`, {
    ...probeCode(t),
    client_key: t.clientId,
    client_secret: t.clientSecret,
    grant_type: 'authorization_code',
  });
