import { createHash, randomUUID } from 'node:crypto';
import type {
  McpAnalyticsInputSchema,
  McpCreatePostInputSchema,
  McpListConversationsInputSchema,
  McpListPostsInputSchema,
  McpPostActionInputSchema,
  McpPostIdInputSchema,
  McpPublishNowInputSchema,
  McpReplyInputSchema,
  McpSchedulePostInputSchema,
  McpUpdatePostInputSchema,
} from '@herald/contract';
import { applicableTimeZone, POSTS_LIST_CAP, type McpToolName } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AuthContext } from '../../http/access.js';
import type { MediaStore } from '../../media/media-store.js';
import { getAnalyticsOverview } from '../analytics/analytics-overview.service.js';
import { guardPublishNow } from '../approvals/approval-rule.js';
import { sendReply } from '../inbox/inbox-replies.js';
import type { InboxDeps } from '../inbox/inbox-context.js';
import { listConversations } from '../inbox/inbox.service.js';
import { listIntegrations } from '../integrations/integrations.service.js';
import { withReachableTargets } from '../posts/post-dto.js';
import { findPost } from '../posts/posts.lookups.js';
import { addPostToQueue } from '../posts/posts.schedule.js';
import {
  checkPostAllowance,
  createPost,
  deletePost,
  getPost,
  listPosts,
  planCreate,
  updatePost,
  type Caller,
  type PostsDeps,
} from '../posts/posts.service.js';
import type { PublishQueue } from '../publishing/publish-queue.js';
import type { Publisher } from '../publishing/publisher.js';
import { publishNow } from '../publishing/publishing.service.js';
import { reachableAnalyticsQuery } from '../team/account-access.js';
import { checkAccountReach, type AccountReachLookups } from '../team/account-reach.js';
import type { MembershipContext } from '../team/membership.js';

/** The services the tools call: the same ones the REST routes call. */
export interface McpDeps extends PostsDeps, Omit<InboxDeps, 'now'> {
  now: () => Date;
  media: MediaStore;
  publisher: Publisher;
  queue: PublishQueue;
  reach: AccountReachLookups;
}

/** Who calls a tool: an API key, acting as its creator with the key's permissions. */
export interface McpCaller {
  auth: AuthContext;
  member: MembershipContext;
  log: FastifyBaseLogger;
}

/** What a tool answers: the structured result, and a sentence saying what happened. */
export interface ToolOutcome {
  result: unknown;
  summary: string;
}

type Run<S extends z.ZodType> = (
  deps: McpDeps,
  caller: McpCaller,
  input: z.output<S>,
) => Promise<ToolOutcome>;

const callerOf = ({ auth, member }: McpCaller): Caller => ({
  organizationId: member.organizationId,
  userId: auth.user.id,
  apiKeyId: auth.apiKey?.id ?? null,
  canApprove: member.permissions.includes('post:approve'),
  accountIds: member.accountIds,
});

/** A post's own accounts must be within the caller's reach, as on the REST routes. */
const reach = (deps: McpDeps, { member }: McpCaller, postId: string, changing: boolean) =>
  checkAccountReach(deps.reach, member, { postIds: [postId], changing });

const describePost = (post: { id: string; status: string; scheduledAt: string | null }) =>
  `Post ${post.id} is ${post.status.replace('_', ' ')}${post.scheduledAt ? ` for ${post.scheduledAt}` : ''}.`;

/** "2026-12-02T18:30:00+01:00 (Wednesday)": the wall time in `zone`, with its offset. */
export function localTime(at: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName!.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset} (${parts.weekday})`;
}

const listAccounts: Run<z.ZodObject> = async (deps, caller) => {
  const { member, auth } = caller;
  const accounts = await listIntegrations(deps.db, member.organizationId, member);
  const { zone } = applicableTimeZone(member.organizationTimeZone, auth.user.timezone);
  const now = deps.now();
  return {
    result: {
      organization: { id: member.organizationId, name: member.organizationName },
      timeZone: zone,
      now: now.toISOString(),
      localNow: localTime(now, zone),
      accounts,
    },
    summary: `${accounts.length} connected account${accounts.length === 1 ? '' : 's'}; it is ${localTime(now, zone)} in ${zone}.`,
  };
};

const listPostsTool: Run<typeof McpListPostsInputSchema> = async (deps, { member }, input) => {
  const { posts, meta } = await listPosts(
    deps,
    member.organizationId,
    {
      status: input.status,
      q: input.q || undefined,
      from: input.from ? new Date(input.from) : undefined,
      to: input.to ? new Date(input.to) : undefined,
      integrationId: input.integrationId,
      unscheduled: input.unscheduled,
      page: input.page,
      pageSize: input.pageSize,
      reachable: member.accountIds ?? undefined,
    },
    POSTS_LIST_CAP,
  );
  return {
    result: { posts: posts.map((post) => withReachableTargets(post, member)), ...meta },
    summary: `${posts.length} of ${meta.totalCount} post${meta.totalCount === 1 ? '' : 's'} (page ${meta.page}).`,
  };
};

const getPostTool: Run<typeof McpPostIdInputSchema> = async (deps, caller, { postId }) => {
  await reach(deps, caller, postId, false);
  const post = withReachableTargets(
    await getPost(deps, caller.member.organizationId, postId),
    caller.member,
  );
  return { result: { post }, summary: describePost(post) };
};

const createPostTool: Run<typeof McpCreatePostInputSchema> = async (deps, caller, input) => {
  const fields = {
    integrationIds: input.integrationIds,
    content: input.content,
    title: input.title,
    action: input.action,
    scheduledAt: input.scheduledAt,
    followUps: input.followUps,
    linkTracking: input.linkTracking,
  };
  const who = callerOf(caller);
  await checkPostAllowance(deps, who.organizationId);
  const plan = await planCreate(deps, who, fields);
  const post = await createPost(deps, who, fields, [], plan);
  return { result: { post }, summary: `Created. ${describePost(post)}` };
};

const schedulePost: Run<typeof McpSchedulePostInputSchema> = async (deps, caller, input) => {
  await reach(deps, caller, input.postId, true);
  const post = await updatePost(
    deps,
    caller.member.organizationId,
    input.postId,
    { scheduledAt: input.scheduledAt },
    callerOf(caller),
  );
  return { result: { post }, summary: describePost(post) };
};

const updatePostTool: Run<typeof McpUpdatePostInputSchema> = async (deps, caller, input) => {
  await reach(deps, caller, input.postId, true);
  const post = await updatePost(
    deps,
    caller.member.organizationId,
    input.postId,
    { content: input.content, scheduledAt: input.scheduledAt },
    callerOf(caller),
  );
  return { result: { post }, summary: `Updated. ${describePost(post)}` };
};

const addToQueue: Run<typeof McpPostActionInputSchema> = async (deps, caller, { postId }) => {
  await reach(deps, caller, postId, true);
  const post = await addPostToQueue(deps, callerOf(caller), postId);
  return { result: { post }, summary: `Queued. ${describePost(post)}` };
};

const deletePostTool: Run<typeof McpPostActionInputSchema> = async (deps, caller, { postId }) => {
  await reach(deps, caller, postId, true);
  const { notice } = await deletePost(deps, caller.member.organizationId, postId);
  return {
    result: { postId, deleted: true, ...(notice ? { notice } : {}) },
    summary: `Post ${postId} was deleted.${notice ? ` ${notice}` : ''}`,
  };
};

const publishNowTool: Run<typeof McpPublishNowInputSchema> = async (deps, caller, input) => {
  const { member, auth, log } = caller;
  const orgId = member.organizationId;
  await reach(deps, caller, input.postId, true);
  await guardPublishNow(
    deps.db,
    {
      organizationId: orgId,
      userId: auth.user.id,
      canApprove: member.permissions.includes('post:approve'),
    },
    await findPost(deps.db, orgId, input.postId),
  );
  // Left out: every account the post still goes to.
  const names =
    input.platforms ??
    (await getPost(deps, orgId, input.postId)).accounts.flatMap((a) =>
      a.id && a.connected ? [a.id] : [],
    );
  const result = await publishNow({ ...deps, log }, orgId, input.postId, names);
  return { result, summary: result.message };
};

const getAnalytics: Run<typeof McpAnalyticsInputSchema> = async (deps, caller, input) => {
  const { member, auth } = caller;
  const zone =
    input.timezone ?? applicableTimeZone(member.organizationTimeZone, auth.user.timezone).zone;
  const overview = await getAnalyticsOverview(
    deps.db,
    member.organizationId,
    reachableAnalyticsQuery(member, {
      from: input.from,
      to: input.to,
      timezone: input.timezone,
      integrationIds: input.integrationIds,
    }),
    zone,
    (key) => deps.media.signedUrl(key),
  );
  return { result: overview, summary: `Analytics from ${input.from} to ${input.to} (${zone}).` };
};

const listConversationsTool: Run<typeof McpListConversationsInputSchema> = async (
  deps,
  { auth, member },
  input,
) => {
  const page = await listConversations(
    deps,
    member.organizationId,
    auth.user.id,
    {
      tab: input.tab,
      status: input.status,
      labels: [],
      q: input.q,
      integrationId: input.integrationId,
      cursor: input.cursor,
      limit: input.limit,
    },
    member,
  );
  return {
    result: { conversations: page.conversations, nextCursor: page.nextCursor },
    summary: `${page.conversations.length} conversation${page.conversations.length === 1 ? '' : 's'}${page.nextCursor ? ' (more with nextCursor)' : ''}.`,
  };
};

/** The inbox's exactly-once key (8–100 characters) for the tool's (up to 200), or a new one. */
const clientKeyOf = (key: string | undefined) =>
  key === undefined
    ? randomUUID()
    : key.length <= 100
      ? key
      : createHash('sha256').update(key).digest('hex');

const reply: Run<typeof McpReplyInputSchema> = async (deps, caller, input) => {
  const { member, auth } = caller;
  await checkAccountReach(deps.reach, member, {
    conversationId: input.conversationId,
    changing: true,
  });
  // The inbox's own exactly-once key: the same key never sends a second message.
  const { message } = await sendReply(
    deps,
    member.organizationId,
    auth.user.id,
    input.conversationId,
    {
      text: input.text,
      clientKey: clientKeyOf(input.idempotencyKey),
      replyTo: input.replyTo,
    },
  );
  return {
    result: { message },
    summary: `Reply ${message.id}: ${message.delivery ?? 'sent'}${message.error ? ` (${message.error})` : ''}.`,
  };
};

/** Each tool's work, by name (the contract's MCP_TOOLS says who may call it and its shapes). */
export const TOOL_RUNS: Record<McpToolName, Run<z.ZodType>> = {
  list_accounts: listAccounts,
  list_posts: listPostsTool as Run<z.ZodType>,
  get_post: getPostTool as Run<z.ZodType>,
  create_post: createPostTool as Run<z.ZodType>,
  schedule_post: schedulePost as Run<z.ZodType>,
  add_to_queue: addToQueue as Run<z.ZodType>,
  update_post: updatePostTool as Run<z.ZodType>,
  delete_post: deletePostTool as Run<z.ZodType>,
  publish_now: publishNowTool as Run<z.ZodType>,
  get_analytics: getAnalytics as Run<z.ZodType>,
  list_conversations: listConversationsTool as Run<z.ZodType>,
  reply_to_conversation: reply as Run<z.ZodType>,
};
