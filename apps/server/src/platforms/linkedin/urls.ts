/** Where LinkedIn lives (docs/networks.md#linkedin, #sandboxes). */
export interface LinkedInUrls {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiBase: string;
  /**
   * `LinkedIn-Version` sent on every /rest call (YYYYMM). LinkedIn sunsets a version about a
   * year after release (426 NONEXISTENT_VERSION): bump it on a schedule.
   */
  linkedinVersion: string;
}

export const LINKEDIN_PRODUCTION_URLS: LinkedInUrls = {
  authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
  tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
  revokeUrl: 'https://www.linkedin.com/oauth/v2/revoke',
  apiBase: 'https://api.linkedin.com',
  linkedinVersion: '202610',
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
