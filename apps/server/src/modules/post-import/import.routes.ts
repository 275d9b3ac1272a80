import { Readable } from 'node:stream';
import {
  dayIn,
  ImportDryRunResponseSchema,
  ImportRequestSchema,
  ImportResponseSchema,
  OrgParamsSchema,
  PostsExportQuerySchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import { callerTimeZone } from '../../http/time-zone.js';
import { AppError } from '../../lib/app-error.js';
import type { Caller } from '../posts/posts.service.js';
import { exportPostsCsv } from './export.service.js';
import { dryRun, importCsv, type ImportDeps } from './import.service.js';

/** JSON with up to 8 MB of CSV text (quotes and line ends escape to two characters). */
const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

function callerOf(request: FastifyRequest, organizationId: string): Caller {
  return {
    organizationId,
    userId: requireUser(request).user.id,
    canApprove: requireMember(request).permissions.includes('post:approve'),
    accountIds: requireMember(request).accountIds,
  };
}

/** docs/queue-and-import.md: CSV import (dry run, then import) and the streamed CSV export. */
export async function postImportRoutes(app: FastifyInstance, deps: ImportDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['posts'];

  api.post(
    '/organizations/:orgId/posts/import/dry-run',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: { org: 'POST /organizations/:orgId/posts/import/dry-run' } },
      schema: {
        tags,
        summary:
          "Check a CSV of posts: each row's result with the composer's rules; nothing is written",
        params: OrgParamsSchema,
        body: ImportRequestSchema,
        response: { 200: ImportDryRunResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await dryRun(
        deps,
        callerOf(request, request.params.orgId),
        request.body.csv,
        request.body.mode,
        callerTimeZone(request),
      ),
    }),
  );

  api.post(
    '/organizations/:orgId/posts/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: { org: 'POST /organizations/:orgId/posts/import' } },
      schema: {
        tags,
        summary:
          'Import the valid rows of a CSV of posts (drafts or scheduled), one transaction per batch',
        params: OrgParamsSchema,
        body: ImportRequestSchema,
        response: { 200: ImportResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await importCsv(
        deps,
        callerOf(request, request.params.orgId),
        request.body.csv,
        request.body.mode,
        callerTimeZone(request),
      ),
    }),
  );

  api.get(
    '/organizations/:orgId/posts/export.csv',
    {
      config: { access: { org: 'GET /organizations/:orgId/posts/export.csv' } },
      schema: {
        tags,
        description:
          'Posts of a range as CSV (statuses, accounts, networks, permalinks), streamed (docs/queue-and-import.md#csv-export).',
        params: OrgParamsSchema,
        querystring: PostsExportQuerySchema,
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      if (new Date(to).getTime() <= new Date(from).getTime()) {
        throw new AppError('VALIDATION_FAILED', 'to must be after from.');
      }
      // The file is named by the days the member chose, in the zone they chose them in.
      const zone = callerTimeZone(request).zone;
      const day = (iso: string) => dayIn(Date.parse(iso), zone);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="posts-${day(from)}-to-${day(to)}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(
          Readable.from(
            exportPostsCsv(deps.db, request.params.orgId, request.query, requireMember(request)),
          ),
        );
    },
  );
}
