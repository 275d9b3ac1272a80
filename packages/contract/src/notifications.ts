import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { IntegrationSchema } from './platforms.js';
import { PlanSchema } from './plans.js';
import { SubscriptionSchema } from './billing.js';

export const NOTIFICATION_TYPES = [
  'POST_PUBLISHED',
  'POST_FAILED',
  'SUBSCRIPTION_UPDATE',
  'ORGANIZATION_INVITE',
  'PAYMENT_ISSUE',
  'PLATFORM_DISCONNECTED',
  /** A connected account's access ends soon and only reconnecting renews it (LinkedIn). */
  'PLATFORM_EXPIRING',
  /**
   * docs/product.md#approvals: a post was submitted (to approvers), approved, or rejected with a
   * reason (to its author).
   */
  'POST_SUBMITTED',
  'POST_APPROVED',
  'POST_REJECTED',
  /** docs/product.md#internal-comments: a teammate @mentioned you in a post's internal comments. */
  'POST_MENTIONED',
  /** docs/inbox.md: a conversation of the inbox was assigned to the person. */
  'INBOX_ASSIGNED',
  /** docs/webhooks.md: an outgoing webhook endpoint was turned off after failing for days. */
  'WEBHOOK_DISABLED',
] as const;
export const NOTIFICATION_PRIORITIES = ['HIGH', 'MEDIUM', 'LOW'] as const;

/** The name of each type, as the app and the emails say it. */
export const NOTIFICATION_TYPE_LABELS: Record<(typeof NOTIFICATION_TYPES)[number], string> = {
  POST_PUBLISHED: 'Post Published',
  POST_FAILED: 'Post Failed',
  SUBSCRIPTION_UPDATE: 'Subscription Update',
  ORGANIZATION_INVITE: 'Organization Invite',
  PAYMENT_ISSUE: 'Payment Issue',
  PLATFORM_DISCONNECTED: 'Platform Disconnected',
  PLATFORM_EXPIRING: 'Reconnect Soon',
  POST_SUBMITTED: 'Approval Requested',
  POST_APPROVED: 'Post Approved',
  POST_REJECTED: 'Post Rejected',
  POST_MENTIONED: 'Mentioned You',
  INBOX_ASSIGNED: 'Conversation Assigned',
  WEBHOOK_DISABLED: 'Webhook Turned Off',
};

export const NotificationSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  message: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
  organizationId: z.string(),
  postId: z.string().nullable(),
  /** A failure notice whose post was fixed or went out since: shown resolved, not counted unread. */
  resolvedAt: z.string().nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationsQuerySchema = z.object({
  organizationId: z.uuid('Choose an organization.'),
  /** Paging: pass `limit` (and then `cursor` from the previous page) to get a page with its cursor. */
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().optional(),
});
/** Without paging parameters the answer is the spec's bare list (newest first, capped). */
export const NotificationListSchema = z.array(NotificationSchema);
export const NotificationPageSchema = z.object({
  status: z.literal('success'),
  data: z.object({ notifications: z.array(NotificationSchema) }),
  meta: z.object({ nextCursor: z.string().nullable(), unreadCount: z.number().int() }),
});
export const ReadAllRequestSchema = z.object({ organizationId: z.uuid('Choose an organization.') });
export const NotificationParamsSchema = z.object({
  id: z.uuid('The notification id is not valid.'),
});
export const NotificationResponseSchema = successEnvelope(
  z.object({ notification: NotificationSchema }),
);
export const ReadAllResponseSchema = successEnvelope(z.object({ updated: z.number().int() }));

/**
 * docs/product.md#notification-preferences: what a member chooses to hear about, by kind of
 * event. Each notification type belongs to one event (an invitation is always told in the app).
 */
export const NOTIFICATION_EVENTS = [
  'PUBLISHING_FAILED',
  'PUBLISHING_SUCCEEDED',
  'APPROVALS',
  'MENTIONS',
  'INBOX',
  'ACCOUNTS',
  'BILLING',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const EVENT_OF_TYPE: Record<(typeof NOTIFICATION_TYPES)[number], NotificationEvent | null> =
  {
    POST_FAILED: 'PUBLISHING_FAILED',
    POST_PUBLISHED: 'PUBLISHING_SUCCEEDED',
    POST_SUBMITTED: 'APPROVALS',
    POST_APPROVED: 'APPROVALS',
    POST_REJECTED: 'APPROVALS',
    POST_MENTIONED: 'MENTIONS',
    INBOX_ASSIGNED: 'INBOX',
    PLATFORM_DISCONNECTED: 'ACCOUNTS',
    PLATFORM_EXPIRING: 'ACCOUNTS',
    SUBSCRIPTION_UPDATE: 'BILLING',
    PAYMENT_ISSUE: 'BILLING',
    ORGANIZATION_INVITE: null,
    WEBHOOK_DISABLED: 'ACCOUNTS',
  };

/** Where one kind of event reaches the member: in the app, by email at once, in the daily digest. */
export const NotificationChannelsSchema = z.object({
  inApp: z.boolean(),
  email: z.boolean(),
  digest: z.boolean(),
});
export type NotificationChannels = z.infer<typeof NotificationChannelsSchema>;
export const NotificationPreferencesSchema = z.record(
  z.enum(NOTIFICATION_EVENTS, 'Choose a kind of notification Herald knows.'),
  NotificationChannelsSchema,
);
export type NotificationPreferences = Record<NotificationEvent, NotificationChannels>;

/** What a member hears about before choosing: everything in the app; failures and approvals by email too. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  PUBLISHING_FAILED: { inApp: true, email: true, digest: false },
  PUBLISHING_SUCCEEDED: { inApp: true, email: false, digest: false },
  APPROVALS: { inApp: true, email: true, digest: false },
  MENTIONS: { inApp: true, email: false, digest: false },
  INBOX: { inApp: true, email: false, digest: false },
  ACCOUNTS: { inApp: true, email: false, digest: false },
  BILLING: { inApp: true, email: false, digest: false },
};

/** The saved choices over the defaults (a kind added later starts at its default). */
export function withDefaultPreferences(
  saved: Partial<Record<string, Partial<NotificationChannels>>> | null | undefined,
): NotificationPreferences {
  const out = { ...DEFAULT_NOTIFICATION_PREFERENCES };
  for (const event of NOTIFICATION_EVENTS) out[event] = { ...out[event], ...saved?.[event] };
  return out;
}

export const NotificationPreferencesResponseSchema = successEnvelope(
  z.object({
    preferences: NotificationPreferencesSchema,
    /** Whether this server can send email (SMTP configured); email and digest wait for it. */
    emailAvailable: z.boolean(),
  }),
);
export const NotificationPreferencesRequestSchema = z.object({
  preferences: z.partialRecord(
    z.enum(NOTIFICATION_EVENTS, 'Choose a kind of notification Herald knows.'),
    NotificationChannelsSchema,
    'Choose a kind of notification Herald knows.',
  ),
});

/** docs/product.md#notification-webhook: the organization's incoming webhook, never shown in full. */
export const NotificationWebhookSchema = z.object({
  configured: z.boolean(),
  /** "https://hooks.slack.com/…a1b2" */
  urlHint: z.string().nullable(),
});
export const NotificationWebhookResponseSchema = successEnvelope(
  z.object({ webhook: NotificationWebhookSchema }),
);
export const NotificationWebhookRequestSchema = z.object({
  url: z
    .string('Paste the webhook URL from Slack or Teams.')
    .trim()
    .min(1, 'Paste the webhook URL from Slack or Teams.')
    .max(2000, 'The webhook URL is too long.'),
});
export const NotificationWebhookTestResponseSchema = successEnvelope(
  z.object({ delivered: z.boolean(), message: z.string() }),
);

/** `GET /organizations/{id}/dashboard` (docs/product.md#dashboard-payload), all real figures. */
export const DashboardPostSchema = z.object({
  id: z.string(),
  content: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
  scheduledAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
});
/**
 * The Engagement Rate card: the last 30 UTC days (`from`–`to`, today included) against the 30
 * before, computed as the analytics screen's KPI. `value` is null when no post published in the
 * period has a reading with interactions and views (or reach).
 */
export const DashboardEngagementSchema = z.object({
  value: z.number().nullable(),
  previous: z.number().nullable(),
  /** (value − previous) ÷ previous; null when either is absent or previous is 0. */
  change: z.number().nullable(),
  from: z.string(),
  to: z.string(),
  /** The formula in a few words ("interactions ÷ views (or reach)"); /analytics has the sentence. */
  formula: z.string(),
});
export const DashboardSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  posts: z.array(DashboardPostSchema),
  postCounts: z.object({ total: z.number().int(), upcoming: z.number().int() }),
  integrations: z.array(IntegrationSchema),
  memberCount: z.number().int(),
  supportedPlatformsCount: z.number().int(),
  subscription: SubscriptionSchema.nullable(),
  plans: z.array(PlanSchema),
  unreadNotifications: z.number().int(),
  /** Open inbox conversations with unread messages (docs/inbox.md); null without `dm:view`. */
  unreadMessages: z.number().int().nullable(),
  /** Null for a member without `analytics:view`: the figure is analytics. */
  engagement: DashboardEngagementSchema.nullable(),
});
export const DashboardResponseSchema = successEnvelope(DashboardSchema);
