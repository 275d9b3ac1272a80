import { asc, count, desc, eq, gte, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { organizations, plans, platforms, posts, users } from '../../db/schema.js';
import { containsPattern } from '../../lib/like-pattern.js';

/** Every user, or those whose name or email contains `search` (any case); newest first. */
export async function listUsers(db: Db, opts: { search?: string; page: number; pageSize: number }) {
  const where = opts.search
    ? or(
        ilike(users.displayName, containsPattern(opts.search)),
        ilike(users.email, containsPattern(opts.search)),
      )
    : undefined;
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function countAll(db: Db) {
  const countOf = async (table: PgTable) =>
    (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
  const [userCount, platformCount, planCount] = await Promise.all([
    countOf(users),
    countOf(platforms),
    countOf(plans),
  ]);
  return { users: userCount, platforms: platformCount, plans: planCount };
}

/**
 * Rows created per calendar day of `timezone`, from the local day `fromDay` (YYYY-MM-DD) on.
 * The lower bound is compared as a timestamp, so the created_at indexes serve it.
 */
async function perDay(
  db: Db,
  table: PgTable,
  createdAt: PgColumn,
  timezone: string,
  fromDay: string,
): Promise<Map<string, number>> {
  const day: SQL<string> = sql<string>`to_char((${createdAt} at time zone ${timezone})::date, 'YYYY-MM-DD')`;
  const start = sql`(${fromDay}::timestamp at time zone ${timezone})`;
  const rows = await db
    .select({ day, n: count() })
    .from(table)
    .where(gte(createdAt, start))
    // By position: the same expression written twice would carry two parameters, which
    // PostgreSQL does not recognise as one grouping.
    .groupBy(sql`1`);
  return new Map(rows.map((r) => [r.day, r.n]));
}

export function signUpsPerDay(db: Db, timezone: string, fromDay: string) {
  return perDay(db, users, users.createdAt, timezone, fromDay);
}

export function postsPerDay(db: Db, timezone: string, fromDay: string) {
  return perDay(db, posts, posts.createdAt, timezone, fromDay);
}

export async function organizationExists(db: Db, organizationId: string) {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return Boolean(org);
}
