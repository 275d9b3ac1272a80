import type { NetworkProduct, NetworkSetupFacts } from '../setup-facts.js';
import { oauthCodeExchange, type TokenProbe } from '../token-probe.js';

/** LinkedIn's products by scope (https://learn.microsoft.com/en-us/linkedin/shared/authentication/getting-access). */
export const LINKEDIN_PRODUCTS: readonly NetworkProduct[] = [
  { name: 'Sign In with LinkedIn using OpenID Connect', scopes: ['openid', 'profile', 'email'] },
  { name: 'Share on LinkedIn', scopes: ['w_member_social'] },
  {
    name: 'Community Management API',
    scopes: ['r_organization_social', 'w_organization_social', 'rw_organization_admin'],
    exclusive: true,
  },
];

/**
 * LinkedIn's two connect kinds each have their own app
 * (docs/decisions/0012-linkedin-connect-kinds.md): personal profiles…
 */
export const LINKEDIN_PERSON_SETUP: NetworkSetupFacts = {
  apiVersion: 'linkedin',
  env: { clientId: 'LINKEDIN_CLIENT_ID', clientSecret: 'LINKEDIN_CLIENT_SECRET' },
  console: 'the LinkedIn developer portal (Auth tab, Authorized redirect URLs)',
  products: LINKEDIN_PRODUCTS,
  appKind: 'personal profiles',
};

/** …and organization Pages. */
export const LINKEDIN_PAGE_SETUP: NetworkSetupFacts = {
  apiVersion: 'linkedin',
  env: { clientId: 'LINKEDIN_PAGE_CLIENT_ID', clientSecret: 'LINKEDIN_PAGE_CLIENT_SECRET' },
  console: 'the LinkedIn developer portal of the Page app (Auth tab, Authorized redirect URLs)',
  products: LINKEDIN_PRODUCTS,
  appKind: 'organization Pages',
};

/** LinkedIn's code exchange (api.ts): plain OAuth at its token URL. */
export const linkedInTokenProbe: TokenProbe = (t) => oauthCodeExchange(t.urls.tokenUrl, t);
