/** Query keys of the billing screens; everything of one organization shares its prefix. */
export const billingKeys = {
  config: ['billing', 'config'] as const,
  org: (orgId: string) => ['billing', orgId] as const,
  subscription: (orgId: string) => ['billing', orgId, 'subscription'] as const,
  memberCount: (orgId: string) => ['billing', orgId, 'member-count'] as const,
  group: (orgId: string) => ['billing', orgId, 'group'] as const,
};

/** The organization's part of every billing path. */
export const orgPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;
