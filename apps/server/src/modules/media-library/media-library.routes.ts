import {
  CropMediaRequestSchema,
  EmptySuccessSchema,
  ListMediaQuerySchema,
  MediaLibraryItemResponseSchema,
  MediaLibraryParamsSchema,
  MediaLibraryResponseSchema,
  OrgParamsSchema,
  UpdateMediaRequestSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/access.js';
import * as service from './media-library.service.js';

const tags = ['media-library'];

/** docs/media-library.md: every file uploaded to the organization, reusable in any post. */
export async function mediaLibraryRoutes(app: FastifyInstance, deps: service.MediaLibraryDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/organizations/:orgId/media',
    {
      config: { access: { org: 'GET /organizations/:orgId/media' } },
      schema: {
        tags,
        summary:
          "The organization's media library, newest first: search (file name, alt text, tags), filters (type, unused, tag), storage used against the plan",
        params: OrgParamsSchema,
        querystring: ListMediaQuerySchema,
        response: { 200: MediaLibraryResponseSchema },
      },
    },
    async (request) => {
      const { items, storage, meta } = await service.listLibrary(
        deps,
        request.params.orgId,
        request.query,
      );
      return { status: 'success' as const, data: { items, storage }, meta };
    },
  );

  api.get(
    '/organizations/:orgId/media/:mediaId',
    {
      config: { access: { org: 'GET /organizations/:orgId/media/:mediaId' } },
      schema: {
        tags,
        summary: 'One item of the media library',
        params: MediaLibraryParamsSchema,
        response: { 200: MediaLibraryItemResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        item: await service.getItem(deps, request.params.orgId, request.params.mediaId),
      },
    }),
  );

  api.patch(
    '/organizations/:orgId/media/:mediaId',
    {
      config: { access: { org: 'PATCH /organizations/:orgId/media/:mediaId' } },
      schema: {
        tags,
        summary: "Set an item's alt text (the default when it is reused), add or remove tags",
        params: MediaLibraryParamsSchema,
        body: UpdateMediaRequestSchema,
        response: { 200: MediaLibraryItemResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        item: await service.updateItem(
          deps,
          request.params.orgId,
          request.params.mediaId,
          request.body,
        ),
      },
    }),
  );

  api.delete(
    '/organizations/:orgId/media/:mediaId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/media/:mediaId' } },
      schema: {
        tags,
        summary: 'Delete an item no post uses (409 with a sentence when a post uses it)',
        params: MediaLibraryParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteItem(deps, request.params.orgId, request.params.mediaId);
      return { status: 'success' as const, data: null };
    },
  );

  api.post(
    '/organizations/:orgId/media/:mediaId/crop',
    {
      config: { access: { org: 'POST /organizations/:orgId/media/:mediaId/crop' } },
      schema: {
        tags,
        summary:
          'Crop an image to 1:1, 4:5, 9:16, 16:9 or 1.91:1: a new item linked to its original, which is kept (201; 200 when the same crop exists)',
        params: MediaLibraryParamsSchema,
        body: CropMediaRequestSchema,
        response: { 200: MediaLibraryItemResponseSchema, 201: MediaLibraryItemResponseSchema },
      },
    },
    async (request, reply) => {
      const { item, created } = await service.cropItem(
        deps,
        { organizationId: request.params.orgId, userId: requireUser(request).user.id },
        request.params.mediaId,
        request.body,
      );
      return reply.code(created ? 201 : 200).send({ status: 'success' as const, data: { item } });
    },
  );
}
