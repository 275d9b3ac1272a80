/** Query keys of the back-office; `all` refreshes every admin list at once. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (search: string, page: number) => ['admin', 'users', { search, page }] as const,
  user: (userId: string) => ['admin', 'user', userId] as const,
  plans: (search: string, page: number) => ['admin', 'plans', { search, page }] as const,
  platforms: ['admin', 'platforms'] as const,
  publicMediaUrl: ['admin', 'public-media-url'] as const,
  overview: ['admin', 'overview'] as const,
  activity: (timezone: string) => ['admin', 'activity', timezone] as const,
  auditLog: (page: number) => ['admin', 'audit-log', page] as const,
  networkSetup: (live: boolean) => ['admin', 'network-setup', { live }] as const,
};

/** Builds `?a=1&b=2`, leaving out empty values. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
