import fastifyMultipart from '@fastify/multipart';
import {
  CreateOrganizationRequestSchema,
  LOGO_MAX_BYTES,
  CurrentOrganizationResponseSchema,
  MyOrganizationsResponseSchema,
  OrganizationResponseSchema,
  OrgParamsSchema,
  PermissionsResponseSchema,
  SetCurrentOrganizationRequestSchema,
  TransferOwnershipRequestSchema,
  UpdateBrandingRequestSchema,
  UpdateOrganizationRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { listPermissions } from '../team/roles.service.js';
import * as branding from './branding.service.js';
import type { BrandingDeps } from './branding.service.js';
import * as service from './organizations.service.js';

const tags = ['organizations'];

export const LOGO_FORM_MESSAGE =
  'Send the logo as multipart/form-data: one image file (PNG, JPEG or WebP) in the field "logo".';

/** The multipart parser's errors (a broken or truncated body: the client's) as a 400. */
function asRequestError(error: unknown): never {
  if (error instanceof AppError) throw error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status < 500) throw error;
  throw new AppError(
    'BAD_REQUEST',
    'The multipart body is malformed or ends early. Send the form again.',
  );
}

export async function organizationsRoutes(
  app: FastifyInstance,
  { db, media }: { db: Db; media: BrandingDeps['media'] },
) {
  // Multipart only in this scope, for the logo; its size is the media store's business (it
  // streams and refuses past LOGO_MAX_BYTES with a sentence).
  await app.register(fastifyMultipart, {
    limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1, fields: 5, parts: 6 },
    throwFileSizeLimit: false,
  });
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sign = (key: string) => media.signedUrl(key);
  const deps = { db, media };

  api.post(
    '/organizations',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        body: CreateOrganizationRequestSchema,
        response: { 201: OrganizationResponseSchema },
      },
    },
    async (request, reply) => {
      const organization = await service.createOrganization(
        db,
        requireUser(request).user,
        request.body.name,
      );
      return reply.status(201).send({ status: 'success', data: { organization } });
    },
  );

  api.get(
    '/organizations/:orgId',
    {
      config: { access: { org: 'GET /organizations/:orgId' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: OrganizationResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { organization: await service.getOrganization(db, request.params.orgId, sign) },
    }),
  );

  api.patch(
    '/organizations/:orgId',
    {
      config: { access: { org: 'PATCH /organizations/:orgId' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: UpdateOrganizationRequestSchema,
        response: { 200: OrganizationResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        organization: await service.updateOrganization(
          db,
          request.params.orgId,
          request.body,
          sign,
        ),
      },
    }),
  );

  api.post(
    '/organizations/:orgId/transfer-ownership',
    {
      config: { access: { org: 'POST /organizations/:orgId/transfer-ownership' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: TransferOwnershipRequestSchema,
        response: { 200: OrganizationResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        organization: await service.transferOwnership(
          db,
          request.params.orgId,
          requireUser(request).user,
          request.body.memberId,
          sign,
        ),
      },
    }),
  );

  api.put(
    '/organizations/:orgId/branding',
    {
      config: { access: { org: 'PUT /organizations/:orgId/branding' } },
      schema: {
        tags,
        summary: 'Set (or with null remove) the brand colour of reports and guest pages',
        params: OrgParamsSchema,
        body: UpdateBrandingRequestSchema,
        response: { 200: OrganizationResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        organization: await branding.setBrandColor(deps, request.params.orgId, request.body.color),
      },
    }),
  );

  api.put(
    '/organizations/:orgId/branding/logo',
    {
      config: { access: { org: 'PUT /organizations/:orgId/branding/logo' } },
      schema: {
        tags,
        summary: 'Upload or replace the logo (multipart: one PNG, JPEG or WebP file, at most 2 MB)',
        params: OrgParamsSchema,
        response: { 200: OrganizationResponseSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', LOGO_FORM_MESSAGE);
      try {
        const file = await request.file().catch(asRequestError);
        if (!file) throw new AppError('VALIDATION_FAILED', LOGO_FORM_MESSAGE);
        // The file's own stream fails when the body breaks off inside it: the client's doing.
        let broken: unknown;
        file.file.once('error', (error) => (broken = error));
        try {
          const organization = await branding.replaceLogo(
            deps,
            request.params.orgId,
            file.file,
            file.filename || 'logo',
          );
          return reply.send({ status: 'success' as const, data: { organization } });
        } catch (error) {
          throw error === (broken ?? file.file.errored) ? asRequestError(error) : error;
        }
      } catch (error) {
        // A refused upload's remaining bytes are not worth reading: close after the answer.
        reply.header('connection', 'close');
        throw error;
      }
    },
  );

  api.delete(
    '/organizations/:orgId/branding/logo',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/branding/logo' } },
      schema: {
        tags,
        summary: 'Remove the logo',
        params: OrgParamsSchema,
        response: { 200: OrganizationResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: { organization: await branding.removeLogo(deps, request.params.orgId) },
    }),
  );

  api.get(
    '/member/organizations',
    {
      config: { access: 'authenticated' },
      schema: { tags, response: { 200: MyOrganizationsResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { organizations: await service.listMyOrganizations(db, requireUser(request).user) },
    }),
  );

  api.post(
    '/member/current-organization',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        body: SetCurrentOrganizationRequestSchema,
        response: { 200: CurrentOrganizationResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.switchOrganization(
        db,
        requireUser(request).user,
        request.body.organizationId,
      ),
    }),
  );

  api.get(
    '/permissions',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['team'], response: { 200: PermissionsResponseSchema } },
    },
    async () => listPermissions(),
  );
}
