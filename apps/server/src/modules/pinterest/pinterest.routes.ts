import {
  CreatePinterestBoardSchema,
  PinterestBoardResponseSchema,
  PinterestBoardsParamsSchema,
  PinterestBoardsResponseSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { reachesAccount } from '../team/account-access.js';
import { createBoard, type PinterestComposeDeps, readBoards } from './pinterest.service.js';

const BOARDS = '/organizations/:orgId/integrations/:integrationId/pinterest/boards';

/** An account outside a limited member's reach reads as not connected. */
function requireReach(request: FastifyRequest, integrationId: string) {
  if (!reachesAccount(requireMember(request), integrationId))
    throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
}

/** Compose-time boards of Pinterest accounts (docs/networks.md#pinterest-publishing). */
export async function pinterestRoutes(app: FastifyInstance, deps: PinterestComposeDeps) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    BOARDS,
    {
      config: { access: { org: `GET ${BOARDS}` } },
      schema: {
        tags: ['integrations'],
        summary: 'The boards of a Pinterest account a pin may be saved on',
        params: PinterestBoardsParamsSchema,
        response: { 200: PinterestBoardsResponseSchema },
      },
    },
    async (request) => {
      requireReach(request, request.params.integrationId);
      return {
        status: 'success' as const,
        data: {
          boards: await readBoards(deps, request.params.orgId, request.params.integrationId),
        },
      };
    },
  );

  typed.post(
    BOARDS,
    {
      config: { access: { org: `POST ${BOARDS}` } },
      schema: {
        tags: ['integrations'],
        summary: 'Makes a board on a Pinterest account, from the composer',
        params: PinterestBoardsParamsSchema,
        body: CreatePinterestBoardSchema,
        response: { 201: PinterestBoardResponseSchema },
      },
    },
    async (request, reply) => {
      requireReach(request, request.params.integrationId);
      const board = await createBoard(
        deps,
        request.params.orgId,
        request.params.integrationId,
        request.body,
      );
      return reply.status(201).send({ status: 'success' as const, data: { board } });
    },
  );
}
