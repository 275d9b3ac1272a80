import {
  CreateOrganizationRequestSchema,
  CurrentOrganizationResponseSchema,
  MyOrganizationsResponseSchema,
  OrganizationResponseSchema,
  OrgParamsSchema,
  PermissionsResponseSchema,
  SetCurrentOrganizationRequestSchema,
  TransferOwnershipRequestSchema,
  UpdateOrganizationRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import { listPermissions } from '../team/roles.service.js';
import * as service from './organizations.service.js';

const tags = ['organizations'];

export async function organizationsRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

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
      data: { organization: await service.getOrganization(db, request.params.orgId) },
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
        organization: await service.updateOrganization(db, request.params.orgId, request.body),
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
        ),
      },
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
