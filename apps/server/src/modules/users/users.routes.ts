import { UpdateUserRequestSchema, UserParamsSchema, UserResponseSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../lib/access.js';
import { AppError } from '../../lib/app-error.js';
import { updateUser } from './users.repository.js';
import { toUserDto } from './users.service.js';

export async function usersRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.put(
    '/users/:userId',
    {
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
      // People edit themselves; platform operators may edit anyone (the back-office).
      if (request.params.userId !== user.id && !user.isAdmin) {
        throw new AppError('FORBIDDEN', 'You can only change your own profile.');
      }
      const { displayName, timezone, avatarUrl } = request.body;
      const updated = await updateUser(db, request.params.userId, {
        displayName,
        timezone,
        ...(avatarUrl !== undefined && user.isAdmin ? { avatarUrl } : {}),
      }).catch(() => null);
      if (!updated) throw new AppError('NOT_FOUND', 'This user does not exist.');
      return { status: 'success' as const, data: { user: toUserDto(updated) } };
    },
  );
}
