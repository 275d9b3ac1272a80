import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxRecords } from '../db/schema.js';

/** A network emulator's memory (accounts, codes, tokens…), kept in the database across restarts. */
export interface SandboxStore {
  get<T extends object>(kind: string, id: string): Promise<T | null>;
  put(kind: string, id: string, data: object): Promise<void>;
  delete(kind: string, id: string): Promise<void>;
  list<T extends object>(kind: string): Promise<Array<{ id: string; data: T }>>;
}

export function createSandboxStore(db: Db, network: string): SandboxStore {
  const key = (kind: string, id: string) =>
    and(
      eq(sandboxRecords.network, network),
      eq(sandboxRecords.kind, kind),
      eq(sandboxRecords.id, id),
    );
  return {
    async get<T extends object>(kind: string, id: string) {
      const [row] = await db.select().from(sandboxRecords).where(key(kind, id));
      return (row?.data as T | undefined) ?? null;
    },
    async put(kind, id, data) {
      await db
        .insert(sandboxRecords)
        .values({ network, kind, id, data: data as Record<string, unknown> })
        .onConflictDoUpdate({
          target: [sandboxRecords.network, sandboxRecords.kind, sandboxRecords.id],
          set: { data: data as Record<string, unknown> },
        });
    },
    async delete(kind, id) {
      await db.delete(sandboxRecords).where(key(kind, id));
    },
    async list<T extends object>(kind: string) {
      const rows = await db
        .select()
        .from(sandboxRecords)
        .where(and(eq(sandboxRecords.network, network), eq(sandboxRecords.kind, kind)));
      return rows.map((r) => ({ id: r.id, data: r.data as T }));
    },
  };
}
