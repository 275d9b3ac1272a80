import {
  CopyQueueSlotsRequestSchema,
  CopyQueueSlotsResponseSchema,
  EmptySlotsQuerySchema,
  EmptySlotsResponseSchema,
  NextSlotQuerySchema,
  NextSlotResponseSchema,
  OrgParamsSchema,
  PutQueueSlotsRequestSchema,
  QueueAccountParamsSchema,
  QueueAccountResponseSchema,
  QueueResponseSchema,
  ReshuffleResponseSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { onlyReachable, reachesAccount } from '../team/account-access.js';
import type { PostsDeps } from '../posts/posts.service.js';
import {
  copySlots,
  emptySlots,
  getQueue,
  peekNextSlot,
  putSlots,
  reshuffle,
  type QueueCaller,
} from './queue.service.js';

/** The caller and their own zone: the queue's zone until someone saves times with it. */
function callerOf(request: FastifyRequest): QueueCaller {
  const { user } = requireUser(request);
  return { userId: user.id, timeZone: user.timezone };
}

/** docs/queue-and-import.md#posting-queue: weekly slots per account, next slot, empty slots, re-shuffle. */
export async function queueRoutes(app: FastifyInstance, deps: PostsDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queue'];

  api.get(
    '/organizations/:orgId/queue',
    {
      config: { access: { org: 'GET /organizations/:orgId/queue' } },
      schema: {
        tags,
        summary:
          "Every connected account's weekly queue slots, and the time zone they are in (the organization's, else the one kept with the queue)",
        params: OrgParamsSchema,
        response: { 200: QueueResponseSchema },
      },
    },
    async (request) => {
      const queue = await getQueue(deps, request.params.orgId, callerOf(request));
      const accounts = onlyReachable(
        requireMember(request),
        queue.accounts,
        (a) => a.integrationId,
      );
      return { status: 'success' as const, data: { ...queue, accounts } };
    },
  );

  api.put(
    '/organizations/:orgId/queue/:integrationId',
    {
      config: { access: { org: 'PUT /organizations/:orgId/queue/:integrationId' } },
      schema: {
        tags,
        summary: "Replace an account's weekly slots (scheduled posts do not move)",
        params: QueueAccountParamsSchema,
        body: PutQueueSlotsRequestSchema,
        response: { 200: QueueAccountResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        account: await putSlots(
          deps,
          request.params.orgId,
          request.params.integrationId,
          request.body.slots,
          callerOf(request),
        ),
      },
    }),
  );

  api.post(
    '/organizations/:orgId/queue/:integrationId/copy',
    {
      config: { access: { org: 'POST /organizations/:orgId/queue/:integrationId/copy' } },
      schema: {
        tags,
        summary: "Give other accounts this account's saved slots (their scheduled posts stay)",
        params: QueueAccountParamsSchema,
        body: CopyQueueSlotsRequestSchema,
        response: { 200: CopyQueueSlotsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        accounts: await copySlots(
          deps,
          request.params.orgId,
          request.params.integrationId,
          request.body.integrationIds,
          callerOf(request),
        ),
      },
    }),
  );

  api.post(
    '/organizations/:orgId/queue/:integrationId/reshuffle',
    {
      config: { access: { org: 'POST /organizations/:orgId/queue/:integrationId/reshuffle' } },
      schema: {
        tags,
        summary: "Place the account's queued posts again, in order, into its current slots",
        params: QueueAccountParamsSchema,
        response: { 200: ReshuffleResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await reshuffle(deps, request.params.orgId, request.params.integrationId),
    }),
  );

  api.get(
    '/organizations/:orgId/queue/next',
    {
      config: { access: { org: 'GET /organizations/:orgId/queue/next' } },
      schema: {
        tags,
        summary: 'The time "Add to queue" would give a post for these accounts now (null: none)',
        params: OrgParamsSchema,
        querystring: NextSlotQuerySchema,
        response: { 200: NextSlotResponseSchema },
      },
    },
    async (request) => {
      const member = requireMember(request);
      // An account outside a limited member's reach reads as not connected, as peekNextSlot says.
      if (!request.query.integrationIds.every((id) => reachesAccount(member, id)))
        throw new AppError(
          'NOT_FOUND',
          'One of the chosen accounts is not connected to this organization.',
        );
      return {
        status: 'success' as const,
        data: { at: await peekNextSlot(deps, request.params.orgId, request.query.integrationIds) },
      };
    },
  );

  api.get(
    '/organizations/:orgId/queue/slots',
    {
      config: { access: { org: 'GET /organizations/:orgId/queue/slots' } },
      schema: {
        tags,
        summary: 'The empty queue slots of a range (the calendar shows them)',
        params: OrgParamsSchema,
        querystring: EmptySlotsQuerySchema,
        response: { 200: EmptySlotsResponseSchema },
      },
    },
    async (request) => {
      const { accountIds } = requireMember(request);
      // A limited member sees the slots of their own accounts only.
      const integrationIds =
        accountIds === null
          ? request.query.integrationIds
          : (request.query.integrationIds ?? accountIds).filter((id) => accountIds.includes(id));
      const slots =
        integrationIds?.length === 0
          ? []
          : await emptySlots(deps, request.params.orgId, { ...request.query, integrationIds });
      return { status: 'success' as const, data: { slots } };
    },
  );
}
