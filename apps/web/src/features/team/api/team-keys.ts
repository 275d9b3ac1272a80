/** Query keys of the team screens; everything of one organization shares its prefix. */
export const teamKeys = {
  permissions: ['permissions'] as const,
  org: (orgId: string) => ['team', orgId] as const,
  roles: (orgId: string) => ['team', orgId, 'roles'] as const,
  members: (orgId: string) => ['team', orgId, 'members'] as const,
};

/** The organization's part of every team path. */
export const orgPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;
