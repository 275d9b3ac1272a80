import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { platforms } from '../../db/schema.js';

export type PlatformRow = typeof platforms.$inferSelect;

export function listPlatforms(db: Db, onlyActive: boolean) {
  const q = db.select().from(platforms);
  return (onlyActive ? q.where(eq(platforms.isActive, true)) : q).orderBy(
    asc(platforms.createdAt),
    asc(platforms.name),
  );
}

export async function findPlatform(db: Db, id: string) {
  const [row] = await db.select().from(platforms).where(eq(platforms.id, id));
  return row ?? null;
}

export async function findPlatformByName(db: Db, name: string) {
  const [row] = await db
    .select()
    .from(platforms)
    .where(sql`lower(${platforms.name}) = ${name.toLowerCase()}`);
  return row ?? null;
}

export function insertPlatform(
  db: Db,
  values: { name: string; mediaConstraints: Record<string, unknown> },
) {
  return db
    .insert(platforms)
    .values(values)
    .returning()
    .then((r) => r[0]!);
}

export async function setPlatformActive(db: Db, id: string, isActive: boolean) {
  const [row] = await db
    .update(platforms)
    .set({ isActive })
    .where(eq(platforms.id, id))
    .returning();
  return row ?? null;
}
