import {
  ApprovalLinkParamsSchema,
  ApprovalLinkResponseSchema,
  ApprovalLinksQuerySchema,
  ApprovalLinksResponseSchema,
  CreateApprovalLinkRequestSchema,
  CreateApprovalLinkResponseSchema,
  GuestApprovalParamsSchema,
  GuestApprovalResponseSchema,
  GuestDecisionRequestSchema,
  GuestDecisionResponseSchema,
  GuestMediaParamsSchema,
  OrgParamsSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import type { MediaStore } from '../../media/media-store.js';
import { sendStoredFile } from '../../media/serve-file.js';
import {
  createApprovalLink,
  decideAsGuest,
  guestApproval,
  guestLogoKey,
  guestMediaKey,
  listApprovalLinks,
  revokeApprovalLink,
  type ApprovalLinkDeps,
  type LinkSender,
} from './approval-links.service.js';

const senderOf = (request: FastifyRequest): LinkSender => {
  const member = requireMember(request);
  const { user } = requireUser(request);
  return {
    organizationId: member.organizationId,
    organizationName: member.organizationName,
    user: { id: user.id, email: user.email, displayName: user.displayName },
    apiKeyId: requireUser(request).apiKey?.id ?? null,
  };
};

/**
 * docs/product.md#client-approval-links: approvers send posts to a client (`/organizations/…`),
 * and the client, without an account, reads and decides through the link's token
 * (`/guest/approvals/{token}`, access `guest`: no session read, rate-limited per token and IP).
 */
export async function approvalLinksRoutes(
  app: FastifyInstance,
  deps: ApprovalLinkDeps & { media: MediaStore },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['approvals'];

  api.post(
    '/organizations/:orgId/approval-links',
    {
      config: { access: { org: 'POST /organizations/:orgId/approval-links' } },
      schema: {
        tags,
        summary:
          'Send posts waiting for approval to a client: a link shown once (and emailed when an address is given)',
        params: OrgParamsSchema,
        body: CreateApprovalLinkRequestSchema,
        response: { 201: CreateApprovalLinkResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await createApprovalLink(
        { ...deps, log: request.log },
        senderOf(request),
        request.body,
      );
      return reply.status(201).send({ status: 'success', data });
    },
  );

  api.get(
    '/organizations/:orgId/approval-links',
    {
      config: { access: { org: 'GET /organizations/:orgId/approval-links' } },
      schema: {
        tags,
        summary: 'The client approval links sent (those of one post with postId), newest first',
        params: OrgParamsSchema,
        querystring: ApprovalLinksQuerySchema,
        response: { 200: ApprovalLinksResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        links: await listApprovalLinks(
          deps.db,
          request.params.orgId,
          { postId: request.query.postId },
          deps.now(),
        ),
      },
    }),
  );

  api.delete(
    '/organizations/:orgId/approval-links/:linkId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/approval-links/:linkId' } },
      schema: {
        tags,
        summary: 'Revoke a client approval link at once',
        params: ApprovalLinkParamsSchema,
        response: { 200: ApprovalLinkResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        link: await revokeApprovalLink(
          deps.db,
          senderOf(request),
          request.params.linkId,
          deps.now(),
        ),
      },
    }),
  );

  api.get(
    '/guest/approvals/:token',
    {
      config: { access: 'guest' },
      schema: {
        tags,
        summary:
          "A client approval link: the organization's name and each account's post as it will go out",
        params: GuestApprovalParamsSchema,
        response: { 200: GuestApprovalResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await guestApproval(deps, request.params.token),
    }),
  );

  api.post(
    '/guest/approvals/:token/decisions',
    {
      config: { access: 'guest' },
      schema: {
        tags,
        summary:
          'The client approves a post of the link, or asks for changes with a comment (once per post)',
        params: GuestApprovalParamsSchema,
        body: GuestDecisionRequestSchema,
        response: { 200: GuestDecisionResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        post: await decideAsGuest(deps, request.params.token, request.body, { ip: request.ip }),
      },
    }),
  );

  // The organization's logo on the client's page (docs/reports.md#branding), while the link is
  // open. GET only, as the files.
  api.get(
    '/guest/approvals/:token/logo',
    {
      exposeHeadRoute: false,
      config: { access: 'guest' },
      schema: {
        tags,
        summary: "The organization's logo, for the client's page",
        params: GuestApprovalParamsSchema,
      },
    },
    async (request, reply) => {
      const key = await guestLogoKey(deps.db, request.params.token, deps.now());
      return sendStoredFile(request, reply, deps.media, key, 'private, no-store');
    },
  );

  // The link's files, only while it is open and only those of its posts still waiting. GET only:
  // a derived HEAD would read the whole file.
  for (const variant of ['original', 'thumbnail'] as const) {
    api.get(
      `/guest/approvals/:token/media/:mediaId${variant === 'thumbnail' ? '/thumbnail' : ''}`,
      {
        exposeHeadRoute: false,
        config: { access: 'guest' },
        schema: {
          tags,
          summary:
            variant === 'thumbnail'
              ? "A small picture of a file of the link's posts"
              : "A file of the link's posts, as the networks will get it",
          params: GuestMediaParamsSchema,
        },
      },
      async (request, reply) => {
        const { token, mediaId } = request.params;
        const key = await guestMediaKey(deps.db, token, mediaId, variant, deps.now());
        // Revoking the link stops it at once: the browser keeps nothing.
        return sendStoredFile(request, reply, deps.media, key, 'private, no-store');
      },
    );
  }
}
