import type {
  InboxStreamEvent,
  InboxTypingEvent,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TYPES,
} from '@herald/contract';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { members, notifications, roles, users } from '../../db/schema.js';

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];
export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

export const CHANNEL = 'herald_notifications';
/** The inbox's live events (a conversation changed, a teammate is typing), per organization. */
export const INBOX_CHANNEL = 'herald_inbox';

export type InboxAnnouncement =
  { event: 'inbox'; data: InboxStreamEvent } | { event: 'inbox-typing'; data: InboxTypingEvent };

/** Announces an inbox event to every process's live streams (after the transaction commits). */
export async function announceInbox(db: Db, announcement: InboxAnnouncement) {
  await db.execute(sql`select pg_notify(${INBOX_CHANNEL}, ${JSON.stringify(announcement)})`);
}

/** Inserts and announces on the channel; announcements go out when the transaction commits. */
export async function insertNotifications(db: Db, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  const inserted = await db.insert(notifications).values(rows).returning();
  for (const row of inserted) {
    await db.execute(
      sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ id: row.id, userId: row.userId })})`,
    );
  }
  return inserted;
}

export async function activeAdminUserIds(db: Db, organizationId: string) {
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .innerJoin(roles, eq(roles.id, members.roleId))
    .where(
      and(
        eq(members.organizationId, organizationId),
        eq(members.status, 'ACTIVE'),
        eq(roles.isAdmin, true),
      ),
    );
  return rows.map((r) => r.userId).filter((id): id is string => Boolean(id));
}

export async function findUserIdByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row?.id ?? null;
}

/**
 * What a user sees for one organization: its notifications, plus invitations addressed to them
 * personally (they are not a member of the inviting organization yet).
 */
const visibleTo = (userId: string, organizationId: string) =>
  and(
    eq(notifications.userId, userId),
    or(
      eq(notifications.organizationId, organizationId),
      eq(notifications.type, 'ORGANIZATION_INVITE'),
    ),
  );

export function listForUser(
  db: Db,
  userId: string,
  organizationId: string,
  opts: { limit: number; before?: { createdAt: Date; id: string } },
) {
  const cursor = opts.before
    ? or(
        lt(notifications.createdAt, opts.before.createdAt),
        and(
          eq(notifications.createdAt, opts.before.createdAt),
          lt(notifications.id, opts.before.id),
        ),
      )
    : undefined;
  return db
    .select()
    .from(notifications)
    .where(and(visibleTo(userId, organizationId), cursor))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(opts.limit);
}

export async function countUnread(db: Db, userId: string, organizationId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(visibleTo(userId, organizationId), eq(notifications.read, false)));
  return row?.n ?? 0;
}

export async function setRead(db: Db, userId: string, id: string, read: boolean) {
  const [row] = await db
    .update(notifications)
    .set({ read })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row ?? null;
}

export async function markAllRead(db: Db, userId: string, organizationId: string) {
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(and(visibleTo(userId, organizationId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function findForUser(db: Db, userId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)));
}
