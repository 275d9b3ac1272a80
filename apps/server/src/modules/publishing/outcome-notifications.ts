import type { Db } from '../../db/client.js';
import { activeAdminUserIds } from '../notifications/notifications.repository.js';
import { recordNotification } from '../notifications/notifications.service.js';

export interface Outcome {
  organizationId: string;
  postId: string;
  authorId: string | null;
  platformName: string;
  outcome: 'PUBLISHED' | 'FAILED' | 'UNCERTAIN';
  error: string | null;
}

/** Tells the post's author and the organization's admins how a publication went (once each). */
export async function announceOutcome(db: Db, o: Outcome) {
  const admins = await activeAdminUserIds(db, o.organizationId);
  const userIds = [...new Set([...admins, ...(o.authorId ? [o.authorId] : [])])];
  if (o.outcome === 'PUBLISHED') {
    await recordNotification(
      db,
      o.organizationId,
      { userIds },
      {
        type: 'POST_PUBLISHED',
        priority: 'LOW',
        message: `Your post was published to ${o.platformName}.`,
        postId: o.postId,
      },
    );
    return;
  }
  await recordNotification(
    db,
    o.organizationId,
    { userIds },
    {
      type: 'POST_FAILED',
      priority: 'HIGH',
      message:
        o.outcome === 'UNCERTAIN'
          ? `Check ${o.platformName}: ${o.error ?? 'Herald could not confirm the publication.'}`
          : `Publishing to ${o.platformName} failed: ${o.error ?? 'Publishing failed for an unknown reason.'}`,
      postId: o.postId,
    },
  );
}
