import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByIdentity(db: Db, issuer: string, subject: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)));
  return row ?? null;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row ?? null;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export function insertUser(db: Db, values: typeof users.$inferInsert) {
  return db
    .insert(users)
    .values(values)
    .returning()
    .then((r) => r[0]!);
}

export function updateUser(db: Db, id: string, values: Partial<typeof users.$inferInsert>) {
  return db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning()
    .then((r) => r[0]!);
}

/** Stores `timezone` only when the user has none; returns the user as it is now. */
export async function setTimezoneIfUnset(db: Db, id: string, timezone: string) {
  await db
    .update(users)
    .set({ timezone, updatedAt: new Date() })
    .where(and(eq(users.id, id), isNull(users.timezone)));
  return findUserById(db, id);
}

export async function setAdminByEmail(db: Db, email: string, isAdmin: boolean) {
  const rows = await db
    .update(users)
    .set({ isAdmin, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .returning({ id: users.id });
  return rows.length;
}

export async function setCurrentOrganization(
  db: Db,
  userId: string,
  organizationId: string | null,
) {
  await db.update(users).set({ currentOrganizationId: organizationId }).where(eq(users.id, userId));
}

/** Forgets the user's current organization if it is this one (after they left it). */
export async function clearCurrentOrganizationIf(db: Db, userId: string, organizationId: string) {
  await db
    .update(users)
    .set({ currentOrganizationId: null })
    .where(and(eq(users.id, userId), eq(users.currentOrganizationId, organizationId)));
}
