/** Report emails to an organization's clients (docs/reports.md#report-emails). */
import { REPORT_CADENCES, REPORT_DELIVERY_STATUSES } from '@herald/contract';
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** A report sent by email every week or month to the addresses listed. */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /**
     * The accounts covered, by id; empty: every account of the organization (those connected
     * later too). An id whose account was removed since is left out when the report is made.
     */
    integrationIds: uuid('integration_ids').array().notNull().default([]),
    cadence: text('cadence', { enum: REPORT_CADENCES }).notNull(),
    recipients: text('recipients').array().notNull(),
    /** The hour (0–23) it goes out, in the organization's time zone. */
    sendHour: smallint('send_hour').notNull(),
    /**
     * Periods whose send time falls before this are not sent: set when the schedule is created
     * and when its cadence or hour changes, so neither sends a past period's report at once.
     */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_schedules_org_idx').on(t.organizationId)],
);

/**
 * One row per schedule and period, written before the email goes out: the key is what makes a
 * period's report go once, whichever process and however many runs find it due.
 */
export const reportDeliveries = pgTable(
  'report_deliveries',
  {
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    status: text('status', { enum: REPORT_DELIVERY_STATUSES }).notNull(),
    /** Sends tried: a failed one is tried again on later runs, up to a bound. */
    attempts: integer('attempts').notNull().default(1),
    /** When the latest try started (a claim left `sending` by a process that died is old). */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The mail server's or the report's error of the latest failed try. */
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleId, t.periodFrom] }),
    index('report_deliveries_org_idx').on(t.organizationId),
  ],
);
