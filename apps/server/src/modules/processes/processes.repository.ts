import { and, eq, gte, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { heraldProcesses, postTargets } from '../../db/schema.js';
import { HELD } from '../publishing/publishing.lookups.js';

export type ProcessRow = typeof heraldProcesses.$inferSelect;
export type NewProcess = Omit<ProcessRow, 'startedAt' | 'heartbeatAt'>;

/** The database's clock minus `seconds`: every host compares heartbeats on the same clock. */
const secondsAgo = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

/** Adds this process's row, its heartbeat now (by the database's clock, answered). */
export async function insertProcess(db: Db, process: NewProcess): Promise<Date> {
  const [row] = await db
    .insert(heraldProcesses)
    .values({ ...process, startedAt: sql`now()`, heartbeatAt: sql`now()` })
    .onConflictDoUpdate({ target: heraldProcesses.id, set: { heartbeatAt: sql`now()` } })
    .returning({ heartbeatAt: heraldProcesses.heartbeatAt });
  return row!.heartbeatAt;
}

/**
 * Touches the process's heartbeat and answers it; null when its row is gone (it was taken for
 * dead and removed).
 */
export async function touchProcess(db: Db, id: string): Promise<Date | null> {
  const [row] = await db
    .update(heraldProcesses)
    .set({ heartbeatAt: sql`now()` })
    .where(eq(heraldProcesses.id, id))
    .returning({ heartbeatAt: heraldProcesses.heartbeatAt });
  return row?.heartbeatAt ?? null;
}

export async function deleteProcess(db: Db, id: string) {
  await db.delete(heraldProcesses).where(eq(heraldProcesses.id, id));
}

/** The processes whose heartbeat is younger than `lapseSeconds`, oldest first. */
export function liveProcesses(db: Db, lapseSeconds: number) {
  return db
    .select()
    .from(heraldProcesses)
    .where(gte(heraldProcesses.heartbeatAt, secondsAgo(lapseSeconds)))
    .orderBy(heraldProcesses.startedAt);
}

/** The processes whose heartbeat lapsed (they died without removing their row). */
export function lapsedProcesses(db: Db, lapseSeconds: number) {
  return db
    .select()
    .from(heraldProcesses)
    .where(lt(heraldProcesses.heartbeatAt, secondsAgo(lapseSeconds)));
}

/**
 * Removes the rows of lapsed processes that no target names as its holder any more (what they
 * held has been settled); the rows of those still named stay, so they are still known as dead.
 */
export async function pruneLapsedProcesses(db: Db, lapseSeconds: number) {
  return db
    .delete(heraldProcesses)
    .where(
      and(
        lt(heraldProcesses.heartbeatAt, secondsAgo(lapseSeconds)),
        notExists(
          db
            .select({ id: postTargets.id })
            .from(postTargets)
            .where(
              and(eq(postTargets.heldBy, heraldProcesses.id), inArray(postTargets.status, HELD)),
            ),
        ),
      ),
    )
    .returning({ id: heraldProcesses.id, host: heraldProcesses.host, kind: heraldProcesses.kind });
}
