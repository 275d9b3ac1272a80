import { LINKEDIN_API_VERSIONS } from '../../lib/api-versions.js';

/** Where LinkedIn lives (docs/networks.md#linkedin, #sandboxes). */
export interface LinkedInUrls {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiBase: string;
  /**
   * `LinkedIn-Version` sent on every /rest call (YYYYMM). LinkedIn sunsets a version about a
   * year after release (426 NONEXISTENT_VERSION), so it comes from LINKEDIN_API_VERSION
   * (`withLinkedInVersion`); `herald doctor` warns before the sunset (lib/api-versions.ts).
   */
  linkedinVersion: string;
}

export const LINKEDIN_PRODUCTION_URLS: LinkedInUrls = {
  authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
  tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
  revokeUrl: 'https://www.linkedin.com/oauth/v2/revoke',
  apiBase: 'https://api.linkedin.com',
  linkedinVersion: LINKEDIN_API_VERSIONS.defaultVersion,
};

/** The same endpoints on the emulator mounted at `base`. */
export function linkedInSandboxUrls(base: string): LinkedInUrls {
  const root = base.replace(/\/+$/, '');
  return {
    authorizeUrl: `${root}/oauth/v2/authorization`,
    tokenUrl: `${root}/oauth/v2/accessToken`,
    revokeUrl: `${root}/oauth/v2/revoke`,
    apiBase: root,
    linkedinVersion: LINKEDIN_PRODUCTION_URLS.linkedinVersion,
  };
}

/** The URLs with the configured `LinkedIn-Version`. */
export const withLinkedInVersion = (
  urls: LinkedInUrls,
  versions: { linkedin: string },
): LinkedInUrls => ({ ...urls, linkedinVersion: versions.linkedin });
