import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditValues = Omit<typeof auditLog.$inferInsert, 'id' | 'createdAt'>;

export async function insertAuditEntry(db: Db, values: AuditValues) {
  await db.insert(auditLog).values(values);
}

/** Newest first; the id breaks ties between entries of the same instant. */
export async function listAuditEntries(db: Db, page: number, pageSize: number) {
  const rows = await db
    .select()
    .from(auditLog)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db.select({ n: count() }).from(auditLog);
  return { rows, totalCount: total?.n ?? 0 };
}
