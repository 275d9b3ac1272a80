/** The global permission list (docs/product.md#roles-and-permissions) with the labels the team screens show. */
export const PERMISSIONS = [
  { name: 'post:create', label: 'Create Posts' },
  { name: 'post:edit', label: 'Edit Posts' },
  { name: 'post:delete', label: 'Delete Posts' },
  { name: 'post:approve', label: 'Approve Posts' },
  { name: 'dm:send', label: 'Send Messages' },
  { name: 'dm:view', label: 'View Messages' },
  { name: 'org:manage', label: 'Manage Organization' },
  { name: 'member:invite', label: 'Invite Members' },
  { name: 'member:remove', label: 'Remove Members' },
  { name: 'account:connect', label: 'Connect Accounts' },
  { name: 'account:disconnect', label: 'Disconnect Accounts' },
  { name: 'analytics:view', label: 'View Analytics' },
  { name: 'analytics:export', label: 'Export Analytics' },
  { name: 'billing:view', label: 'View Billing' },
  { name: 'billing:edit', label: 'Edit Billing' },
  { name: 'subscription:manage', label: 'Manage Subscription' },
] as const;

export type PermissionName = (typeof PERMISSIONS)[number]['name'];
export const PERMISSION_NAMES = PERMISSIONS.map((p) => p.name) as PermissionName[];

/** The roles every new organization starts with (docs/product.md#roles-and-permissions). */
export const DEFAULT_ROLES: Record<string, readonly PermissionName[]> = {
  Admin: PERMISSION_NAMES,
  SocialMediaManager: [
    'post:create',
    'post:edit',
    'post:approve',
    'dm:view',
    'dm:send',
    'analytics:view',
  ],
  ContentCreator: ['post:create', 'post:edit'],
  CustomerSupport: ['dm:view', 'dm:send'],
};
