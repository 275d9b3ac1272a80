import fastifyMultipart from '@fastify/multipart';
import {
  BulkPostsRequestSchema,
  BulkPostsResponseSchema,
  BulkRescheduleRequestSchema,
  BulkScheduleResponseSchema,
  DeletePostResponseSchema,
  CreatePostJsonSchema,
  CreatePostMultipartSchema,
  EditPostJsonSchema,
  EditPostMultipartSchema,
  type CreatePostFields,
  type CreatePostJson,
  type EditPostFields,
  type EditPostJson,
  ListPostsQuerySchema,
  OrgParamsSchema,
  POSTS_LIST_CAP,
  PostParamsSchema,
  PostResponseSchema,
  PostsResponseSchema,
  UpdatePostRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import { callerTimeZone } from '../../http/time-zone.js';
import { meterFetchedMedia, meterUpload } from '../../http/rate-limits.js';
import { AppError } from '../../lib/app-error.js';
import { libraryFiles, withLibraryFiles, type LibraryFiles } from './library-media.js';
import { altTextsWithMedia, ingestMediaByUrl, type MediaImportLimits } from './media-by-url.js';
import { withReachableTargets } from './post-dto.js';
import { parseCreateFields, parseEditFields } from './post-fields.js';
import { editPost, planEdit } from './posts.edit.js';
import {
  bulkPosts,
  checkPostAllowance,
  createPost,
  planCreate,
  type CreatePlan,
  deletePost,
  getPost,
  listPosts,
  updatePost,
  type Caller,
  type PostsDeps,
} from './posts.service.js';
import { addPostToQueue, bulkQueue, bulkReschedule } from './posts.schedule.js';
import { keysOf, readUpload, type Upload } from './posts.upload.js';

/** The caller of an organization route, and whether they may approve posts. */
function callerOf(request: FastifyRequest, organizationId: string): Caller {
  return {
    organizationId,
    userId: requireUser(request).user.id,
    apiKeyId: requireUser(request).apiKey?.id ?? null,
    canApprove: requireMember(request).permissions.includes('post:approve'),
    accountIds: requireMember(request).accountIds,
  };
}

/** A JSON body (the other bodies these routes take are multipart). */
const isJson = (request: FastifyRequest) =>
  /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(request.headers['content-type'] ?? '');

export interface PostsRoutesDeps extends PostsDeps {
  /** Media given by url in a JSON post: the guarded fetch's limits (MEDIA_IMPORT_*). */
  mediaImport: MediaImportLimits;
}

export async function postsRoutes(app: FastifyInstance, deps: PostsRoutesDeps) {
  // Multipart only in this scope; file size is the media store's business (it streams).
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: Number.MAX_SAFE_INTEGER,
      fieldSize: 1024 * 1024,
      fields: 20,
      files: 50,
      parts: 80,
    },
  });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/organizations/:orgId/post',
    {
      config: { access: { org: 'POST /organizations/:orgId/post' } },
      schema: {
        tags: ['posts'],
        summary:
          'Create a post (multipart: integrationIds or platformIds, content, scheduledAt, media, platformMedia), or as JSON with media by url',
        params: OrgParamsSchema,
        // The JSON body is validated here; the multipart form is read part by part (readUpload)
        // and only described for the OpenAPI document.
        body: { content: { 'application/json': { schema: CreatePostJsonSchema } } },
        multipartBody: CreatePostMultipartSchema,
        response: { 201: PostResponseSchema },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      if (isJson(request)) {
        const caller = callerOf(request, orgId);
        const { media = [], ...rest } = request.body as CreatePostJson;
        const fields: CreatePostFields = {
          ...rest,
          altTexts: altTextsWithMedia(rest.altTexts, media),
        };
        // Every check that needs no file runs before the first download.
        await checkPostAllowance(deps, orgId);
        const plan = await planCreate(deps, caller, fields);
        const fromLibrary = await libraryFiles(deps.db, orgId, fields.libraryMedia);
        const files = await ingestMediaByUrl(media, deps.media, orgId, deps.mediaImport, (file) =>
          meterFetchedMedia(request, file),
        );
        try {
          const all = withLibraryFiles(files, fromLibrary);
          const post = await createPost(deps, caller, fields, all, plan);
          return reply.code(201).send({ status: 'success' as const, data: { post } });
        } catch (error) {
          await deps.media.remove(keysOf(files));
          throw error;
        }
      }
      if (!request.isMultipart()) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the post as application/json (media by url) or as multipart/form-data with the fields integrationIds (or platformIds), content and media.',
        );
      }
      const caller = callerOf(request, orgId);
      // Refuse before reading the upload: a refused post should not cost a 200 MB upload.
      let checked:
        { fields: CreatePostFields; plan: CreatePlan; fromLibrary: LibraryFiles } | undefined;
      let upload: Upload;
      try {
        await checkPostAllowance(deps, orgId);
        upload = await readUpload(
          request.parts(),
          deps.media,
          orgId,
          async (raw) => {
            const fields = parseCreateFields(raw);
            const plan = await planCreate(deps, caller, fields);
            checked = {
              fields,
              plan,
              fromLibrary: await libraryFiles(deps.db, orgId, fields.libraryMedia),
            };
          },
          (file) => meterUpload(request, file),
        );
      } catch (error) {
        // The rest of the body is not worth reading: close the connection after the answer.
        reply.header('connection', 'close');
        throw error;
      }
      try {
        const { fields, plan, fromLibrary } = checked!;
        const all = withLibraryFiles(upload.files, fromLibrary);
        const post = await createPost(deps, caller, fields, all, plan);
        return reply.code(201).send({ status: 'success' as const, data: { post } });
      } catch (error) {
        await deps.media.remove(keysOf(upload.files));
        throw error;
      }
    },
  );

  api.put(
    '/organizations/:orgId/post/:postId',
    {
      config: { access: { org: 'PUT /organizations/:orgId/post/:postId' } },
      schema: {
        tags: ['posts'],
        summary:
          'Edit a post (multipart: the create fields, plus keepMediaIds for stored files; what already went out to an account stays), or as JSON with new media by url',
        params: PostParamsSchema,
        body: { content: { 'application/json': { schema: EditPostJsonSchema } } },
        multipartBody: EditPostMultipartSchema,
        response: { 200: PostResponseSchema },
      },
    },
    async (request, reply) => {
      const { orgId, postId } = request.params;
      if (isJson(request)) {
        const caller = callerOf(request, orgId);
        const { media = [], ...rest } = request.body as EditPostJson;
        // Alt texts name a kept file by id and a new one by its index among the new files. A
        // post edited without altTexts keeps its files' alt texts: when only the new files have
        // theirs, the kept files' own are carried over so they do not lose them.
        let altTexts = rest.altTexts;
        if (altTexts === undefined && media.some((m) => m.altText !== undefined)) {
          const current = await getPost(deps, orgId, postId);
          altTexts = Object.fromEntries(
            current.media.flatMap((m) => (m.altText ? [[m.id, m.altText]] : [])),
          );
        }
        const fields: EditPostFields = { ...rest, altTexts: altTextsWithMedia(altTexts, media) };
        await planEdit(deps.db, deps.now(), caller, postId, fields, false, deps.shortLinkBase);
        const fromLibrary = await libraryFiles(deps.db, orgId, fields.libraryMedia);
        const files = await ingestMediaByUrl(media, deps.media, orgId, deps.mediaImport, (file) =>
          meterFetchedMedia(request, file),
        );
        try {
          const all = withLibraryFiles(files, fromLibrary);
          const post = await editPost(deps, caller, postId, fields, all);
          return { status: 'success' as const, data: { post } };
        } catch (error) {
          await deps.media.remove(keysOf(files));
          throw error;
        }
      }
      if (!request.isMultipart()) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the edit as application/json (new media by url) or as multipart/form-data with the fields integrationIds, content, keepMediaIds and any new media.',
        );
      }
      const caller = callerOf(request, orgId);
      let fields: EditPostFields | undefined;
      let fromLibrary: LibraryFiles = new Map();
      let upload: Upload;
      try {
        upload = await readUpload(
          request.parts(),
          deps.media,
          orgId,
          async (raw) => {
            fields = parseEditFields(raw);
            // Refused before the first file byte is stored; checked again under lock below.
            await planEdit(deps.db, deps.now(), caller, postId, fields, false, deps.shortLinkBase);
            fromLibrary = await libraryFiles(deps.db, orgId, fields.libraryMedia);
          },
          (file) => meterUpload(request, file),
        );
      } catch (error) {
        reply.header('connection', 'close');
        throw error;
      }
      try {
        const all = withLibraryFiles(upload.files, fromLibrary);
        const post = await editPost(deps, caller, postId, fields!, all);
        return { status: 'success' as const, data: { post } };
      } catch (error) {
        await deps.media.remove(keysOf(upload.files));
        throw error;
      }
    },
  );

  api.get(
    '/organizations/:orgId/posts',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts' } },
      schema: {
        tags: ['posts'],
        params: OrgParamsSchema,
        querystring: ListPostsQuerySchema,
        response: { 200: PostsResponseSchema },
      },
    },
    async (request) => {
      const { status, q, from, to, platformId, integrationId, unscheduled, page, pageSize } =
        request.query;
      const member = requireMember(request);
      const { posts, meta } = await listPosts(
        deps,
        request.params.orgId,
        {
          status,
          q: q || undefined,
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
          platformId,
          integrationId,
          unscheduled,
          page,
          pageSize,
          reachable: member.accountIds ?? undefined,
        },
        POSTS_LIST_CAP,
      );
      return {
        status: 'success' as const,
        data: { posts: posts.map((post) => withReachableTargets(post, member)) },
        meta,
      };
    },
  );

  api.get(
    '/organizations/:orgId/posts/:postId',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/:postId' } },
      schema: { tags: ['posts'], params: PostParamsSchema, response: { 200: PostResponseSchema } },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        post: withReachableTargets(
          await getPost(deps, request.params.orgId, request.params.postId),
          requireMember(request),
        ),
      },
    }),
  );

  api.put(
    '/organizations/:orgId/posts/:postId',
    {
      config: { access: { org: 'PUT /organizations/:orgId/posts/:postId' } },
      schema: {
        tags: ['posts'],
        params: PostParamsSchema,
        body: UpdatePostRequestSchema,
        response: { 200: PostResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        post: await updatePost(
          deps,
          request.params.orgId,
          request.params.postId,
          request.body,
          callerOf(request, request.params.orgId),
        ),
      },
    }),
  );

  api.delete(
    '/organizations/:orgId/posts/:postId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/posts/:postId' } },
      schema: {
        tags: ['posts'],
        params: PostParamsSchema,
        response: { 200: DeletePostResponseSchema },
      },
    },
    async (request) => {
      const { notice } = await deletePost(deps, request.params.orgId, request.params.postId);
      return { status: 'success' as const, data: notice ? { notice } : null };
    },
  );

  // All or nothing (posts.service bulkPosts); one route per action, each with its permission.
  const bulkRoutes = [
    {
      action: 'delete',
      route: 'POST /organizations/:orgId/posts/bulk/delete',
      summary: 'Delete several posts (all or none)',
    },
    {
      action: 'draft',
      route: 'POST /organizations/:orgId/posts/bulk/draft',
      summary: 'Move several posts back to draft (all or none)',
    },
  ] as const;
  for (const { action, route, summary } of bulkRoutes) {
    api.post(
      `/organizations/:orgId/posts/bulk/${action}`,
      {
        config: { access: { org: route } },
        schema: {
          tags: ['posts'],
          summary,
          params: OrgParamsSchema,
          body: BulkPostsRequestSchema,
          response: { 200: BulkPostsResponseSchema },
        },
      },
      async (request) => {
        const { postIds, notice } = await bulkPosts(
          deps,
          request.params.orgId,
          action,
          request.body.postIds,
        );
        const data = { postIds, count: postIds.length };
        return { status: 'success' as const, data: notice ? { ...data, notice } : data };
      },
    );
  }

  api.post(
    '/organizations/:orgId/posts/bulk/reschedule',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/bulk/reschedule' } },
      schema: {
        tags: ['posts'],
        summary:
          'Move several posts to a day keeping their times of day, or by a number of days (all or none)',
        params: OrgParamsSchema,
        body: BulkRescheduleRequestSchema,
        response: { 200: BulkScheduleResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      // The days the screen showed, else those of the zone that applies to the caller.
      const zone = request.body.timeZone ?? callerTimeZone(request).zone;
      const posts = await bulkReschedule(deps, callerOf(request, orgId), request.body, zone);
      return {
        status: 'success' as const,
        data: { postIds: posts.map((p) => p.id), count: posts.length, posts },
      };
    },
  );

  api.post(
    '/organizations/:orgId/posts/bulk/queue',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/bulk/queue' } },
      schema: {
        tags: ['posts'],
        summary:
          "Put several posts, in order, into their accounts' next free queue slots (all or none)",
        params: OrgParamsSchema,
        body: BulkPostsRequestSchema,
        response: { 200: BulkScheduleResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const posts = await bulkQueue(deps, callerOf(request, orgId), request.body.postIds);
      return {
        status: 'success' as const,
        data: { postIds: posts.map((p) => p.id), count: posts.length, posts },
      };
    },
  );

  api.post(
    '/organizations/:orgId/posts/:postId/queue',
    {
      config: { access: { org: 'POST /organizations/:orgId/posts/:postId/queue' } },
      schema: {
        tags: ['posts'],
        summary: "Put a draft or scheduled post into its accounts' next free queue slot",
        params: PostParamsSchema,
        response: { 200: PostResponseSchema },
      },
    },
    async (request) => {
      const { orgId, postId } = request.params;
      const post = await addPostToQueue(deps, callerOf(request, orgId), postId);
      return { status: 'success' as const, data: { post } };
    },
  );
}
