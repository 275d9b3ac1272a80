import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  EVENT_OF_TYPE,
  type Notification,
  type NotificationPreferences,
  withDefaultPreferences,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import * as repo from './notifications.repository.js';

export interface NotificationInput {
  type: repo.NotificationType;
  priority: repo.NotificationPriority;
  message: string;
  postId?: string;
  /**
   * For a post's outcome: which state of its publications this sums up. The same state is
   * recorded once however many runs announce it (they settled the post's last targets together).
   */
  outcomeKey?: string;
  /** The post went out after all: its open failure notices are marked resolved. */
  resolvesFailures?: boolean;
  /**
   * False: not posted to the organization's webhook, which another notification of the same
   * event already carries (one decision told to several groups of members).
   */
  webhook?: boolean;
}

/**
 * The one way to record notifications. Producers say who should hear about what; this writes a
 * row per recipient (the organization's active Admins with `admins`, and `userIds`, each once)
 * and announces it to live listeners (after commit).
 */
/** What the organization's incoming webhook carries: what a team acts on together. */
const WEBHOOK_EVENTS = new Set<string>(['PUBLISHING_FAILED', 'APPROVALS']);

export async function recordNotification(
  db: Db,
  organizationId: string,
  to: { admins?: boolean; userIds?: string[] },
  n: NotificationInput,
): Promise<boolean> {
  const { resolvesFailures, webhook, ...row } = n;
  const recipients = { admins: to.admins ?? false, userIds: to.userIds ?? [] };
  const name = EVENT_OF_TYPE[row.type];
  const defaults = name ? DEFAULT_NOTIFICATION_PREFERENCES[name] : null;
  const event =
    name && defaults
      ? {
          name,
          email: defaults.email,
          digest: defaults.digest,
          webhook: webhook !== false && WEBHOOK_EVENTS.has(name),
        }
      : null;
  const insert = (on: Db) =>
    repo.insertNotificationsFor(on, organizationId, recipients, row, resolvesFailures, event);
  const { postId, outcomeKey } = row;
  if (!postId || !outcomeKey) {
    await insert(db);
    return true;
  }
  return db.transaction(async (tx) => {
    await repo.lockPostOutcome(tx, postId);
    if (await repo.outcomeRecorded(tx, postId, outcomeKey)) return false;
    await insert(tx);
    return true;
  });
}

/** The member's notification choices in this organization, over the defaults. */
export async function readPreferences(db: Db, organizationId: string, userId: string) {
  return withDefaultPreferences(await repo.readPreferences(db, organizationId, userId));
}

/** Saves the kinds given (the others keep what was saved); answers the whole set. */
export async function savePreferences(
  db: Db,
  organizationId: string,
  userId: string,
  changes: Partial<NotificationPreferences>,
) {
  const merged = { ...(await readPreferences(db, organizationId, userId)), ...changes };
  await repo.savePreferences(db, organizationId, userId, merged);
  return merged;
}

/**
 * The post was fixed (rescheduled, retried, marked as published) or went out after all: its
 * open failure notices are marked resolved and stop asking for attention.
 */
export const resolvePostFailures = (db: Db, organizationId: string, postId: string, at: Date) =>
  repo.resolveFailures(db, organizationId, postId, at);

/** Shorthand used by billing and networks: every active Admin of the organization. */
export const notifyOrganizationAdmins = (db: Db, organizationId: string, n: NotificationInput) =>
  recordNotification(db, organizationId, { admins: true }, n);

export function toNotificationDto(row: repo.NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    priority: row.priority,
    message: row.message,
    read: row.read,
    createdAt: row.createdAt.toISOString(),
    organizationId: row.organizationId,
    postId: row.postId,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

const encodeCursor = (row: repo.NotificationRow) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
function decodeCursor(cursor: string) {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()))
    throw new AppError(
      'VALIDATION_FAILED',
      'The page cursor is not valid; start from the first page.',
    );
  return { createdAt, id };
}

export const BARE_LIST_CAP = 100;

export async function listNotifications(
  db: Db,
  userId: string,
  organizationId: string,
  page?: { limit?: number; cursor?: string },
) {
  const limit = page?.limit ?? BARE_LIST_CAP;
  const rows = await repo.listForUser(db, userId, organizationId, {
    limit: limit + 1,
    ...(page?.cursor ? { before: decodeCursor(page.cursor) } : {}),
  });
  const visible = rows.slice(0, limit);
  return {
    notifications: visible.map(toNotificationDto),
    nextCursor: rows.length > limit ? encodeCursor(visible[visible.length - 1]!) : null,
    unreadCount: await repo.countUnread(db, userId, organizationId),
  };
}

export async function setRead(db: Db, userId: string, id: string, read: boolean) {
  const row = await repo.setRead(db, userId, id, read);
  if (!row) throw new AppError('NOT_FOUND', 'This notification does not exist.');
  return toNotificationDto(row);
}

export const markAllRead = (db: Db, userId: string, organizationId: string) =>
  repo.markAllRead(db, userId, organizationId);

export type { InboxAnnouncement } from './notifications.repository.js';

/** Announces an inbox event to every process's live streams (after the transaction commits). */
export const announceInbox = (db: Db, announcement: repo.InboxAnnouncement) =>
  repo.announceInbox(db, announcement);

/** Announces several inbox events at once (after the transaction commits). */
export const announceInboxAll = (db: Db, announcements: repo.InboxAnnouncement[]) =>
  repo.announceInboxAll(db, announcements);

/** The user's unread notifications in this organization (the dashboard's count). */
export const countUnread = (db: Db, userId: string, organizationId: string) =>
  repo.countUnread(db, userId, organizationId);

/** The user ids of the organization's active Admins. */
export const activeAdminUserIds = (db: Db, organizationId: string) =>
  repo.activeAdminUserIds(db, organizationId);

/** The id of the user with this email (any case), or null. */
export const findUserIdByEmail = (db: Db, email: string) => repo.findUserIdByEmail(db, email);
