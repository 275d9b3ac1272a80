/** The back-office audit log. */
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@herald/contract';
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * What platform operators did in the back-office: who, what, when, and the changed fields
 * before and after. Rows are only ever added; the actor's email is copied so an entry still
 * says who after their account changes or goes.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the command line (`herald admin grant|revoke`) or once the account is deleted. */
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    /** The API key the actor acted through (docs/api.md); null when signed in. No foreign key. */
    actorApiKeyId: uuid('actor_api_key_id'),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    targetType: text('target_type', { enum: AUDIT_TARGET_TYPES }).notNull(),
    /** No foreign key: the entry outlives what it is about. */
    targetId: uuid('target_id'),
    targetLabel: text('target_label').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    /** The clock, not the transaction's start: entries of one transaction keep their order. */
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);
