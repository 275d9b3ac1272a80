import type { PermissionName } from './permissions.js';

/**
 * The permission each organization-scoped route needs. `member` means any active member of the
 * organization. The server enforces this table (a preHandler per route); the web uses it to hide
 * what the caller may not do. Keys are `METHOD path` as mounted under the API base path.
 */
export const ORG_ROUTE_PERMISSIONS = {
  'GET /organizations/:orgId': 'member',
  'PATCH /organizations/:orgId': 'org:manage',
  'GET /organizations/:orgId/roles': 'member',
  'POST /organizations/:orgId/roles': 'org:manage',
  'PUT /organizations/:orgId/roles/:roleId': 'org:manage',
  'DELETE /organizations/:orgId/roles/:roleId': 'org:manage',
  'GET /organizations/:orgId/members': 'member',
  'PUT /organizations/:orgId/members/:memberId': 'org:manage',
  /** Removing others needs member:remove; anyone may remove themselves (leave). */
  'DELETE /organizations/:orgId/members/:memberId': 'member:remove',
  'POST /member/invite/:orgId': 'member:invite',
  'POST /organizations/:orgId/invitations/:memberId/link': 'member:invite',
  'POST /organizations/:orgId/invitations/:memberId/resend': 'member:invite',
  'GET /organizations/:orgId/subscription': 'member',
  'POST /organizations/:orgId/subscribe/trial': 'subscription:manage',
  'POST /organizations/:orgId/subscription/subscribe': 'subscription:manage',
  'POST /organizations/:orgId/subscription/cancel': 'subscription:manage',
  'POST /organizations/:orgId/billing/portal': 'billing:edit',
  'GET /organizations/:orgId/integrations': 'member',
  'GET /organizations/:orgId/integrations/pending/:pendingId': 'account:connect',
  'POST /organizations/:orgId/integrations/pending/:pendingId': 'account:connect',
  'POST /:platform/disconnect/:orgId': 'account:disconnect',
  /** Read while composing: what TikTok lets this creator post (privacy levels, interactions). */
  'GET /organizations/:orgId/integrations/:integrationId/tiktok/creator-info': 'post:create',
  'GET /organizations/:orgId/dashboard': 'member',
  'GET /organizations/:orgId/analytics/overview': 'analytics:view',
  'GET /organizations/:orgId/analytics/settings': 'analytics:view',
  'GET /organizations/:orgId/analytics/best-times': 'analytics:view',
  'GET /organizations/:orgId/analytics/export.csv': 'analytics:export',
  'GET /organizations/:orgId/analytics/accounts.csv': 'analytics:export',
  'PUT /organizations/:orgId/analytics/settings': 'org:manage',
  'GET /organizations/:orgId/posts/:postId/metrics': 'analytics:view',
  'POST /organizations/:orgId/post': 'post:create',
  'GET /organizations/:orgId/posts': 'member',
  'GET /organizations/:orgId/posts/:postId': 'member',
  'PUT /organizations/:orgId/posts/:postId': 'post:edit',
  'PUT /organizations/:orgId/post/:postId': 'post:edit',
  'DELETE /organizations/:orgId/posts/:postId': 'post:delete',
  'POST /organizations/:orgId/posts/bulk/delete': 'post:delete',
  'POST /organizations/:orgId/posts/bulk/draft': 'post:edit',
  'PATCH /organizations/:orgId/post/:postId/publish': 'post:create',
  'POST /organizations/:orgId/posts/:postId/targets/:targetId/resolve': 'post:edit',
  'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/retry': 'post:create',
  'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/:followUpId/resolve':
    'post:edit',
  'GET /organizations/:orgId/posts/:postId/media/:platformId': 'member',
  'GET /organizations/:orgId/posts/:postId/media/:platformId/facebook': 'member',
  'GET /organizations/:orgId/posts/:postId/comments/:platformId': 'member',
  'GET /organizations/:orgId/posts/:postId/approvals': 'member',
  'GET /organizations/:orgId/approvals': 'post:approve',
  'POST /organizations/:orgId/approvals/:postId/approve': 'post:approve',
  'POST /organizations/:orgId/approvals/:postId/reject': 'post:approve',
  /** docs/product.md#duplicate: a copy of a post as a new draft. */
  'POST /organizations/:orgId/posts/:postId/duplicate': 'post:create',
  /** docs/product.md#internal-comments: the team reads with the post; writing needs post:create. */
  'GET /organizations/:orgId/posts/:postId/internal-comments': 'member',
  'POST /organizations/:orgId/posts/:postId/internal-comments': 'post:create',
  /** Only the comment's author may delete it (checked by the route). */
  'DELETE /organizations/:orgId/posts/:postId/internal-comments/:commentId': 'post:create',
  /** docs/product.md#link-tracking: the organization's default UTM parameters. */
  'GET /organizations/:orgId/link-tracking': 'member',
  'PUT /organizations/:orgId/link-tracking': 'org:manage',
  /** Posting queue (docs/queue-and-import.md): slots are settings; peeking the next slot is composing. */
  'GET /organizations/:orgId/queue': 'member',
  'PUT /organizations/:orgId/queue/:integrationId': 'org:manage',
  'POST /organizations/:orgId/queue/:integrationId/reshuffle': 'org:manage',
  'GET /organizations/:orgId/queue/next': 'post:create',
  'GET /organizations/:orgId/queue/slots': 'member',
  /** CSV import (dry run, then import) creates posts; the export reads them. */
  'POST /organizations/:orgId/posts/import/dry-run': 'post:create',
  'POST /organizations/:orgId/posts/import': 'post:create',
  'GET /organizations/:orgId/posts/export.csv': 'member',
  'POST /organization/:orgId/platform/:platformId/comment/:commentId/replies': 'dm:send',
  'PUT /organization/:orgId/platform/:platformId/comment/:commentId': 'dm:send',
  'DELETE /organization/:orgId/platform/:platformId/comment/:commentId': 'dm:send',
  'GET /organizations/:orgId/inbox/conversations': 'dm:view',
  'GET /organizations/:orgId/inbox/conversations/:conversationId': 'dm:view',
  'GET /organizations/:orgId/inbox/summary': 'dm:view',
  'GET /organizations/:orgId/inbox/saved-replies': 'dm:view',
  'PATCH /organizations/:orgId/inbox/conversations/:conversationId': 'dm:send',
  'DELETE /organizations/:orgId/inbox/conversations/:conversationId': 'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages': 'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/resolve':
    'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/like':
    'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/hide':
    'dm:send',
  'DELETE /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId': 'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/block': 'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/notes': 'dm:send',
  'POST /organizations/:orgId/inbox/conversations/:conversationId/typing': 'dm:send',
  'POST /organizations/:orgId/inbox/saved-replies': 'dm:send',
  'DELETE /organizations/:orgId/inbox/saved-replies/:savedReplyId': 'dm:send',
  'POST /organizations/:orgId/inbox/labels': 'dm:send',
  'PATCH /organizations/:orgId/inbox/labels/:name': 'dm:send',
  'DELETE /organizations/:orgId/inbox/labels/:name': 'dm:send',
  /** The organization comes from `?orgId=` on these two browser navigations. */
  'GET /auth/:platform': 'account:connect',
  'GET /auth/:platform/refresh': 'account:connect',
} as const satisfies Record<string, PermissionName | 'member'>;

export type OrgRoute = keyof typeof ORG_ROUTE_PERMISSIONS;

/** Whether a member holding `permissions` may call `route`. */
export function canCall(route: OrgRoute, permissions: readonly string[]): boolean {
  const needed = ORG_ROUTE_PERMISSIONS[route];
  return needed === 'member' || permissions.includes(needed);
}
