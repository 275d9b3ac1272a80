import {
  MemberAccountsRequestSchema,
  MemberParamsSchema,
  MemberResponseSchema,
  MembersQuerySchema,
  MembersResponseSchema,
  MessageResponseSchema,
  OrgParamsSchema,
  RoleParamsSchema,
  RoleResponseSchema,
  RolesResponseSchema,
  SaveRoleRequestSchema,
  UpdateMemberRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireMember, requireUser } from '../../http/access.js';
import * as members from './members.service.js';
import * as roles from './roles.service.js';

const tags = ['team'];

export async function teamRoutes(
  app: FastifyInstance,
  { db, invitationEmail = false }: { db: Db; invitationEmail?: boolean },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/organizations/:orgId/roles',
    {
      config: { access: { org: 'GET /organizations/:orgId/roles' } },
      schema: { tags, params: OrgParamsSchema, response: { 200: RolesResponseSchema } },
    },
    async (request) => roles.listRoles(db, request.params.orgId),
  );

  api.post(
    '/organizations/:orgId/roles',
    {
      config: { access: { org: 'POST /organizations/:orgId/roles' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        body: SaveRoleRequestSchema,
        response: { 201: RoleResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        status: 'success',
        data: { role: await roles.createRole(db, requireMember(request), request.body) },
      }),
  );

  api.put(
    '/organizations/:orgId/roles/:roleId',
    {
      config: { access: { org: 'PUT /organizations/:orgId/roles/:roleId' } },
      schema: {
        tags,
        params: RoleParamsSchema,
        body: SaveRoleRequestSchema,
        response: { 200: RoleResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        role: await roles.updateRole(
          db,
          requireMember(request),
          request.params.roleId,
          request.body,
        ),
      },
    }),
  );

  api.delete(
    '/organizations/:orgId/roles/:roleId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/roles/:roleId' } },
      schema: { tags, params: RoleParamsSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await roles.deleteRole(db, request.params.orgId, request.params.roleId);
      return { status: 'success' as const, data: { message: 'Role deleted.' } };
    },
  );

  api.get(
    '/organizations/:orgId/members',
    {
      config: { access: { org: 'GET /organizations/:orgId/members' } },
      schema: {
        tags,
        params: OrgParamsSchema,
        querystring: MembersQuerySchema,
        response: { 200: MembersResponseSchema },
      },
    },
    async (request) => {
      const { members: list, meta } = await members.listMembers(
        db,
        request.params.orgId,
        request.query,
      );
      return {
        status: 'success' as const,
        data: { members: list },
        meta: { ...meta, invitationEmail },
      };
    },
  );

  api.put(
    '/organizations/:orgId/members/:memberId',
    {
      config: { access: { org: 'PUT /organizations/:orgId/members/:memberId' } },
      schema: {
        tags,
        params: MemberParamsSchema,
        body: UpdateMemberRequestSchema,
        response: { 200: MemberResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        member: await members.changeMemberRole(
          db,
          requireMember(request),
          request.params.memberId,
          request.body,
        ),
      },
    }),
  );

  api.put(
    '/organizations/:orgId/members/:memberId/accounts',
    {
      config: { access: { org: 'PUT /organizations/:orgId/members/:memberId/accounts' } },
      schema: {
        tags,
        params: MemberParamsSchema,
        body: MemberAccountsRequestSchema,
        response: { 200: MemberResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        member: await members.setMemberAccounts(
          db,
          requireMember(request),
          request.params.memberId,
          request.body.integrationIds,
        ),
      },
    }),
  );

  api.delete(
    '/organizations/:orgId/members/:memberId',
    {
      config: {
        access: { org: 'DELETE /organizations/:orgId/members/:memberId', selfParam: 'memberId' },
      },
      schema: { tags, params: MemberParamsSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await members.removeMember(
        db,
        { user: requireUser(request).user, membership: requireMember(request) },
        request.params.memberId,
      );
      return { status: 'success' as const, data: { message: 'Member removed.' } };
    },
  );
}
