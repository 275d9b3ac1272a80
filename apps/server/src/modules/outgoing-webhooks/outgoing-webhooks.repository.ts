import { and, asc, desc, eq, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';

/** NOTIFY channel: deliveries were recorded, due now (delivery-nudge.ts listens). */
export const WEBHOOKS_DUE_CHANNEL = 'herald_webhooks_due';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type NewAttempt = typeof webhookAttempts.$inferInsert;

export function listEndpoints(db: Db, organizationId: string) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(asc(webhookEndpoints.createdAt));
}

export async function findEndpoint(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.id, id)));
  return row ?? null;
}

export async function insertEndpoint(db: Db, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(
  db: Db,
  organizationId: string,
  id: string,
  set: Partial<typeof webhookEndpoints.$inferInsert>,
) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: Db, organizationId: string, id: string) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * One delivery of each event for each enabled endpoint of the organization that subscribes to
 * its type, in one statement however many events: the publisher's and the inbox's hot paths pay
 * a single insert, which adds nothing for an organization without endpoints. When it recorded
 * any, the workers are nudged (`WEBHOOKS_DUE_CHANNEL`) to send them as soon as it commits.
 */
export async function insertEventDeliveries(
  db: Db,
  organizationId: string,
  events: Array<{ type: string; messageId: string; body: string; at: Date }>,
) {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    message_id: e.messageId,
    type: e.type,
    body: e.body,
    at: e.at.toISOString(),
  }));
  // The nudge is delivered when the transaction commits, and never if it rolls back.
  await db.execute(sql`
    with inserted as (
      insert into ${webhookDeliveries}
        (organization_id, endpoint_id, message_id, type, body, next_attempt_at)
      select e.organization_id, e.id, v.message_id, v.type, v.body, v.at
      from ${webhookEndpoints} e
      join jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as v(message_id text, type text, body text, at timestamptz)
        on e.events @> jsonb_build_array(v.type)
      where e.organization_id = ${organizationId} and e.enabled
      returning 1
    )
    select pg_notify(${WEBHOOKS_DUE_CHANNEL}, '') where exists (select 1 from inserted)`);
}

export async function insertDeliveries(db: Db, rows: (typeof webhookDeliveries.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints by moving their next attempt to
 * `leaseUntil`: a second worker looking at the same moment skips them, and a worker that dies
 * mid-send leaves them due again once the lease passes.
 */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number) {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.status, 'PENDING'),
        isNotNull(webhookDeliveries.nextAttemptAt),
        lte(webhookDeliveries.nextAttemptAt, now),
        eq(webhookEndpoints.enabled, true),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { of: webhookDeliveries, skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: leaseUntil })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  // An update returns its rows in no particular order: oldest events go first.
  return claimed.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
}

export async function findDelivery(db: Db, organizationId: string, endpointId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
      ),
    );
  return row ?? null;
}

export async function insertAttempt(db: Db, attempt: NewAttempt) {
  const [row] = await db.insert(webhookAttempts).values(attempt).returning();
  return row!;
}

export async function settleDelivery(
  db: Db,
  id: string,
  set: Pick<DeliveryRow, 'status' | 'nextAttemptAt' | 'attemptCount'>,
) {
  const [row] = await db
    .update(webhookDeliveries)
    .set(set)
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row ?? null;
}

/** Newest first, with their attempts. */
export async function listDeliveries(
  db: Db,
  organizationId: string,
  endpointId: string,
  limit: number,
) {
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        eq(webhookDeliveries.endpointId, endpointId),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  const attempts = await attemptsOf(
    db,
    deliveries.map((d) => d.id),
  );
  return deliveries.map((d) => ({ ...d, attempts: attempts.get(d.id) ?? [] }));
}

export async function attemptsOf(db: Db, deliveryIds: string[]) {
  const byDelivery = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId) ?? [];
    list.push(row);
    byDelivery.set(row.deliveryId, list);
  }
  return byDelivery;
}

/** Stops the retries of a disabled endpoint's waiting deliveries. */
export async function giveUpPending(db: Db, endpointId: string) {
  await db
    .update(webhookDeliveries)
    .set({ status: 'FAILED', nextAttemptAt: null })
    .where(
      and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'PENDING')),
    );
}

/** After a failed attempt: the endpoint fails since its first failure after the last success. */
export async function markFailing(db: Db, endpointId: string, at: Date) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  return row ?? null;
}

export async function markAnswering(db: Db, endpointId: string) {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(and(eq(webhookEndpoints.id, endpointId), isNotNull(webhookEndpoints.failingSince)));
}

/** Turns an enabled endpoint off; false when it was off already (another worker did it). */
export async function disableEndpoint(db: Db, endpointId: string, reason: string) {
  const rows = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

export async function findEndpointById(db: Db, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row ?? null;
}

/**
 * Deletes up to `limit` deliveries recorded before `before`, whatever their state, with their
 * attempts (cascade); answers how many.
 */
export async function deleteDeliveriesBefore(db: Db, before: Date, limit: number) {
  const old = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(lt(webhookDeliveries.createdAt, before))
    .limit(limit);
  const removed = await db
    .delete(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, old))
    .returning({ id: webhookDeliveries.id });
  return removed.length;
}
