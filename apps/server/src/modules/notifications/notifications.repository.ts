import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { NOTIFICATION_TYPES } from '../../db/schema.js';
import { members, notifications, roles } from '../../db/schema.js';

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationPriority = 'HIGH' | 'MEDIUM' | 'LOW';

/** Records one notification for each active Admin of the organization. */
export async function notifyOrganizationAdmins(
  db: Db,
  organizationId: string,
  n: { type: NotificationType; priority: NotificationPriority; message: string; postId?: string },
) {
  const admins = await db
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
  const recipients = admins.map((a) => a.userId).filter((id): id is string => Boolean(id));
  if (recipients.length === 0) return 0;
  await db.insert(notifications).values(
    recipients.map((userId) => ({
      organizationId,
      userId,
      type: n.type,
      priority: n.priority,
      message: n.message,
      postId: n.postId ?? null,
    })),
  );
  return recipients.length;
}
