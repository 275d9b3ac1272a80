import { z } from 'zod';
import type { OrgRoute } from './access.js';
import { AnalyticsOverviewQuerySchema, AnalyticsOverviewSchema } from './analytics.js';
import { FollowUpsByAccountSchema } from './follow-ups.js';
import { LinkTrackingSchema } from './composer-extras.js';
import {
  INBOX_PAGE_SIZE_MAX,
  INBOX_STATUSES,
  InboxConversationSchema,
  InboxMessageSchema,
} from './inbox.js';
import { IntegrationSchema, PLATFORM_NAMES } from './platforms.js';
import {
  ListPostsQuerySchema,
  POST_STATUSES,
  PostSchema,
  PublishNowResponseSchema,
} from './posts.js';
import { isoDateTime } from './text.js';

/**
 * docs/api.md#mcp-ai-agents-claude-and-others: the tools Herald's MCP endpoint (`POST /api/mcp`) offers AI agents. Each is
 * one REST route's operation, named by its row of ORG_ROUTE_PERMISSIONS: a key lists and calls
 * only the tools whose route its permissions allow. Input and output are these zod schemas,
 * sent to clients as JSON Schema.
 */

/** The protocol revisions the endpoint speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
] as const;
export type McpProtocolVersion = (typeof MCP_PROTOCOL_VERSIONS)[number];

/**
 * An agent's own key for one write: a retry with the same key (after a timeout, say) answers
 * the first call's result instead of acting again. Kept a day, per API key.
 */
const IdempotencyKeySchema = z
  .string()
  .regex(
    /^[\x21-\x7e]{8,200}$/,
    'idempotencyKey must be 8 to 200 visible ASCII characters, such as a UUID.',
  )
  .optional()
  .describe(
    'Optional. The same key on a retry (after a timeout, say) returns the first result instead of acting twice. Use a new UUID for each new action.',
  );

const postId = z.uuid('postId must be the id of a post (a UUID).').describe('The post id.');
const content = PostSchema.shape.content.describe(
  'The text; or an object of texts keyed by account id or network (platform) id, with a "default" entry.',
);
const scheduledAt = isoDateTime('scheduledAt').describe(
  'When to publish: ISO 8601 with an offset, like 2030-01-31T17:00:00+01:00 (see list_accounts for the time zone and the current time).',
);

export const McpListAccountsInputSchema = z.object({});
export const McpListAccountsOutputSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  /** The zone "tomorrow at 5 pm" means: the organization's, else the key creator's, else UTC. */
  timeZone: z.string(),
  /** Now, as an instant and as the wall time in `timeZone`. */
  now: z.string(),
  localNow: z.string(),
  accounts: z.array(IntegrationSchema),
});

export const McpListPostsInputSchema = z.object({
  status: z
    .array(z.enum(POST_STATUSES))
    .min(1)
    .optional()
    .describe('Only posts in these statuses.'),
  q: ListPostsQuerySchema.shape.q.describe('Words the title or text contains.'),
  from: isoDateTime('from').optional().describe('Scheduled at or after this time.'),
  to: isoDateTime('to').optional().describe('Scheduled before this time.'),
  integrationId: ListPostsQuerySchema.shape.integrationId.describe(
    'Only posts going to this account.',
  ),
  unscheduled: z.boolean().optional().describe('true: only posts without a time.'),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const McpListPostsOutputSchema = z.object({
  posts: z.array(PostSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalCount: z.number().int(),
});

export const McpPostIdInputSchema = z.object({ postId });
export const McpPostOutputSchema = z.object({ post: PostSchema });

export const McpCreatePostInputSchema = z.object({
  integrationIds: z
    .array(z.uuid('Each account id must be the id of a connected account (a UUID).'))
    .min(1, 'Select at least one account to post to.')
    .max(10, 'A post can go to at most 10 accounts.')
    .describe('The accounts (ids from list_accounts) to post to.'),
  content,
  title: z.string().trim().max(200).optional().describe('An internal title, never published.'),
  action: z
    .enum(['draft', 'schedule', 'queue'])
    .default('draft')
    .describe(
      'draft (the default: nothing goes out until a person schedules it), schedule (at scheduledAt), or queue (the accounts’ next free queue slot).',
    ),
  scheduledAt: scheduledAt.optional(),
  followUps: FollowUpsByAccountSchema.optional().describe(
    'Account id → {"parts": [thread posts after the first], "firstComment": "…"}.',
  ),
  linkTracking: LinkTrackingSchema.nullable().optional(),
  idempotencyKey: IdempotencyKeySchema,
});

export const McpSchedulePostInputSchema = z.object({
  postId,
  scheduledAt,
  idempotencyKey: IdempotencyKeySchema,
});

export const McpUpdatePostInputSchema = z
  .object({
    postId,
    content: content.optional(),
    scheduledAt: isoDateTime('scheduledAt')
      .nullable()
      .optional()
      .describe('A new time (ISO 8601 with an offset); null moves the post back to draft.'),
    idempotencyKey: IdempotencyKeySchema,
  })
  .refine((body) => body.content !== undefined || body.scheduledAt !== undefined, {
    message: 'Send the new content or a new scheduledAt.',
  });

export const McpPostActionInputSchema = z.object({ postId, idempotencyKey: IdempotencyKeySchema });
export const McpDeletedOutputSchema = z.object({ postId: z.string(), deleted: z.literal(true) });

export const McpPublishNowInputSchema = z.object({
  postId,
  platforms: z
    .array(z.string().trim().min(1))
    .min(1)
    .max(10)
    .optional()
    .describe(
      'Networks (x, linkedin…) or account ids to publish to; left out, every account of the post.',
    ),
  idempotencyKey: IdempotencyKeySchema,
});
export const McpPublishNowOutputSchema = PublishNowResponseSchema;

export const McpAnalyticsInputSchema = z.object({
  from: AnalyticsOverviewQuerySchema.shape.from.describe('First day, like 2026-05-01.'),
  to: AnalyticsOverviewQuerySchema.shape.to.describe('Last day, inclusive.'),
  timezone: AnalyticsOverviewQuerySchema.shape.timezone.describe(
    'IANA zone the days are counted in; left out, the organization’s.',
  ),
  integrationIds: z.array(z.uuid()).optional().describe('Only these accounts.'),
});
export const McpAnalyticsOutputSchema = AnalyticsOverviewSchema;

export const McpListConversationsInputSchema = z.object({
  tab: z
    .enum(['all', 'unread', ...PLATFORM_NAMES], { error: 'Choose all, unread or a network.' })
    .default('all')
    .describe('all, unread, or one network (x, linkedin…).'),
  status: z.enum(INBOX_STATUSES).default('open'),
  q: z.string().trim().max(200, 'Keep the search under 200 characters.').optional(),
  integrationId: z.uuid().optional().describe('Only this account’s conversations.'),
  cursor: z.string().min(1).optional().describe('nextCursor of the previous page.'),
  limit: z.number().int().min(1).max(INBOX_PAGE_SIZE_MAX).default(20),
});
export const McpListConversationsOutputSchema = z.object({
  conversations: z.array(InboxConversationSchema),
  nextCursor: z.string().nullable(),
});

export const McpReplyInputSchema = z.object({
  conversationId: z.string().min(1).describe('The conversation id (from list_conversations).'),
  text: z
    .string({ error: 'Reply cannot be empty.' })
    .trim()
    .min(1, 'Reply cannot be empty.')
    .max(20_000, 'Keep the reply under 20,000 characters.'),
  replyTo: z.string().min(1).optional().describe('The message id to answer (comments threads).'),
  idempotencyKey: IdempotencyKeySchema,
});
export const McpReplyOutputSchema = z.object({ message: InboxMessageSchema });

/** How a tool behaves, for the client's confirmations (hints, not guarantees). */
export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpToolSpec {
  name: string;
  title: string;
  description: string;
  /** The REST route whose permission (ORG_ROUTE_PERMISSIONS) the tool needs. */
  route: OrgRoute;
  annotations: McpToolAnnotations;
  input: z.ZodType;
  output: z.ZodType;
}

const read: McpToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const write = (hints: Partial<McpToolAnnotations>): McpToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
  ...hints,
});

/** Every tool, in the order `tools/list` gives them. */
export const MCP_TOOLS = [
  {
    name: 'list_accounts',
    title: 'List connected accounts',
    description:
      'The social accounts this organization posts to (ids for the other tools), its time zone and the current time there, to turn "tomorrow at 5 pm" into a time.',
    route: 'GET /organizations/:orgId/integrations',
    annotations: read,
    input: McpListAccountsInputSchema,
    output: McpListAccountsOutputSchema,
  },
  {
    name: 'list_posts',
    title: 'List posts',
    description: 'Posts of the organization, newest first, filtered by status, time or account.',
    route: 'GET /organizations/:orgId/posts',
    annotations: read,
    input: McpListPostsInputSchema,
    output: McpListPostsOutputSchema,
  },
  {
    name: 'get_post',
    title: 'Read a post',
    description: 'One post: its text, accounts, status, time and how each publication went.',
    route: 'GET /organizations/:orgId/posts/:postId',
    annotations: read,
    input: McpPostIdInputSchema,
    output: McpPostOutputSchema,
  },
  {
    name: 'create_post',
    title: 'Create a post',
    description:
      'Creates a post for some accounts. By default a draft, which publishes nothing until a person schedules it; action "schedule" with scheduledAt, or "queue" for the next free queue slot. Text only (media are added in Herald).',
    route: 'POST /organizations/:orgId/post',
    annotations: write({}),
    input: McpCreatePostInputSchema,
    output: McpPostOutputSchema,
  },
  {
    name: 'schedule_post',
    title: 'Schedule a post',
    description:
      'Schedules a draft (or moves a scheduled post) to a time; it then publishes by itself at that time.',
    route: 'PUT /organizations/:orgId/posts/:postId',
    annotations: write({ idempotentHint: true }),
    input: McpSchedulePostInputSchema,
    output: McpPostOutputSchema,
  },
  {
    name: 'add_to_queue',
    title: 'Add a post to the queue',
    description: "Schedules a draft or scheduled post at its accounts' next free queue slot.",
    route: 'POST /organizations/:orgId/posts/:postId/queue',
    annotations: write({}),
    input: McpPostActionInputSchema,
    output: McpPostOutputSchema,
  },
  {
    name: 'update_post',
    title: 'Update a post',
    description:
      "Changes a post's text and/or time (null: back to draft). A published post stays as it went out.",
    route: 'PUT /organizations/:orgId/posts/:postId',
    annotations: write({ idempotentHint: true }),
    input: McpUpdatePostInputSchema,
    output: McpPostOutputSchema,
  },
  {
    name: 'delete_post',
    title: 'Delete a post',
    description:
      'Deletes a post from Herald (what already went out stays on the networks). Cannot be undone.',
    route: 'DELETE /organizations/:orgId/posts/:postId',
    annotations: write({ destructiveHint: true, idempotentHint: true }),
    input: McpPostActionInputSchema,
    output: McpDeletedOutputSchema,
  },
  {
    name: 'publish_now',
    title: 'Publish a post now',
    description:
      'Publishes an existing post to the networks right away, publicly. Cannot be undone from Herald.',
    route: 'PATCH /organizations/:orgId/post/:postId/publish',
    annotations: write({ destructiveHint: true, openWorldHint: true }),
    input: McpPublishNowInputSchema,
    output: McpPublishNowOutputSchema,
  },
  {
    name: 'get_analytics',
    title: 'Read analytics',
    description:
      'Figures for a range of days: totals against the previous period, daily series and top posts.',
    route: 'GET /organizations/:orgId/analytics/overview',
    annotations: read,
    input: McpAnalyticsInputSchema,
    output: McpAnalyticsOutputSchema,
  },
  {
    name: 'list_conversations',
    title: 'List inbox conversations',
    description: 'Conversations of the unified inbox (messages, comments, mentions), newest first.',
    route: 'GET /organizations/:orgId/inbox/conversations',
    annotations: read,
    input: McpListConversationsInputSchema,
    output: McpListConversationsOutputSchema,
  },
  {
    name: 'reply_to_conversation',
    title: 'Reply in a conversation',
    description:
      "Sends a reply on the network, within the network's reply window (refused once it closed). Sent exactly once per idempotencyKey.",
    route: 'POST /organizations/:orgId/inbox/conversations/:conversationId/messages',
    annotations: write({ openWorldHint: true }),
    input: McpReplyInputSchema,
    output: McpReplyOutputSchema,
  },
] as const satisfies readonly McpToolSpec[];

export type McpToolName = (typeof MCP_TOOLS)[number]['name'];
