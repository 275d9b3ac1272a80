/** Outgoing webhooks (docs/webhooks.md): endpoints, the events sent to them, and each attempt. */
import { WEBHOOK_DELIVERY_STATUSES } from '@herald/contract';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';

/**
 * Where an organization wants its events posted. The signing secret must be read back to sign,
 * so it is sealed with the token key (like account tokens), not hashed; during a rotation the
 * previous one signs too until `previous_secret_expires_at`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonb('events').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** The first failed attempt since the last success: the endpoint is disabled once it is old. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.organizationId)],
);

/**
 * One event for one endpoint: written in the transaction of the change it tells about (the
 * outbox), sent by the delivery job. `body` is the exact bytes signed and sent, so a retry or a
 * redelivery sends the same bytes under the same `message_id` (the `webhook-id` header).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('PENDING'),
    attemptCount: integer('attempt_count').notNull().default(0),
    /** When the job sends it next; null once it succeeded or was given up. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    // The daily prune takes the oldest deliveries of every endpoint by their age alone.
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

/** Every attempt of a delivery, as the delivery log shows it. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    /** At most 1 KB of the answer. */
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);
