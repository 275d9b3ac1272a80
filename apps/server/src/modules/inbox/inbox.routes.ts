import {
  EmptySuccessSchema,
  InboxConversationResponseSchema,
  InboxConversationsQuerySchema,
  InboxConversationsResponseSchema,
  InboxConversationUpdateSchema,
  InboxHideRequestSchema,
  InboxLabelRequestSchema,
  InboxLabelsResponseSchema,
  InboxLabelUpdateSchema,
  InboxLikeRequestSchema,
  InboxMessageResponseSchema,
  InboxNoteRequestSchema,
  InboxNoteResponseSchema,
  InboxReplyRequestSchema,
  InboxResolveRequestSchema,
  InboxSavedRepliesQuerySchema,
  InboxSavedRepliesResponseSchema,
  InboxSavedReplyRequestSchema,
  InboxSummaryResponseSchema,
  InboxThreadQuerySchema,
  InboxThreadResponseSchema,
  InboxTypingRequestSchema,
  successEnvelope,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMember, requireUser } from '../../http/access.js';
import { actOnMessage, blockParticipant, resolveReply, sendReply } from './inbox-replies.js';
import * as service from './inbox.service.js';

const tags = ['inbox'];
const org = z.object({ orgId: z.uuid('The organization id is not valid.') });
const conversation = org.extend({ conversationId: z.string().min(1) });
const message = conversation.extend({ messageId: z.string().min(1) });
const MaybeMessageResponseSchema = successEnvelope(
  z.object({ message: InboxMessageResponseSchema.shape.data.shape.message.nullable() }),
);
const ok = <T>(data: T) => ({ status: 'success' as const, data });
const base = '/organizations/:orgId/inbox';

/** The unified inbox's API (docs/inbox.md); reading needs dm:view, everything else dm:send. */
export async function inboxRoutes(app: FastifyInstance, deps: service.InboxDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  api.get(
    `${base}/conversations`,
    {
      config: { access: { org: 'GET /organizations/:orgId/inbox/conversations' } },
      schema: {
        tags,
        params: org,
        querystring: InboxConversationsQuerySchema,
        response: { 200: InboxConversationsResponseSchema },
      },
    },
    async (request) => {
      const page = await service.listConversations(
        deps,
        request.params.orgId,
        requireUser(request).user.id,
        request.query,
        requireMember(request),
      );
      return {
        status: 'success' as const,
        data: { conversations: page.conversations },
        meta: { nextCursor: page.nextCursor },
      };
    },
  );

  api.get(
    `${base}/conversations/:conversationId`,
    {
      config: { access: { org: 'GET /organizations/:orgId/inbox/conversations/:conversationId' } },
      schema: {
        tags,
        params: conversation,
        querystring: InboxThreadQuerySchema,
        response: { 200: InboxThreadResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.getThread(
          deps,
          request.params.orgId,
          request.params.conversationId,
          request.query,
        ),
      ),
  );

  api.get(
    `${base}/summary`,
    {
      config: { access: { org: 'GET /organizations/:orgId/inbox/summary' } },
      schema: { tags, params: org, response: { 200: InboxSummaryResponseSchema } },
    },
    async (request) =>
      ok(await service.getSummary(deps, request.params.orgId, requireMember(request))),
  );

  api.patch(
    `${base}/conversations/:conversationId`,
    {
      config: {
        access: { org: 'PATCH /organizations/:orgId/inbox/conversations/:conversationId' },
      },
      schema: {
        tags,
        params: conversation,
        body: InboxConversationUpdateSchema,
        response: { 200: InboxConversationResponseSchema },
      },
    },
    async (request) =>
      ok({
        conversation: await service.updateConversation(
          deps,
          request.params.orgId,
          requireUser(request).user.id,
          request.params.conversationId,
          request.body,
        ),
      }),
  );

  api.delete(
    `${base}/conversations/:conversationId`,
    {
      config: {
        access: { org: 'DELETE /organizations/:orgId/inbox/conversations/:conversationId' },
      },
      schema: { tags, params: conversation, response: { 200: EmptySuccessSchema } },
    },
    async (request) => {
      await service.archiveConversation(deps, request.params.orgId, request.params.conversationId);
      return ok(null);
    },
  );

  api.post(
    `${base}/conversations/:conversationId/messages`,
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/messages',
        },
      },
      schema: {
        tags,
        params: conversation,
        body: InboxReplyRequestSchema,
        response: { 200: InboxMessageResponseSchema, 201: InboxMessageResponseSchema },
      },
    },
    async (request, reply) => {
      const { message: sent, created } = await sendReply(
        deps,
        request.params.orgId,
        requireUser(request).user.id,
        request.params.conversationId,
        request.body,
      );
      return reply.code(created ? 201 : 200).send(ok({ message: sent }));
    },
  );

  api.post(
    `${base}/conversations/:conversationId/messages/:messageId/resolve`,
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/resolve',
        },
      },
      schema: {
        tags,
        params: message,
        body: InboxResolveRequestSchema,
        response: { 200: MaybeMessageResponseSchema },
      },
    },
    async (request) =>
      ok({
        message: await resolveReply(
          deps,
          request.params.orgId,
          request.params.conversationId,
          request.params.messageId,
          request.body.action,
        ),
      }),
  );

  api.post(
    `${base}/conversations/:conversationId/messages/:messageId/like`,
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/like',
        },
      },
      schema: {
        tags,
        params: message,
        body: InboxLikeRequestSchema,
        response: { 200: InboxMessageResponseSchema },
      },
    },
    async (request) =>
      ok({
        message: await actOnMessage(
          deps,
          request.params.orgId,
          request.params.conversationId,
          request.params.messageId,
          { like: request.body.liked },
        ),
      }),
  );

  api.post(
    `${base}/conversations/:conversationId/messages/:messageId/hide`,
    {
      config: {
        access: {
          org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId/hide',
        },
      },
      schema: {
        tags,
        params: message,
        body: InboxHideRequestSchema,
        response: { 200: InboxMessageResponseSchema },
      },
    },
    async (request) =>
      ok({
        message: await actOnMessage(
          deps,
          request.params.orgId,
          request.params.conversationId,
          request.params.messageId,
          { hide: request.body.hidden },
        ),
      }),
  );

  api.delete(
    `${base}/conversations/:conversationId/messages/:messageId`,
    {
      config: {
        access: {
          org: 'DELETE /organizations/:orgId/inbox/conversations/:conversationId/messages/:messageId',
        },
      },
      schema: { tags, params: message, response: { 200: InboxMessageResponseSchema } },
    },
    async (request) =>
      ok({
        message: await actOnMessage(
          deps,
          request.params.orgId,
          request.params.conversationId,
          request.params.messageId,
          { delete: true },
        ),
      }),
  );

  api.post(
    `${base}/conversations/:conversationId/block`,
    {
      config: {
        access: { org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/block' },
      },
      schema: { tags, params: conversation, response: { 200: EmptySuccessSchema } },
    },
    async (request) => {
      await blockParticipant(deps, request.params.orgId, request.params.conversationId);
      return ok(null);
    },
  );

  api.post(
    `${base}/conversations/:conversationId/notes`,
    {
      config: {
        access: { org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/notes' },
      },
      schema: {
        tags,
        params: conversation,
        body: InboxNoteRequestSchema,
        response: { 201: InboxNoteResponseSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        ok({
          note: await service.addNote(
            deps,
            request.params.orgId,
            requireUser(request).user.id,
            request.params.conversationId,
            request.body.text,
          ),
        }),
      ),
  );

  api.post(
    `${base}/conversations/:conversationId/typing`,
    {
      config: {
        access: { org: 'POST /organizations/:orgId/inbox/conversations/:conversationId/typing' },
      },
      schema: {
        tags,
        params: conversation,
        body: InboxTypingRequestSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.announceTyping(
        deps,
        request.params.orgId,
        requireUser(request).user.id,
        request.params.conversationId,
        request.body.typing,
      );
      return ok(null);
    },
  );

  api.get(
    `${base}/saved-replies`,
    {
      config: { access: { org: 'GET /organizations/:orgId/inbox/saved-replies' } },
      schema: {
        tags,
        params: org,
        querystring: InboxSavedRepliesQuerySchema,
        response: { 200: InboxSavedRepliesResponseSchema },
      },
    },
    async (request) => {
      const page = await service.listSavedReplies(db, request.params.orgId, request.query);
      return {
        status: 'success' as const,
        data: { savedReplies: page.savedReplies },
        meta: { nextCursor: page.nextCursor },
      };
    },
  );

  api.post(
    `${base}/saved-replies`,
    {
      config: { access: { org: 'POST /organizations/:orgId/inbox/saved-replies' } },
      schema: {
        tags,
        params: org,
        body: InboxSavedReplyRequestSchema,
        response: {
          201: successEnvelope(
            z.object({
              savedReply: InboxSavedRepliesResponseSchema.shape.data.shape.savedReplies.element,
            }),
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        ok({
          savedReply: await service.createSavedReply(
            db,
            request.params.orgId,
            requireUser(request).user.id,
            request.body,
          ),
        }),
      ),
  );

  api.delete(
    `${base}/saved-replies/:savedReplyId`,
    {
      config: { access: { org: 'DELETE /organizations/:orgId/inbox/saved-replies/:savedReplyId' } },
      schema: {
        tags,
        params: org.extend({ savedReplyId: z.string().min(1) }),
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteSavedReply(db, request.params.orgId, request.params.savedReplyId);
      return ok(null);
    },
  );

  api.post(
    `${base}/labels`,
    {
      config: { access: { org: 'POST /organizations/:orgId/inbox/labels' } },
      schema: {
        tags,
        params: org,
        body: InboxLabelRequestSchema,
        response: { 200: InboxLabelsResponseSchema },
      },
    },
    async (request) =>
      ok(
        await service.addLabel(
          db,
          request.params.orgId,
          request.body.name,
          request.body.color ?? null,
        ),
      ),
  );

  api.patch(
    `${base}/labels/:name`,
    {
      config: { access: { org: 'PATCH /organizations/:orgId/inbox/labels/:name' } },
      schema: {
        tags,
        params: org.extend({ name: z.string().min(1).max(200) }),
        body: InboxLabelUpdateSchema,
        response: { 200: InboxLabelsResponseSchema },
      },
    },
    async (request) =>
      ok(await service.updateLabel(db, request.params.orgId, request.params.name, request.body)),
  );

  api.delete(
    `${base}/labels/:name`,
    {
      config: { access: { org: 'DELETE /organizations/:orgId/inbox/labels/:name' } },
      schema: {
        tags,
        params: org.extend({ name: z.string().min(1).max(200) }),
        response: { 200: InboxLabelsResponseSchema },
      },
    },
    async (request) => ok(await service.removeLabel(db, request.params.orgId, request.params.name)),
  );
}
