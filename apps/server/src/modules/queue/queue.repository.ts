import { and, asc, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  integrations,
  organizations,
  platforms,
  posts,
  postTargets,
  queuedPosts,
  queueSlots,
  queueTimeZones,
  users,
} from '../../db/schema.js';

/** Statuses whose post occupies its time in its accounts' queues. */
export const OCCUPYING_STATUSES = ['scheduled', 'pending_approval', 'publishing'] as const;

/**
 * What the queue's time zone is read from: the organization's time zone, and the zone kept with
 * the queue (`queue_time_zones`) with the name of the member whose zone it was.
 */
export async function queueZoneOf(db: Db, organizationId: string) {
  const [row] = await db
    .select({
      organizationZone: organizations.defaultTimeZone,
      storedZone: queueTimeZones.timeZone,
      setById: users.id,
      setByName: sql<string | null>`coalesce(${users.displayName}, ${users.email})`,
    })
    .from(organizations)
    .leftJoin(queueTimeZones, eq(queueTimeZones.organizationId, organizations.id))
    .leftJoin(users, eq(users.id, queueTimeZones.setByUserId))
    .where(eq(organizations.id, organizationId));
  return {
    organizationZone: row?.organizationZone ?? null,
    storedZone: row?.storedZone ?? null,
    setBy: row?.setById ? { id: row.setById, name: row.setByName ?? '' } : null,
  };
}

/** Keeps `timeZone` as the queue's zone: always with `replace`, else only when it has none. */
export async function keepQueueZone(
  db: Db,
  organizationId: string,
  timeZone: string,
  setByUserId: string | null,
  replace: boolean,
) {
  const insert = db.insert(queueTimeZones).values({ organizationId, timeZone, setByUserId });
  await (replace
    ? insert.onConflictDoUpdate({
        target: queueTimeZones.organizationId,
        set: { timeZone, setByUserId, updatedAt: new Date() },
      })
    : insert.onConflictDoNothing());
}

/** The organization's connected accounts, named as the composer names them. */
export function queueAccounts(db: Db, organizationId: string) {
  return db
    .select({
      integrationId: integrations.id,
      platformName: platforms.name,
      name: integrations.name,
      username: integrations.username,
    })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(eq(integrations.organizationId, organizationId), eq(integrations.status, 'CONNECTED')),
    )
    .orderBy(asc(platforms.name), asc(integrations.connectedAt));
}

/**
 * The week of the organization's most recently connected account that has one, other than
 * `exceptId`; empty when no other account has times.
 */
export async function newestAccountWeek(db: Db, organizationId: string, exceptId: string) {
  const [source] = await db
    .selectDistinct({ id: integrations.id, connectedAt: integrations.connectedAt })
    .from(integrations)
    .innerJoin(queueSlots, eq(queueSlots.integrationId, integrations.id))
    .where(
      and(
        eq(integrations.organizationId, organizationId),
        eq(integrations.status, 'CONNECTED'),
        ne(integrations.id, exceptId),
      ),
    )
    .orderBy(desc(integrations.connectedAt), desc(integrations.id))
    .limit(1);
  if (!source) return [];
  return (await slotsOf(db, organizationId, [source.id])).map((s) => ({
    weekday: s.weekday,
    minute: s.minute,
  }));
}

/** Slots of the organization's accounts (of `integrationIds` when given). */
export function slotsOf(db: Db, organizationId: string, integrationIds?: string[]) {
  return db
    .select({
      integrationId: queueSlots.integrationId,
      weekday: queueSlots.weekday,
      minute: queueSlots.minute,
    })
    .from(queueSlots)
    .where(
      and(
        eq(queueSlots.organizationId, organizationId),
        integrationIds ? inArray(queueSlots.integrationId, integrationIds) : undefined,
      ),
    )
    .orderBy(asc(queueSlots.weekday), asc(queueSlots.minute));
}

export async function replaceSlots(
  db: Db,
  organizationId: string,
  integrationId: string,
  slots: Array<{ weekday: number; minute: number }>,
) {
  await db
    .delete(queueSlots)
    .where(
      and(
        eq(queueSlots.organizationId, organizationId),
        eq(queueSlots.integrationId, integrationId),
      ),
    );
  if (slots.length > 0) {
    await db
      .insert(queueSlots)
      .values(slots.map((s) => ({ organizationId, integrationId, ...s })))
      .onConflictDoNothing();
  }
}

/**
 * The times taken in [from, to) per account: scheduled times of the organization's posts that
 * wait or are going out (a draft, a published or failed post frees its slot).
 */
export async function occupiedTimes(
  db: Db,
  organizationId: string,
  integrationIds: string[],
  from: Date,
  to: Date,
  exceptPostIds: string[] = [],
): Promise<Map<string, Set<number>>> {
  const taken = new Map<string, Set<number>>(integrationIds.map((id) => [id, new Set<number>()]));
  if (integrationIds.length === 0) return taken;
  const rows = await db
    .selectDistinct({
      integrationId: postTargets.integrationId,
      at: posts.scheduledAt,
      id: posts.id,
    })
    .from(posts)
    .innerJoin(postTargets, eq(postTargets.postId, posts.id))
    .where(
      and(
        eq(posts.organizationId, organizationId),
        inArray(posts.status, [...OCCUPYING_STATUSES]),
        inArray(postTargets.integrationId, integrationIds),
        gte(posts.scheduledAt, from),
        lt(posts.scheduledAt, to),
      ),
    );
  for (const row of rows) {
    if (!row.integrationId || !row.at || exceptPostIds.includes(row.id)) continue;
    taken.get(row.integrationId)?.add(row.at.getTime());
  }
  return taken;
}

export function markQueued(db: Db, organizationId: string, postId: string, slotAt: Date) {
  return db
    .insert(queuedPosts)
    .values({ organizationId, postId, slotAt })
    .onConflictDoUpdate({ target: queuedPosts.postId, set: { slotAt } });
}

/**
 * Posts still in their queue slot (their time is the slot they were given, they still wait), of
 * one account or of all, soonest first, with the accounts each goes to.
 */
export async function queuedPostsOf(
  db: Db,
  organizationId: string,
  after: Date,
  integrationId?: string,
) {
  const rows = await db
    .select({ id: posts.id, status: posts.status, slotAt: queuedPosts.slotAt })
    .from(queuedPosts)
    .innerJoin(posts, eq(posts.id, queuedPosts.postId))
    .where(
      and(
        eq(queuedPosts.organizationId, organizationId),
        eq(posts.scheduledAt, queuedPosts.slotAt),
        inArray(posts.status, ['scheduled', 'pending_approval']),
        gte(queuedPosts.slotAt, after),
        integrationId
          ? sql`exists (select 1 from ${postTargets} where ${postTargets.postId} = ${posts.id} and ${postTargets.integrationId} = ${integrationId})`
          : undefined,
      ),
    )
    .orderBy(asc(queuedPosts.slotAt), asc(posts.createdAt));
  if (rows.length === 0) return [];
  const targets = await db
    .select({ postId: postTargets.postId, integrationId: postTargets.integrationId })
    .from(postTargets)
    .where(
      inArray(
        postTargets.postId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((row) => ({
    ...row,
    integrationIds: targets
      .filter((t) => t.postId === row.id && t.integrationId)
      .map((t) => t.integrationId!),
  }));
}

/** A queued post given another time (re-shuffle); the post as it is now, if it is there. */
export async function moveQueuedPost(db: Db, organizationId: string, postId: string, at: Date) {
  const [row] = await db
    .update(posts)
    .set({ scheduledAt: at, updatedAt: new Date() })
    .where(and(eq(posts.organizationId, organizationId), eq(posts.id, postId)))
    .returning();
  return row;
}
