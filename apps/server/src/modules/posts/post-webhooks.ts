import type { Db } from '../../db/client.js';
import { emitWebhookEvent } from '../outgoing-webhooks/outgoing-webhooks.events.js';

type PostEvent = 'post.created' | 'post.updated' | 'post.deleted';

/**
 * Tells the organization's webhooks about a post's change, in the change's transaction. Thin:
 * the post's id, status and time; a receiver reads the rest through the API.
 */
export function announcePostChange(
  tx: Db,
  type: PostEvent,
  post: { id: string; organizationId: string; status: string; scheduledAt: Date | null },
  at?: Date,
) {
  return emitWebhookEvent(
    tx,
    post.organizationId,
    type,
    type === 'post.deleted'
      ? { postId: post.id }
      : {
          postId: post.id,
          status: post.status,
          scheduledAt: post.scheduledAt ? post.scheduledAt.toISOString() : null,
        },
    at,
  );
}
