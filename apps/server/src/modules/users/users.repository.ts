import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { members, users } from '../../db/schema.js';

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

export async function setAdminByEmail(db: Db, email: string, isAdmin: boolean) {
  const rows = await db
    .update(users)
    .set({ isAdmin, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .returning({ id: users.id });
  return rows.length;
}

/** The caller's most recently joined active membership, if any. */
export async function findCurrentMembership(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.userId, userId), eq(members.status, 'ACTIVE')))
    .orderBy(desc(members.joinedAt), desc(members.createdAt))
    .limit(1);
  return row ?? null;
}
