import {
  AllClientsApprovalsResponseSchema,
  AllClientsCalendarQuerySchema,
  AllClientsCalendarResponseSchema,
  AllClientsInboxResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/access.js';
import {
  allClientsApprovals,
  allClientsCalendar,
  allClientsInbox,
  type AllClientsDeps,
} from './all-clients.service.js';

/**
 * docs/product.md#all-clients: views across every organization the caller belongs to. They are
 * the caller's own (`authenticated`): each organization is covered only where the caller's
 * membership opens the organization's own view.
 */
export async function allClientsRoutes(app: FastifyInstance, deps: AllClientsDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['all clients'];

  api.get(
    '/me/all-clients/calendar',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Posts of a range in every organization whose calendar the caller may see',
        querystring: AllClientsCalendarQuerySchema,
        response: { 200: AllClientsCalendarResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await allClientsCalendar(deps, requireUser(request).user.id, {
        from: new Date(request.query.from),
        to: new Date(request.query.to),
      }),
    }),
  );

  api.get(
    '/me/all-clients/approvals',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Posts waiting for approval in every organization where the caller approves',
        response: { 200: AllClientsApprovalsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await allClientsApprovals(deps, requireUser(request).user.id),
    }),
  );

  api.get(
    '/me/all-clients/inbox',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'The newest open conversations of every organization whose inbox the caller reads',
        response: { 200: AllClientsInboxResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await allClientsInbox(deps, requireUser(request).user.id),
    }),
  );
}
