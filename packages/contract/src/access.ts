import type { PermissionName } from './permissions.js';

/** What a route needs (`member`: any active member of the organization) and why, in a phrase. */
export interface RouteAccess {
  needs: PermissionName | 'member';
  /** The reason docs/permissions.md gives for the route, generated from this table. */
  why: string;
  /**
   * Only for a person signed in, never through an API key: what hands over the organization, its
   * money or its keys stays with people even when a key holds the permission.
   */
  peopleOnly?: true;
}

const route = <const Needs extends RouteAccess['needs']>(
  needs: Needs,
  why: string,
  options: { peopleOnly?: true } = {},
) => ({ needs, why, ...options });

const PEOPLE_ONLY = { peopleOnly: true } as const;

/**
 * The permission each organization-scoped route needs. The server enforces this table (a
 * preHandler per route); the web uses it to hide what the caller may not do; docs/permissions.md
 * is generated from it (`npm run docs:permissions`). Keys are `METHOD path` as mounted under the
 * API base path.
 */
export const ORG_ROUTE_PERMISSIONS = {
  'GET /organizations/:orgId': route('member', "the organization's own name"),
  'PATCH /organizations/:orgId': route(
    'org:manage',
    'default time zone and approval settings (whether posts need approval, for which roles)',
  ),
  /** docs/reports.md#branding: the logo and colour on reports and guest pages. */
  'PUT /organizations/:orgId/branding': route(
    'org:manage',
    'the brand colour on reports and guest pages',
  ),
  'PUT /organizations/:orgId/branding/logo': route('org:manage', 'likewise, the logo'),
  'DELETE /organizations/:orgId/branding/logo': route('org:manage', 'likewise'),
  'GET /organizations/:orgId/roles': route('member', 'the team page shows roles to everyone'),
  'POST /organizations/:orgId/roles': route('org:manage', "roles decide everyone's access"),
  'PUT /organizations/:orgId/roles/:roleId': route('org:manage', 'likewise'),
  'DELETE /organizations/:orgId/roles/:roleId': route('org:manage', 'likewise'),
  /** docs/api.md: keys act for the organization, so making them is managing it. */
  'GET /organizations/:orgId/api-keys': route('org:manage', 'API keys act for the organization'),
  'POST /organizations/:orgId/api-keys': route(
    'org:manage',
    'plus: a key gets only permissions its creator holds',
    PEOPLE_ONLY,
  ),
  'DELETE /organizations/:orgId/api-keys/:keyId': route(
    'org:manage',
    'revoking a key',
    PEOPLE_ONLY,
  ),
  'GET /organizations/:orgId/members': route('member', 'a team sees itself'),
  'PUT /organizations/:orgId/members/:memberId': route(
    'org:manage',
    "changing a member's role is changing access",
  ),
  'PUT /organizations/:orgId/members/:memberId/accounts': route(
    'org:manage',
    'which connected accounts a member may work with is access; an Admin is never limited',
  ),
  /** Removing others needs member:remove; anyone may remove themselves (leave). */
  'DELETE /organizations/:orgId/members/:memberId': route(
    'member:remove',
    'anyone may remove **themselves** (leave)',
  ),
  'POST /member/invite/:orgId': route(
    'member:invite',
    'plus: an inviter can only grant permissions they hold',
  ),
  'POST /organizations/:orgId/invitations/:memberId/link': route(
    'member:invite',
    "copy a pending invitation's link",
  ),
  'POST /organizations/:orgId/invitations/:memberId/resend': route(
    'member:invite',
    "send a pending invitation's email again",
  ),
  'GET /organizations/:orgId/subscription': route(
    'member',
    'the plan and its limits shape what everyone may do',
  ),
  'POST /organizations/:orgId/subscribe/trial': route(
    'subscription:manage',
    'starting the trial',
    PEOPLE_ONLY,
  ),
  'POST /organizations/:orgId/subscription/subscribe': route(
    'subscription:manage',
    'choosing a paid plan',
    PEOPLE_ONLY,
  ),
  'POST /organizations/:orgId/subscription/cancel': route(
    'subscription:manage',
    'cancelling the plan',
    PEOPLE_ONLY,
  ),
  'POST /organizations/:orgId/billing/portal': route(
    'billing:edit',
    'payment details and invoices at the billing provider',
    PEOPLE_ONLY,
  ),
  'GET /organizations/:orgId/billing/group': route(
    'billing:view',
    'which organizations the plan covers (a covered one sees only who pays)',
  ),
  'PUT /organizations/:orgId/billing/group': route(
    'subscription:manage',
    'choosing which organizations the plan covers; plus: only its subscriber',
    PEOPLE_ONLY,
  ),
  'POST /organizations/:orgId/transfer-ownership': route(
    'org:manage',
    'handing the organization to another Admin; plus: only its owner',
    PEOPLE_ONLY,
  ),
  'GET /organizations/:orgId/integrations': route(
    'member',
    'the connected accounts every composer and calendar shows',
  ),
  'GET /organizations/:orgId/integrations/pending/:pendingId': route(
    'account:connect',
    'the accounts a connection offers to choose from',
  ),
  'POST /organizations/:orgId/integrations/pending/:pendingId': route(
    'account:connect',
    'choosing which of them to connect',
  ),
  'POST /:platform/disconnect/:orgId': route('account:disconnect', 'disconnecting an account'),
  /** Read while composing: what TikTok lets this creator post (privacy levels, interactions). */
  'GET /organizations/:orgId/integrations/:integrationId/tiktok/creator-info': route(
    'post:create',
    'read while composing: what TikTok lets this creator post',
  ),
  /** Read while composing: how many videos Bluesky lets this account upload today. */
  'GET /organizations/:orgId/integrations/:integrationId/bluesky/video-limits': route(
    'post:create',
    'read while composing: the videos Bluesky lets this account upload today',
  ),
  /** Read while composing: the boards a pin may be saved on; and a new board, made there. */
  'GET /organizations/:orgId/integrations/:integrationId/pinterest/boards': route(
    'post:create',
    'read while composing: the boards a Pinterest pin may be saved on',
  ),
  'POST /organizations/:orgId/integrations/:integrationId/pinterest/boards': route(
    'post:create',
    'making a Pinterest board from the composer',
  ),
  'GET /organizations/:orgId/dashboard': route('member', 'the home page'),
  'GET /organizations/:orgId/analytics/overview': route('analytics:view', 'the analytics page'),
  'GET /organizations/:orgId/analytics/link-clicks': route(
    'analytics:view',
    "the clicks on a post's short links",
  ),
  'GET /organizations/:orgId/analytics/settings': route(
    'analytics:view',
    'likewise (X collection and its read budget)',
  ),
  'GET /organizations/:orgId/analytics/best-times': route('analytics:view', 'likewise'),
  'GET /organizations/:orgId/analytics/export.csv': route(
    'analytics:export',
    'post metrics of a range as CSV',
  ),
  'GET /organizations/:orgId/analytics/accounts.csv': route(
    'analytics:export',
    'daily figures per account as CSV',
  ),
  'PUT /organizations/:orgId/analytics/settings': route(
    'org:manage',
    'X collection costs the organization reads from its budget',
  ),
  'POST /organizations/:orgId/analytics/refresh': route(
    'org:manage',
    'reads every recent post from the networks now, which count (and X bills) every read',
  ),
  'GET /organizations/:orgId/posts/:postId/metrics': route('analytics:view', "one post's figures"),
  /** docs/reports.md: the analytics of a range as a branded PDF, downloaded or emailed. */
  'GET /organizations/:orgId/reports/pdf': route(
    'analytics:view',
    'the analytics screen as a PDF report',
  ),
  'GET /organizations/:orgId/report-schedules': route(
    'org:manage',
    'report emails and the client addresses they go to are organization settings',
  ),
  'POST /organizations/:orgId/report-schedules': route(
    'org:manage',
    'plus **analytics:view**: a schedule sends the analytics outside the team',
  ),
  'PATCH /organizations/:orgId/report-schedules/:scheduleId': route(
    'org:manage',
    'likewise, plus **analytics:view**',
  ),
  'DELETE /organizations/:orgId/report-schedules/:scheduleId': route(
    'org:manage',
    'stopping a report email',
  ),
  'POST /organizations/:orgId/report-schedules/:scheduleId/send': route(
    'org:manage',
    "plus **analytics:view**: sends the last period's report now",
  ),
  'POST /organizations/:orgId/post': route(
    'post:create',
    'creating a post (multipart, or JSON with its files by url)',
  ),
  'GET /organizations/:orgId/posts': route('member', 'the calendar and content library'),
  'GET /organizations/:orgId/posts/:postId': route('member', 'likewise'),
  'PUT /organizations/:orgId/posts/:postId': route('post:edit', "changing a post's text or time"),
  'PUT /organizations/:orgId/post/:postId': route(
    'post:edit',
    'editing a post with its files (multipart, or JSON with new files by url)',
  ),
  'DELETE /organizations/:orgId/posts/:postId': route('post:delete', 'deleting a post'),
  /** docs/media-library.md: every upload of the organization, reusable in any post. */
  'GET /organizations/:orgId/media': route(
    'member',
    "the media library and its storage use, the composer's picker",
  ),
  'GET /organizations/:orgId/media/:mediaId': route('member', 'likewise'),
  'PATCH /organizations/:orgId/media/:mediaId': route(
    'post:edit',
    "a file's alt text and tags, used by every post that reuses it",
  ),
  'DELETE /organizations/:orgId/media/:mediaId': route(
    'post:delete',
    'deleting a file no post uses',
  ),
  'POST /organizations/:orgId/media/:mediaId/crop': route(
    'post:create',
    'a crop is a new file for a post (the original is kept)',
  ),
  'POST /organizations/:orgId/posts/bulk/delete': route(
    'post:delete',
    'deleting several posts (all or none)',
  ),
  'POST /organizations/:orgId/posts/bulk/draft': route(
    'post:edit',
    'moving several posts back to draft (all or none)',
  ),
  'POST /organizations/:orgId/posts/bulk/reschedule': route(
    'post:edit',
    'moving several posts to a day, or by days (all or none)',
  ),
  'POST /organizations/:orgId/posts/bulk/queue': route(
    'post:edit',
    "putting several posts in their accounts' next free queue slots (all or none)",
  ),
  'POST /organizations/:orgId/posts/:postId/queue': route(
    'post:edit',
    "putting a post in its accounts' next free queue slot",
  ),
  'POST /organizations/:orgId/posts/bulk/approve': route(
    'post:approve',
    'approving several pending posts (all or none)',
  ),
  'POST /organizations/:orgId/posts/bulk/reject': route(
    'post:approve',
    'rejecting several pending posts (all or none)',
  ),
  'POST /organizations/:orgId/posts/bulk/duplicate': route(
    'post:create',
    'copies of several posts as new drafts (all or none)',
  ),
  'PATCH /organizations/:orgId/post/:postId/publish': route('post:create', 'publishing a post now'),
  'POST /organizations/:orgId/posts/:postId/targets/:targetId/resolve': route(
    'post:edit',
    'saying what happened to an uncertain publication',
  ),
  'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/retry': route(
    'post:create',
    "publishing a publication's failed parts and first comment again",
  ),
  'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/:followUpId/resolve':
    route('post:edit', 'saying what happened to an uncertain part or first comment'),
  'GET /organizations/:orgId/posts/:postId/media/:platformId': route(
    'member',
    'what the embed of a published post needs',
  ),
  'GET /organizations/:orgId/posts/:postId/media/:platformId/facebook': route(
    'member',
    "a published post's Facebook permalink",
  ),
  'GET /organizations/:orgId/posts/:postId/comments/:platformId': route(
    'member',
    "a published post's comments on the network",
  ),
  'GET /organizations/:orgId/posts/:postId/approvals': route('member', "a post's approval history"),
  'GET /organizations/:orgId/approvals': route(
    'post:approve',
    'the queue of posts waiting for approval',
  ),
  'POST /organizations/:orgId/approvals/:postId/approve': route(
    'post:approve',
    'approve a pending post',
  ),
  'POST /organizations/:orgId/approvals/:postId/reject': route(
    'post:approve',
    'reject a pending post',
  ),
  /**
   * docs/product.md#client-approval-links: sending posts to a client is handing them an
   * approver's decision, so it needs post:approve (no one hands out more than they hold).
   */
  'POST /organizations/:orgId/approval-links': route(
    'post:approve',
    'sending posts to a client to approve: the link decides as an approver would',
  ),
  'GET /organizations/:orgId/approval-links': route(
    'post:approve',
    'the client links sent, their state and decisions',
  ),
  'DELETE /organizations/:orgId/approval-links/:linkId': route(
    'post:approve',
    'revoking a client link at once',
  ),
  /** docs/product.md#duplicate: a copy of a post as a new draft. */
  'POST /organizations/:orgId/posts/:postId/duplicate': route(
    'post:create',
    'a copy of a post as a new draft',
  ),
  /** docs/product.md#internal-comments: the team reads with the post; writing needs post:create. */
  'GET /organizations/:orgId/posts/:postId/internal-comments': route(
    'member',
    'the team reads internal comments with the post',
  ),
  'POST /organizations/:orgId/posts/:postId/internal-comments': route('post:create', 'writing one'),
  /** Only the comment's author may delete it (checked by the route). */
  'DELETE /organizations/:orgId/posts/:postId/internal-comments/:commentId': route(
    'post:create',
    "plus: only the comment's author may delete it",
  ),
  /** docs/product.md#notification-preferences: each member's own choices. */
  'GET /organizations/:orgId/notification-preferences': route(
    'member',
    'one reads **their own** choices only',
  ),
  'PUT /organizations/:orgId/notification-preferences': route(
    'member',
    'one changes **their own** choices only',
  ),
  /** docs/product.md#notification-webhook: where the team's failures and approvals are posted. */
  'GET /organizations/:orgId/notification-webhook': route(
    'org:manage',
    'an organization setting; its URL is a secret',
  ),
  'PUT /organizations/:orgId/notification-webhook': route('org:manage', 'likewise'),
  'DELETE /organizations/:orgId/notification-webhook': route('org:manage', 'likewise'),
  'POST /organizations/:orgId/notification-webhook/test': route(
    'org:manage',
    'posts a sample message to it',
  ),
  /** docs/webhooks.md: signed event deliveries to the organization's own systems. */
  'GET /organizations/:orgId/webhooks': route(
    'org:manage',
    'an organization setting; the endpoints receive its events',
  ),
  'POST /organizations/:orgId/webhooks': route(
    'org:manage',
    'likewise; answers the signing secret once',
  ),
  'PATCH /organizations/:orgId/webhooks/:endpointId': route('org:manage', 'likewise'),
  'DELETE /organizations/:orgId/webhooks/:endpointId': route('org:manage', 'likewise'),
  'POST /organizations/:orgId/webhooks/:endpointId/rotate-secret': route(
    'org:manage',
    'a new signing secret; the old one signs too for 24 hours',
  ),
  'POST /organizations/:orgId/webhooks/:endpointId/test': route(
    'org:manage',
    'sends a `webhook.test` event now',
  ),
  'GET /organizations/:orgId/webhooks/:endpointId/deliveries': route(
    'org:manage',
    "the delivery log: what was sent and the receiver's answers",
  ),
  'POST /organizations/:orgId/webhooks/:endpointId/deliveries/:deliveryId/redeliver': route(
    'org:manage',
    'sends one delivery again now',
  ),
  /** docs/product.md#link-tracking: the organization's default UTM parameters. */
  'GET /organizations/:orgId/composer-draft': route(
    'post:create',
    "the caller's own unfinished composer work, restored on any device",
  ),
  'PUT /organizations/:orgId/composer-draft': route('post:create', 'likewise, saved while typing'),
  'DELETE /organizations/:orgId/composer-draft': route(
    'post:create',
    'likewise, dropped once sent or discarded',
  ),
  'GET /organizations/:orgId/hashtag-groups': route(
    'post:create',
    "the organization's saved hashtag groups, inserted while writing",
  ),
  'POST /organizations/:orgId/hashtag-groups': route('post:create', 'likewise, saving one'),
  'PUT /organizations/:orgId/hashtag-groups/:groupId': route('post:create', 'likewise'),
  'DELETE /organizations/:orgId/hashtag-groups/:groupId': route('post:create', 'likewise'),
  'GET /organizations/:orgId/link-tracking': route(
    'member',
    'the default UTM parameters new posts start with',
  ),
  'PUT /organizations/:orgId/link-tracking': route(
    'org:manage',
    'they are an organization setting',
  ),
  /** Posting queue (docs/queue-and-import.md): slots are settings; peeking the next slot is composing. */
  'GET /organizations/:orgId/queue': route('member', "every account's weekly queue slots"),
  'PUT /organizations/:orgId/queue/:integrationId': route('org:manage', 'queue slots are settings'),
  'POST /organizations/:orgId/queue/:integrationId/copy': route(
    'org:manage',
    "likewise: replaces other accounts' slots",
  ),
  'POST /organizations/:orgId/queue/:integrationId/reshuffle': route(
    'org:manage',
    'likewise: places queued posts again',
  ),
  'GET /organizations/:orgId/queue/next': route(
    'post:create',
    'peeking the next slot is composing',
  ),
  'GET /organizations/:orgId/queue/slots': route('member', 'the calendar shows empty slots'),
  /** CSV import (dry run, then import) creates posts; the export reads them. */
  'POST /organizations/:orgId/posts/import/dry-run': route(
    'post:create',
    'checking a CSV of posts (nothing is written)',
  ),
  'POST /organizations/:orgId/posts/import': route('post:create', 'a CSV import creates posts'),
  /** docs/feeds.md: a feed makes posts for its accounts, so managing one is creating posts. */
  'GET /organizations/:orgId/feeds': route(
    'post:create',
    'feeds make posts; a member limited to some accounts sees the feeds of those only',
  ),
  'POST /organizations/:orgId/feeds': route(
    'post:create',
    'likewise; only to accounts the member reaches',
  ),
  'POST /organizations/:orgId/feeds/preview': route(
    'post:create',
    'reads a feed to show its newest item as a post; nothing is stored',
  ),
  'GET /organizations/:orgId/feeds/:feedId': route('post:create', 'likewise, with its items'),
  'PATCH /organizations/:orgId/feeds/:feedId': route(
    'post:create',
    'likewise; its posts are then made as the member who saved it',
  ),
  'DELETE /organizations/:orgId/feeds/:feedId': route('post:create', 'likewise'),
  'POST /organizations/:orgId/feeds/:feedId/check': route(
    'post:create',
    'checks the feed now; new items become posts',
  ),
  /** docs/evergreen.md: a collection makes posts (copies) for its accounts, like a feed. */
  'GET /organizations/:orgId/evergreen-collections': route(
    'post:create',
    'collections make posts; a member limited to some accounts sees the collections of those only',
  ),
  'POST /organizations/:orgId/evergreen-collections': route(
    'post:create',
    'likewise; only to accounts the member reaches',
  ),
  'GET /organizations/:orgId/evergreen-collections/projection': route(
    'member',
    'the calendar shows what the collections will put in empty slots',
  ),
  'GET /organizations/:orgId/evergreen-collections/:collectionId': route(
    'post:create',
    'likewise, with its posts',
  ),
  'PATCH /organizations/:orgId/evergreen-collections/:collectionId': route(
    'post:create',
    'likewise; its copies are then made as the member who saved it',
  ),
  'DELETE /organizations/:orgId/evergreen-collections/:collectionId': route(
    'post:create',
    'likewise (the copies already made stay)',
  ),
  'POST /organizations/:orgId/evergreen-collections/:collectionId/posts': route(
    'post:create',
    'adds posts to the collection',
  ),
  'DELETE /organizations/:orgId/evergreen-collections/:collectionId/posts/:postId': route(
    'post:create',
    'takes a post out of the collection (the post stays)',
  ),
  /** docs/evergreen.md#repeat: the next occurrence is a new post made when one goes out. */
  'GET /organizations/:orgId/posts/:postId/repeat': route('member', 'reads how a post repeats'),
  'PUT /organizations/:orgId/posts/:postId/repeat': route(
    'post:edit',
    'sets or changes how a post repeats',
  ),
  'DELETE /organizations/:orgId/posts/:postId/repeat': route(
    'post:edit',
    'stops a post repeating (what went out stays)',
  ),
  'GET /organizations/:orgId/posts/export.csv': route(
    'member',
    'the export reads posts, as the calendar does',
  ),
  'POST /organization/:orgId/platform/:platformId/comment/:commentId/replies': route(
    'dm:send',
    'replying to a comment on the network',
  ),
  'PUT /organization/:orgId/platform/:platformId/comment/:commentId': route(
    'dm:send',
    'editing a comment on the network',
  ),
  'DELETE /organization/:orgId/platform/:platformId/comment/:commentId': route(
    'dm:send',
    'deleting a comment on the network',
  ),
  'GET /organizations/:orgId/inbox/conversations': route('dm:view', 'the inbox'),
  'GET /organizations/:orgId/inbox/conversations/:conversationId': route('dm:view', 'likewise'),
  'GET /organizations/:orgId/inbox/summary': route('dm:view', 'likewise'),
  'GET /organizations/:orgId/inbox/saved-replies': route('dm:view', 'likewise'),
  'PATCH /organizations/:orgId/inbox/conversations/:conversationId': route(
    'dm:send',
    'acting on a conversation',
  ),
  'DELETE /organizations/:orgId/inbox/conversations/:conversationId': route(
    'dm:send',
    'archiving a conversation',
  ),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages': route(
    'dm:send',
    'sending a message',
  ),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/resolve':
    route('dm:send', 'acting on a message'),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/like': route(
    'dm:send',
    'likewise',
  ),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/hide': route(
    'dm:send',
    'likewise',
  ),
  'DELETE /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId': route(
    'dm:send',
    'likewise',
  ),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/block': route(
    'dm:send',
    'blocking the other participant',
  ),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/notes': route(
    'dm:send',
    'a note for the team on a conversation',
  ),
  'POST /organizations/:orgId/inbox/conversations/:conversationId/typing': route(
    'dm:send',
    'telling teammates someone is replying',
  ),
  'POST /organizations/:orgId/inbox/saved-replies': route('dm:send', 'managing saved replies'),
  'DELETE /organizations/:orgId/inbox/saved-replies/:savedReplyId': route('dm:send', 'likewise'),
  'POST /organizations/:orgId/inbox/labels': route('dm:send', 'managing inbox labels'),
  'PATCH /organizations/:orgId/inbox/labels/:name': route('dm:send', 'likewise'),
  'DELETE /organizations/:orgId/inbox/labels/:name': route('dm:send', 'likewise'),
  'POST /organizations/:orgId/integrations/:platform/app-password': route(
    'account:connect',
    'connecting an account with its handle and an app password (Bluesky)',
  ),
  /** The organization comes from `?orgId=` on these two browser navigations. */
  'GET /auth/:platform': route(
    'account:connect',
    'starting a connection; the organization comes from `?orgId=`',
  ),
  'GET /auth/:platform/refresh': route(
    'account:connect',
    "refreshing an account's tokens; likewise `?orgId=`",
  ),
} as const satisfies Record<string, RouteAccess>;

export type OrgRoute = keyof typeof ORG_ROUTE_PERMISSIONS;

/** Whether a member holding `permissions` may call `route`. */
export function canCall(route: OrgRoute, permissions: readonly string[]): boolean {
  const needed = ORG_ROUTE_PERMISSIONS[route].needs;
  return needed === 'member' || permissions.includes(needed);
}
