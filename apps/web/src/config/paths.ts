/**
 * Every route path of the SPA. Components link with these constants, never with string
 * literals, so a path changes in one place. Paths with parameters are patterns: build a
 * concrete link with react-router's `generatePath(paths.postDetails, { postId })`.
 */
export const paths = {
  // Public
  home: '/',
  login: '/login',
  signup: '/signup',
  loginSuccess: '/auth/login-success',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  cookiePolicy: '/cookie-policy',
  unauthorized: '/401',
  forbidden: '/403',
  notFound: '/404',

  // Signed in, organization not required
  onboarding: '/onboarding',
  createOrganization: '/create-organization',
  inviteMembersLegacy: '/invite-members',
  acceptInvite: '/invite/accept',

  // A client's approval link: no account, no session (docs/product.md#client-approval-links)
  guestApproval: '/approve/:token',

  // Authenticated shell (signed in with a current organization)
  dashboard: '/dashboard',
  orgDashboard: '/org/:orgId/dashboard',
  team: '/team',
  createPost: '/create-post',
  inbox: '/inbox',
  content: '/content',
  importPosts: '/content/import',
  approvals: '/approvals',
  postDetails: '/content/:postId',
  editPost: '/content/:postId/edit',
  calendar: '/calendar',
  evergreen: '/evergreen',
  allClients: '/all-clients',
  analytics: '/analytics',
  inviteMembers: '/org/:orgId/invite-members',
  pricing: '/pricing',
  settings: '/settings',
  orgIntegrations: '/org/:orgId/settings/integrations',
  notifications: '/notifications',

  // Back-office (platform operators)
  admin: '/admin',
  adminDashboard: '/admin/dashboard',
  adminUsers: '/admin/users',
  adminPlans: '/admin/plans',
  adminPlatforms: '/admin/platforms',
  adminNetworkSetup: '/admin/network-setup',
} as const;

/** In-page anchors of the landing page. */
export const landingAnchors = {
  features: 'features',
  pricing: 'pricing',
  reviews: 'reviews',
} as const;

/** Where support questions go; shown on error pages and legal texts. */
export const contactEmails = {
  support: 'support@herald.example',
  privacy: 'privacy@herald.example',
  legal: 'legal@herald.example',
} as const;
