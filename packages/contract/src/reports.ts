import { z } from 'zod';
import { AnalyticsExportQuerySchema } from './analytics.js';
import { successEnvelope } from './envelope.js';

/**
 * Reports for clients (docs/reports.md): the analytics of a range as a branded PDF, downloaded
 * or sent by email on a schedule.
 */

/**
 * `GET /organizations/{orgId}/reports/pdf` (analytics:view): the analytics screen's range and
 * filters (`from`, `to`, `platformIds`, `integrationIds`), checked as the overview checks them.
 */
export const ReportPdfQuerySchema = AnalyticsExportQuerySchema;
export type ReportPdfQuery = z.infer<typeof ReportPdfQuerySchema>;

export const REPORT_CADENCES = ['weekly', 'monthly'] as const;
export type ReportCadence = (typeof REPORT_CADENCES)[number];

/** The addresses one schedule sends to. */
export const REPORT_RECIPIENTS_MAX = 10;
/** The schedules one organization keeps. */
export const REPORT_SCHEDULES_MAX = 20;
/** The hour (in the organization's time zone) a report goes out when none is chosen. */
export const REPORT_DEFAULT_SEND_HOUR = 8;
export const REPORT_NAME_MAX = 100;

const NAME_MESSAGE = 'Name the report, for example "Weekly report for Acme".';

const ReportNameSchema = z
  .string({ error: NAME_MESSAGE })
  .trim()
  .min(1, NAME_MESSAGE)
  .max(REPORT_NAME_MAX, `The report's name can be at most ${REPORT_NAME_MAX} characters.`);

const RecipientSchema = z
  .string({ error: 'Each recipient is an email address, such as name@example.com.' })
  .trim()
  .toLowerCase()
  .pipe(
    z.email({
      error: (issue) =>
        `“${String(issue.input)}” is not an email address: write it like name@example.com.`,
    }),
  );

const RecipientsSchema = z
  .array(RecipientSchema, { error: 'List the addresses to send the report to.' })
  .min(1, 'Add at least one address to send the report to.')
  .max(
    REPORT_RECIPIENTS_MAX,
    `A report goes to at most ${REPORT_RECIPIENTS_MAX} addresses: send another report for more.`,
  )
  .transform((list) => [...new Set(list)]);

const CadenceSchema = z.enum(REPORT_CADENCES, {
  error: 'Choose how often the report goes out: weekly or monthly.',
});

const SEND_HOUR_MESSAGE = 'The hour to send is a whole hour from 0 to 23.';
const SendHourSchema = z
  .number({ error: SEND_HOUR_MESSAGE })
  .int(SEND_HOUR_MESSAGE)
  .min(0, SEND_HOUR_MESSAGE)
  .max(23, SEND_HOUR_MESSAGE);

const AccountIdsSchema = z
  .array(z.uuid('Choose accounts of this organization.'), {
    error: 'Choose accounts of this organization.',
  })
  .max(100, 'Choose at most 100 accounts.');

/** `POST /organizations/{orgId}/report-schedules` (org:manage and analytics:view). */
export const CreateReportScheduleRequestSchema = z.object({
  name: ReportNameSchema,
  /** The accounts the report covers; left out or empty: every account of the organization. */
  integrationIds: AccountIdsSchema.optional(),
  /** weekly: the previous Monday–Sunday; monthly: the previous calendar month. */
  cadence: CadenceSchema,
  recipients: RecipientsSchema,
  /** The hour it goes out, in the organization's time zone (8 when left out). */
  sendHour: SendHourSchema.optional(),
});
export type CreateReportScheduleRequest = z.input<typeof CreateReportScheduleRequestSchema>;

/** `PATCH /organizations/{orgId}/report-schedules/{scheduleId}`: what is left out stays. */
export const UpdateReportScheduleRequestSchema = z
  .object({
    name: ReportNameSchema.optional(),
    integrationIds: AccountIdsSchema.optional(),
    cadence: CadenceSchema.optional(),
    recipients: RecipientsSchema.optional(),
    sendHour: SendHourSchema.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Send name, integrationIds, cadence, recipients or sendHour.',
  });
export type UpdateReportScheduleRequest = z.input<typeof UpdateReportScheduleRequestSchema>;

export const ReportScheduleParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  scheduleId: z.uuid('The report schedule id is not valid.'),
});

/** A range of days: `from` and `to` both included. */
const PeriodSchema = z.object({ from: z.string(), to: z.string() });

export const REPORT_DELIVERY_STATUSES = ['sending', 'sent', 'failed'] as const;

export const ReportScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Empty: every account of the organization. */
  integrationIds: z.array(z.string()),
  cadence: z.enum(REPORT_CADENCES),
  recipients: z.array(z.string()),
  sendHour: z.number().int(),
  /** The period the next email covers, and when it goes out (ISO 8601). */
  nextPeriod: PeriodSchema,
  nextSendAt: z.string(),
  /** The latest scheduled email: its period and how it went; null before the first. */
  lastDelivery: PeriodSchema.extend({
    status: z.enum(REPORT_DELIVERY_STATUSES),
    at: z.string(),
    /** Why the email could not be sent (the mail server's answer), for a failed one. */
    error: z.string().nullable(),
  }).nullable(),
  createdAt: z.string(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

/** Whether this server can send email at all, and if not, why and what to set. */
const ReportEmailSchema = z.object({
  available: z.boolean(),
  reason: z.string().nullable(),
});

export const ReportSchedulesResponseSchema = successEnvelope(
  z.object({
    schedules: z.array(ReportScheduleSchema),
    /** The zone the periods and send hours are read in (the organization's). */
    timeZone: z.string(),
    email: ReportEmailSchema,
  }),
);
export type ReportSchedules = z.infer<typeof ReportSchedulesResponseSchema>['data'];

export const ReportScheduleResponseSchema = successEnvelope(
  z.object({ schedule: ReportScheduleSchema }),
);

/**
 * `POST …/report-schedules/{scheduleId}/send` (org:manage and analytics:view): the report of the
 * last complete period, now, to the schedule's recipients; the scheduled email still goes.
 */
export const SendReportNowResponseSchema = successEnvelope(
  z.object({ period: PeriodSchema, recipients: z.array(z.string()), message: z.string() }),
);
