import type { FastifyBaseLogger } from 'fastify';
import { type ReportsDeps, sendDueReports } from '../modules/reports/reports.service.js';
import type { JobDefinition } from './runtime.js';

/**
 * Report emails (docs/reports.md#report-emails): every 15 minutes, the schedules whose period has
 * ended and whose hour has come in their organization's time zone send it, once per period
 * (claimed in the database, so a second worker or a restart sends nothing twice).
 */
export function reportEmailsJob(deps: ReportsDeps, log: FastifyBaseLogger): JobDefinition {
  return {
    queue: 'reports.email.v1',
    cron: '*/15 * * * *',
    retryLimit: 1,
    async handle() {
      const { sent, failed } = await sendDueReports(deps);
      if (sent > 0 || failed > 0) log.info({ sent, failed }, 'report emails sent');
    },
  };
}
