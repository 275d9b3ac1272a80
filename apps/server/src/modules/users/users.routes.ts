import {
  DefaultTimeZoneRequestSchema,
  UpdateUserRequestSchema,
  UserParamsSchema,
  UserResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import { defaultTimezone, updateProfile } from './users.service.js';

export async function usersRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.put(
    '/users/:userId',
    {
      // People edit themselves; platform operators may edit anyone (the back-office).
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        params: UserParamsSchema,
        body: UpdateUserRequestSchema,
        response: { 200: UserResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireUser(request);
      return {
        status: 'success' as const,
        data: { user: await updateProfile(db, user, request.params.userId, request.body) },
      };
    },
  );

  api.put(
    '/users/me/default-timezone',
    {
      // Only one's own zone, and only while one has none.
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        body: DefaultTimeZoneRequestSchema,
        response: { 200: UserResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireUser(request);
      return {
        status: 'success' as const,
        data: { user: await defaultTimezone(db, user, request.body.timezone) },
      };
    },
  );
}
