import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { devAccounts, oidcPayloads } from '../db/schema.js';

type Payload = Record<string, unknown>;

const live = (now: Date) => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, now));

export async function upsertPayload(
  db: Db,
  model: string,
  id: string,
  payload: Payload,
  expiresAt: Date | null,
) {
  const values = {
    model,
    id,
    payload,
    grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
    userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
    uid: typeof payload.uid === 'string' ? payload.uid : null,
    expiresAt,
  };
  await db
    .insert(oidcPayloads)
    .values(values)
    .onConflictDoUpdate({
      target: [oidcPayloads.model, oidcPayloads.id],
      set: { ...values, consumedAt: null },
    });
}

async function findWhere(db: Db, model: string, where: ReturnType<typeof eq>) {
  const [row] = await db
    .select()
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.model, model), where, live(new Date())));
  if (!row) return undefined;
  const payload = row.payload as Payload;
  return row.consumedAt
    ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
    : payload;
}

export const findPayload = (db: Db, model: string, id: string) =>
  findWhere(db, model, eq(oidcPayloads.id, id));
export const findPayloadByUid = (db: Db, model: string, uid: string) =>
  findWhere(db, model, eq(oidcPayloads.uid, uid));
export const findPayloadByUserCode = (db: Db, model: string, code: string) =>
  findWhere(db, model, eq(oidcPayloads.userCode, code));

export async function consumePayload(db: Db, model: string, id: string) {
  await db
    .update(oidcPayloads)
    .set({ consumedAt: new Date() })
    .where(and(eq(oidcPayloads.model, model), eq(oidcPayloads.id, id)));
}

export async function destroyPayload(db: Db, model: string, id: string) {
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.model, model), eq(oidcPayloads.id, id)));
}

export async function revokeByGrant(db: Db, grantId: string) {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
}

export async function deleteExpiredPayloads(db: Db, now: Date) {
  const rows = await db
    .delete(oidcPayloads)
    .where(lt(oidcPayloads.expiresAt, now))
    .returning({ id: oidcPayloads.id });
  return rows.length;
}

export async function upsertDevAccount(db: Db, email: string, name: string | null) {
  await db
    .insert(devAccounts)
    .values({ email, name })
    .onConflictDoUpdate({ target: devAccounts.email, set: { name } });
}

export async function findDevAccount(db: Db, email: string) {
  const [row] = await db.select().from(devAccounts).where(eq(devAccounts.email, email));
  return row ?? null;
}
