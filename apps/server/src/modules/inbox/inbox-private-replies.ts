import type { Db } from '../../db/client.js';
import * as repo from './inbox.repository.js';

/** A private reply's other side, as the thread shows it. */
export interface PrivateReplyLink {
  conversationId: string;
  messageId: string;
  /** On the DM side: the comment that was answered; null on the comment side. */
  commentText: string | null;
}

/**
 * Links private replies (docs/inbox.md#private-replies). Herald records a private reply in the
 * comment thread, under the comment it answers; the network then echoes the same message
 * (same id) into the DM conversation with the commenter. Read here, for one page of a thread,
 * from whichever side is shown: a DM echo points to the comment it answered, and the private
 * reply in the comment thread points to the DM conversation it went to. Only the same connected
 * account's own messages are matched, through the partial index on outgoing ids.
 */
export async function privateReplyLinks(
  db: Db,
  organizationId: string,
  integrationId: string,
  conversationId: string,
  page: repo.MessageRow[],
): Promise<Map<string, PrivateReplyLink>> {
  const links = new Map<string, PrivateReplyLink>();
  const ours = page.filter((m) => m.direction === 'out' && m.externalId);
  if (ours.length === 0) return links;
  const twins = await repo.ourMessagesElsewhere(
    db,
    organizationId,
    integrationId,
    conversationId,
    ours.map((o) => o.externalId!),
  );
  if (twins.length === 0) return links;
  const byExternal = new Map(ours.map((o) => [o.externalId!, o]));

  // The comment side: our private reply links to its echo in the DM conversation.
  for (const twin of twins) {
    const mine = byExternal.get(twin.externalId!);
    if (mine?.privateReplyTo && !twin.privateReplyTo)
      links.set(mine.id, {
        conversationId: twin.conversationId,
        messageId: twin.id,
        commentText: null,
      });
  }

  // The DM side: the echo links to the comment its private reply answered.
  const answered = twins.filter(
    (t) => t.privateReplyTo && !byExternal.get(t.externalId!)?.privateReplyTo,
  );
  if (answered.length === 0) return links;
  const comments = await repo.messagesByExternalIds(
    db,
    organizationId,
    answered.map((t) => t.conversationId),
    answered.map((t) => t.privateReplyTo!),
  );
  for (const twin of answered) {
    const comment = comments.find(
      (c) => c.conversationId === twin.conversationId && c.externalId === twin.privateReplyTo,
    );
    links.set(byExternal.get(twin.externalId!)!.id, {
      conversationId: twin.conversationId,
      messageId: comment?.id ?? twin.id,
      commentText: comment?.text ?? null,
    });
  }
  return links;
}
