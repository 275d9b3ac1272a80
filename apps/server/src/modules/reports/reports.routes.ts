import {
  CreateReportScheduleRequestSchema,
  EmptySuccessSchema,
  OrgParamsSchema,
  ReportPdfQuerySchema,
  ReportScheduleParamsSchema,
  ReportScheduleResponseSchema,
  ReportSchedulesResponseSchema,
  SendReportNowResponseSchema,
  UpdateReportScheduleRequestSchema,
} from '@herald/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireMember, requireUser } from '../../http/access.js';
import { callerTimeZone } from '../../http/time-zone.js';
import { reachableAnalyticsQuery } from '../team/account-access.js';
import * as service from './reports.service.js';
import type { ReportsCaller, ReportsDeps } from './reports.service.js';

const tags = ['reports'];

const callerOf = (request: FastifyRequest): ReportsCaller => ({
  userId: requireUser(request).user.id,
  permissions: requireMember(request).permissions,
  accountIds: requireMember(request).accountIds,
});

/** Reports for clients (docs/reports.md): the PDF and the report emails. */
export async function reportsRoutes(app: FastifyInstance, options: ReportsDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: ReportsDeps = { ...options, log: options.log ?? app.log };

  api.get(
    '/organizations/:orgId/reports/pdf',
    {
      config: { access: { org: 'GET /organizations/:orgId/reports/pdf' } },
      schema: {
        tags,
        description:
          "The analytics of a range as a PDF report in the organization's branding (docs/reports.md#the-pdf).",
        params: OrgParamsSchema,
        querystring: ReportPdfQuerySchema,
      },
    },
    async (request, reply) => {
      // Days in the zone the analytics screen reads them in for this reader (its `timezone`).
      const zone = request.query.timezone ?? callerTimeZone(request).zone;
      // A member limited to some accounts reports on those accounts only.
      const query = reachableAnalyticsQuery(requireMember(request), request.query);
      const pdf = await service.reportPdf(deps, request.params.orgId, query, zone);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .header('cache-control', 'no-store')
        .send(pdf.stream);
    },
  );

  api.get(
    '/organizations/:orgId/report-schedules',
    {
      config: { access: { org: 'GET /organizations/:orgId/report-schedules' } },
      schema: {
        tags,
        summary: 'Report emails, when each goes next, and whether this server can send email',
        params: OrgParamsSchema,
        response: { 200: ReportSchedulesResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.listSchedules(deps, requireMember(request), request.params.orgId),
    }),
  );

  api.post(
    '/organizations/:orgId/report-schedules',
    {
      config: { access: { org: 'POST /organizations/:orgId/report-schedules' } },
      schema: {
        tags,
        summary: 'Send a report by email every week or month',
        params: OrgParamsSchema,
        body: CreateReportScheduleRequestSchema,
        response: { 201: ReportScheduleResponseSchema },
      },
    },
    async (request, reply) => {
      // A member limited to some accounts schedules reports on those accounts only.
      const body = reachableAnalyticsQuery(requireMember(request), request.body);
      const schedule = await service.createSchedule(
        deps,
        callerOf(request),
        request.params.orgId,
        body,
      );
      return reply.code(201).send({ status: 'success' as const, data: { schedule } });
    },
  );

  api.patch(
    '/organizations/:orgId/report-schedules/:scheduleId',
    {
      config: { access: { org: 'PATCH /organizations/:orgId/report-schedules/:scheduleId' } },
      schema: {
        tags,
        summary: 'Change a report email (what is left out stays)',
        params: ReportScheduleParamsSchema,
        body: UpdateReportScheduleRequestSchema,
        response: { 200: ReportScheduleResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        schedule: await service.updateSchedule(
          deps,
          callerOf(request),
          request.params.orgId,
          request.params.scheduleId,
          request.body.integrationIds === undefined
            ? request.body
            : reachableAnalyticsQuery(requireMember(request), request.body),
        ),
      },
    }),
  );

  api.delete(
    '/organizations/:orgId/report-schedules/:scheduleId',
    {
      config: { access: { org: 'DELETE /organizations/:orgId/report-schedules/:scheduleId' } },
      schema: {
        tags,
        summary: 'Stop a report email',
        params: ReportScheduleParamsSchema,
        response: { 200: EmptySuccessSchema },
      },
    },
    async (request) => {
      await service.deleteSchedule(
        deps,
        requireMember(request),
        request.params.orgId,
        request.params.scheduleId,
      );
      return { status: 'success' as const, data: null };
    },
  );

  api.post(
    '/organizations/:orgId/report-schedules/:scheduleId/send',
    {
      config: { access: { org: 'POST /organizations/:orgId/report-schedules/:scheduleId/send' } },
      schema: {
        tags,
        summary: "Send the last complete period's report now (the scheduled one still goes)",
        params: ReportScheduleParamsSchema,
        response: { 200: SendReportNowResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.sendNow(
        deps,
        callerOf(request),
        request.params.orgId,
        request.params.scheduleId,
      ),
    }),
  );
}
