import {
  AcceptInviteRequestSchema,
  AcceptInviteResponseSchema,
  DeclineInviteRequestSchema,
  InvitationLinkResponseSchema,
  InvitationParamsSchema,
  InvitationResendResponseSchema,
  InviteOrgParamsSchema,
  InviteRequestSchema,
  InviteResponseSchema,
  MessageResponseSchema,
  PendingInvitesResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireMember, requireUser } from '../../http/access.js';
import type { Mailer } from '../../lib/mailer.js';
import * as service from './invitations.service.js';

const tags = ['team'];

export async function invitationsRoutes(
  app: FastifyInstance,
  deps: { db: Db; mailer: Mailer | null; publicUrl: string },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  api.post(
    '/member/invite/:orgId',
    {
      config: { access: { org: 'POST /member/invite/:orgId' } },
      schema: {
        tags,
        params: InviteOrgParamsSchema,
        body: InviteRequestSchema,
        response: { 201: InviteResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.inviteMember(
        { ...deps, log: request.log },
        { user: requireUser(request).user, membership: requireMember(request) },
        request.body,
      );
      return reply.status(201).send({ status: 'success', data });
    },
  );

  api.post(
    '/organizations/:orgId/invitations/:memberId/link',
    {
      config: { access: { org: 'POST /organizations/:orgId/invitations/:memberId/link' } },
      schema: {
        tags,
        params: InvitationParamsSchema,
        response: { 200: InvitationLinkResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.copyInvitationLink(
        deps,
        requireMember(request).organizationId,
        request.params.memberId,
      ),
    }),
  );

  api.post(
    '/organizations/:orgId/invitations/:memberId/resend',
    {
      config: { access: { org: 'POST /organizations/:orgId/invitations/:memberId/resend' } },
      schema: {
        tags,
        params: InvitationParamsSchema,
        response: { 200: InvitationResendResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.resendInvitation(
        { ...deps, log: request.log },
        { user: requireUser(request).user, membership: requireMember(request) },
        request.params.memberId,
      ),
    }),
  );

  api.get(
    '/member/pending',
    {
      config: { access: 'authenticated' },
      schema: { tags, response: { 200: PendingInvitesResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { pendingInvites: await service.listPendingInvites(db, requireUser(request).user) },
    }),
  );

  api.post(
    '/member/accept-invite',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        body: AcceptInviteRequestSchema,
        response: { 200: AcceptInviteResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.acceptInvite(db, requireUser(request).user, request.body),
    }),
  );

  api.post(
    '/member/decline-invite',
    {
      config: { access: 'authenticated' },
      schema: { tags, body: DeclineInviteRequestSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.declineInvite(db, requireUser(request).user, request.body.invitationId),
    }),
  );
}
