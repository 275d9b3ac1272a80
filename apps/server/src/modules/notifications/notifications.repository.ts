import type {
  InboxStreamEvent,
  InboxTypingEvent,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TYPES,
} from '@herald/contract';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import {
  authSessions,
  inboxConversations,
  memberAccounts,
  members,
  postTargets,
  notificationDeliveries,
  notificationPreferences,
  notificationWebhooks,
  notifications,
  organizations,
  rolePermissions,
  roles,
  users,
} from '../../db/schema.js';

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

/** Announces several inbox events in one statement (after the transaction commits). */
export async function announceInboxAll(db: Db, announcements: InboxAnnouncement[]) {
  await db.execute(
    sql`select pg_notify(${INBOX_CHANNEL}, a) from jsonb_array_elements_text(${JSON.stringify(announcements.map((a) => JSON.stringify(a)))}::jsonb) a`,
  );
}

/**
 * One notification per recipient, inserted and announced on the channel in one statement
 * (announcements go out when the transaction commits). The recipients are `userIds`, and with
 * `admins` every active Admin of the organization too, each once (the publisher's outcome is one
 * round trip instead of three or more). With `resolvesFailures`, the post's open failure notices
 * are marked resolved in the same statement (a publication that went out after all).
 */
export async function insertNotificationsFor(
  db: Db,
  organizationId: string,
  to: { admins: boolean; userIds: string[] },
  n: Pick<NewNotification, 'type' | 'priority' | 'message' | 'postId' | 'outcomeKey'>,
  resolvesFailures = false,
  event: { name: string; email: boolean; digest: boolean; webhook: boolean } | null = null,
) {
  if (!to.admins && to.userIds.length === 0) return;
  // A recipient who turned this kind of event off in the app gets no row.
  const wanted = event
    ? sql`where not exists (
        select 1 from ${notificationPreferences} p
        where p.organization_id = ${organizationId} and p.user_id = r.user_id
          and p.settings -> ${event.name}::text ->> 'inApp' = 'false'
      )`
    : sql``;
  // …and one who wants it by email or in the digest (their choice, else the default) a delivery.
  const deliveries = event
    ? sql`, delivered as (
        insert into ${notificationDeliveries}
          (organization_id, user_id, channel, type, message, post_id)
        select ${organizationId}::uuid, r.user_id, c.channel, ${n.type}::text, ${n.message}::text,
          ${n.postId ?? null}::uuid
        from (select distinct user_id from recipients as r0(user_id)) r
        cross join (values ('EMAIL', 'email', ${event.email}::boolean),
          ('DIGEST', 'digest', ${event.digest}::boolean)) c(channel, key, fallback)
        left join ${notificationPreferences} p
          on p.organization_id = ${organizationId} and p.user_id = r.user_id
        where coalesce((p.settings -> ${event.name}::text ->> c.key)::boolean, c.fallback)
      )`
    : sql``;
  // …and the organization's incoming webhook, once, for the kinds it carries.
  const webhook = event?.webhook
    ? sql`, hooked as (
        insert into ${notificationDeliveries}
          (organization_id, user_id, channel, type, message, post_id)
        select ${organizationId}::uuid, null, 'WEBHOOK', ${n.type}::text, ${n.message}::text,
          ${n.postId ?? null}::uuid
        from ${notificationWebhooks} w where w.organization_id = ${organizationId}
      )`
    : sql``;
  const admins = to.admins
    ? sql`select m.user_id from ${members} m join ${roles} r on r.id = m.role_id
          where m.organization_id = ${organizationId} and m.status = 'ACTIVE' and r.is_admin
            and m.user_id is not null
          union `
    : sql``;
  const resolve =
    resolvesFailures && n.postId
      ? sql`, resolved as (
          update ${notifications} set resolved_at = now()
          where organization_id = ${organizationId} and post_id = ${n.postId}
            and type = 'POST_FAILED' and resolved_at is null
        )`
      : sql``;
  // A notice about a post reaches no member limited to accounts the post does not go out to.
  const reaches = n.postId
    ? sql`not exists (
        select 1 from ${members} m left join ${roles} ro on ro.id = m.role_id
        where m.organization_id = ${organizationId} and m.user_id = a.user_id
          and m.status = 'ACTIVE' and m.accounts_limited and not coalesce(ro.is_admin, false)
          and not exists (
            select 1 from ${memberAccounts} ma
            join ${postTargets} pt on pt.integration_id = ma.integration_id
            where ma.member_id = m.id and pt.post_id = ${n.postId}::uuid
          )
      )`
    : sql`true`;
  await db.execute(sql`
    with recipients as (
      select a.user_id from (
        ${admins}select unnest(${`{${[...new Set(to.userIds)].join(',')}}`}::uuid[])
      ) a(user_id)
      where ${reaches}
    ), inserted as (
      insert into ${notifications}
        (organization_id, user_id, type, priority, message, post_id, outcome_key)
      select ${organizationId}::uuid, r.user_id, ${n.type}::text, ${n.priority}::text,
        ${n.message}::text, ${n.postId ?? null}::uuid, ${n.outcomeKey ?? null}::text
      from (select distinct user_id from recipients as r0(user_id)) r
      ${wanted}
      returning id, user_id
    )${resolve}${deliveries}${webhook}
    select pg_notify(${CHANNEL}, json_build_object('id', id, 'userId', user_id)::text) from inserted`);
}

/**
 * Holds the post's outcome notices for the rest of the transaction: two runs that settle the
 * post's last targets together both see its final state, and only the first records it.
 */
export async function lockPostOutcome(db: Db, postId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${postId}, 0))`);
}

/** Whether a notice of this state of the post's publications was recorded already. */
export async function outcomeRecorded(db: Db, postId: string, outcomeKey: string) {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.postId, postId), eq(notifications.outcomeKey, outcomeKey)))
    .limit(1);
  return Boolean(row);
}

export type PreferenceSettings = typeof notificationPreferences.$inferSelect.settings;

/** What the member saved for this organization (null: never saved, the defaults apply). */
export async function readPreferences(db: Db, organizationId: string, userId: string) {
  const [row] = await db
    .select({ settings: notificationPreferences.settings })
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.organizationId, organizationId),
        eq(notificationPreferences.userId, userId),
      ),
    );
  return row?.settings ?? null;
}

export async function savePreferences(
  db: Db,
  organizationId: string,
  userId: string,
  settings: PreferenceSettings,
) {
  await db
    .insert(notificationPreferences)
    .values({ organizationId, userId, settings })
    .onConflictDoUpdate({
      target: [notificationPreferences.organizationId, notificationPreferences.userId],
      set: { settings, updatedAt: new Date() },
    });
}

/** Marks the post's open failure notices resolved; returns how many were. */
export async function resolveFailures(db: Db, organizationId: string, postId: string, at: Date) {
  const rows = await db
    .update(notifications)
    .set({ resolvedAt: at })
    .where(
      and(
        eq(notifications.organizationId, organizationId),
        eq(notifications.postId, postId),
        eq(notifications.type, 'POST_FAILED'),
        isNull(notifications.resolvedAt),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
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
    .where(
      and(
        visibleTo(userId, organizationId),
        eq(notifications.read, false),
        // A resolved failure needs nothing more from anyone.
        isNull(notifications.resolvedAt),
      ),
    );
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

/** What a live stream was opened with: the session, its person and the organization. */
export interface StreamGrant {
  sessionId: string;
  userId: string;
  organizationId: string;
}

/**
 * Each grant's access now, in the order given: whether its session is live (not revoked, not
 * expired at `now`), and its person's active membership of the organization as the role's
 * permissions and the narrowed set (null: not a member). One statement for any number of
 * streams; every id is a UUID the caller has checked.
 */
export async function readStreamAccess(db: Db, grants: readonly StreamGrant[], now: Date) {
  if (grants.length === 0) return [];
  const list = (pick: (g: StreamGrant) => string) => `{${grants.map(pick).join(',')}}`;
  const rows = await rowsOf<{
    live: boolean;
    role_permissions: string[] | null;
    narrowed: string[] | null;
    account_ids: string[] | null;
  }>(
    db,
    sql`
    select
      exists (
        select 1 from ${authSessions} s
        where s.id = k.session_id and s.user_id = k.user_id
          and s.revoked_at is null and s.expires_at > ${now.toISOString()}::timestamptz
      ) as live,
      case when m.id is null then null else coalesce(
        (select array_agg(rp.permission) from ${rolePermissions} rp where rp.role_id = m.role_id),
        '{}'
      ) end as role_permissions,
      m.permissions as narrowed,
      case when m.accounts_limited and not coalesce(
        (select r.is_admin from ${roles} r where r.id = m.role_id), false
      ) then coalesce(
        (select array_agg(ma.integration_id) from ${memberAccounts} ma where ma.member_id = m.id),
        '{}'
      ) end as account_ids
    from unnest(
      ${list((g) => g.sessionId)}::uuid[],
      ${list((g) => g.userId)}::uuid[],
      ${list((g) => g.organizationId)}::uuid[]
    ) with ordinality as k(session_id, user_id, organization_id, n)
    left join lateral (
      select a.id, a.role_id, a.permissions, a.accounts_limited from ${members} a
      where a.organization_id = k.organization_id and a.user_id = k.user_id
        and a.status = 'ACTIVE'
      limit 1
    ) m on true
    order by k.n`,
  );
  return rows.map((row) => ({
    live: row.live,
    membership: row.role_permissions
      ? {
          rolePermissions: row.role_permissions,
          narrowed: row.narrowed,
          accountIds: row.account_ids,
        }
      : null,
  }));
}

/** The account of one of the organization's conversations (null: none such). */
export async function conversationAccountOf(
  db: Db,
  organizationId: string,
  conversationId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ integrationId: inboxConversations.integrationId })
    .from(inboxConversations)
    .where(
      and(
        eq(inboxConversations.organizationId, organizationId),
        sql`${inboxConversations.id}::text = ${conversationId}`,
      ),
    );
  return row?.integrationId ?? null;
}

export type DeliveryRow = Omit<typeof notificationDeliveries.$inferSelect, 'userId'> & {
  userId: string;
  email: string;
};

/** A delivery as a taking query returns it, joined with its member's email. */
interface TakenDeliveryRow {
  id: string;
  organization_id: string;
  user_id: string;
  channel: 'EMAIL' | 'DIGEST';
  type: NotificationType;
  message: string;
  post_id: string | null;
  created_at: string | Date;
  email: string;
}

const toDeliveryRow = (r: TakenDeliveryRow): DeliveryRow => ({
  id: r.id,
  organizationId: r.organization_id,
  userId: r.user_id,
  channel: r.channel,
  type: r.type,
  message: r.message,
  postId: r.post_id,
  createdAt: new Date(r.created_at),
  email: r.email,
});

/**
 * Takes up to `limit` deliveries of the channel (created before `before`) out of the table,
 * with the recipient's address: each is sent once at most, by whichever run took it.
 */
export async function takeDeliveries(
  db: Db,
  channel: 'EMAIL' | 'DIGEST',
  before: Date,
  limit: number,
): Promise<DeliveryRow[]> {
  const rows = await rowsOf<TakenDeliveryRow>(
    db,
    sql`
    with taken as (
      delete from ${notificationDeliveries} d
      where d.id in (
        select id from ${notificationDeliveries}
        where channel = ${channel} and created_at <= ${before.toISOString()}::timestamptz
        order by created_at
        limit ${limit}
        for update skip locked
      )
      returning d.*
    )
    select taken.*, u.email from taken join ${users} u on u.id = taken.user_id
    order by taken.created_at`,
  );
  return rows.map(toDeliveryRow);
}

/**
 * The members and organizations that have digest deliveries waiting, with the two zones the
 * digest's hour is read in (the organization's and the member's own).
 */
export function waitingDigests(db: Db) {
  return rowsOf<{
    userId: string;
    organizationId: string;
    userZone: string | null;
    organizationZone: string | null;
  }>(
    db,
    sql`select w.user_id as "userId", w.organization_id as "organizationId",
          u.timezone as "userZone", o.default_time_zone as "organizationZone"
        from (select distinct user_id, organization_id from ${notificationDeliveries}
              where channel = 'DIGEST') w
        join ${users} u on u.id = w.user_id
        join ${organizations} o on o.id = w.organization_id`,
  );
}

/**
 * Takes up to `limit` digest deliveries out of the table: for each member and organization of
 * `due`, those created up to its `before` (each one's last 07:00). Each is sent once at most, by
 * whichever run took it.
 */
export async function takeDueDigests(
  db: Db,
  due: Array<{ userId: string; organizationId: string; before: Date }>,
  limit: number,
): Promise<DeliveryRow[]> {
  if (due.length === 0) return [];
  const array = (values: string[]) => `{${values.join(',')}}`;
  const rows = await rowsOf<TakenDeliveryRow>(
    db,
    sql`
    with due as (
      select * from unnest(${array(due.map((d) => d.userId))}::uuid[],
        ${array(due.map((d) => d.organizationId))}::uuid[],
        ${array(due.map((d) => d.before.toISOString()))}::timestamptz[])
        as t(user_id, organization_id, before)
    ), taken as (
      delete from ${notificationDeliveries} d
      where d.id in (
        select w.id from ${notificationDeliveries} w
        join due on due.user_id = w.user_id and due.organization_id = w.organization_id
        where w.channel = 'DIGEST' and w.created_at <= due.before
        order by w.created_at
        limit ${limit}
        for update of w skip locked
      )
      returning d.*
    )
    select taken.*, u.email from taken join ${users} u on u.id = taken.user_id
    order by taken.created_at`,
  );
  return rows.map(toDeliveryRow);
}

/** The organizations' names, for the emails' subjects. */
export async function organizationNames(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Takes up to `limit` webhook deliveries (created before `before`) out of the table. */
export async function takeWebhookDeliveries(db: Db, before: Date, limit: number) {
  const rows = await rowsOf<{
    organization_id: string;
    type: NotificationType;
    message: string;
  }>(
    db,
    sql`
    with taken as (
      delete from ${notificationDeliveries} d
      where d.id in (
        select id from ${notificationDeliveries}
        where channel = 'WEBHOOK' and created_at <= ${before.toISOString()}::timestamptz
        order by created_at
        limit ${limit}
        for update skip locked
      )
      returning d.organization_id, d.type, d.message, d.created_at
    )
    select organization_id, type, message from taken order by created_at`,
  );
  return rows.map((r) => ({ organizationId: r.organization_id, type: r.type, message: r.message }));
}

export async function readWebhook(db: Db, organizationId: string) {
  const [row] = await db
    .select()
    .from(notificationWebhooks)
    .where(eq(notificationWebhooks.organizationId, organizationId));
  return row ?? null;
}

export async function saveWebhook(
  db: Db,
  organizationId: string,
  urlSealed: string,
  urlHint: string,
) {
  await db
    .insert(notificationWebhooks)
    .values({ organizationId, urlSealed, urlHint })
    .onConflictDoUpdate({
      target: notificationWebhooks.organizationId,
      set: { urlSealed, urlHint, updatedAt: new Date() },
    });
}

export async function deleteWebhook(db: Db, organizationId: string) {
  await db
    .delete(notificationWebhooks)
    .where(eq(notificationWebhooks.organizationId, organizationId));
}
