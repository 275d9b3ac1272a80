import { asc, count, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plans } from '../../db/schema.js';
import { containsPattern } from '../../lib/like-pattern.js';

export type PlanRow = typeof plans.$inferSelect;
export type PlanValues = Omit<
  typeof plans.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'sortOrder'
>;

const order = [asc(plans.sortOrder), asc(plans.price), asc(plans.createdAt)];

export function listActivePlans(db: Db) {
  return db
    .select()
    .from(plans)
    .where(eq(plans.status, 'ACTIVE'))
    .orderBy(...order);
}

/** Every plan, active or not; with `search`, those whose name or description contains it. */
export async function listAllPlans(db: Db, page: number, pageSize: number, search?: string) {
  const where = search
    ? or(
        ilike(plans.name, containsPattern(search)),
        ilike(plans.description, containsPattern(search)),
      )
    : undefined;
  const rows = await db
    .select()
    .from(plans)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db.select({ n: count() }).from(plans).where(where);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function findPlan(db: Db, id: string) {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row ?? null;
}

export async function findPlanByStripePrice(db: Db, stripePriceId: string) {
  const [row] = await db.select().from(plans).where(eq(plans.stripePriceId, stripePriceId));
  return row ?? null;
}

export function insertPlan(db: Db, values: PlanValues) {
  return db
    .insert(plans)
    .values(values)
    .returning()
    .then((r) => r[0]!);
}

export async function updatePlan(db: Db, id: string, values: PlanValues) {
  const [row] = await db
    .update(plans)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(plans.id, id))
    .returning();
  return row ?? null;
}
