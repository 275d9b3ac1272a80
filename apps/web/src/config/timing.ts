/** Pauses before moving on, so the user can read what just happened (docs/product.md#constants), in ms. */
export const REDIRECT_DELAYS = {
  afterInvites: 1500,
  afterCreateOrganization: 1000,
  afterSwitchOrganization: 500,
  afterAcceptOnboarding: 1500,
  afterAcceptPage: 3000,
} as const;

/** While the live notification stream is down, notifications are fetched this often, in ms. */
export const NOTIFICATION_POLL_MS = 30_000;
