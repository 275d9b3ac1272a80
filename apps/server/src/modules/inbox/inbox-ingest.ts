import type { InboxConversationKind, InboxPerson } from '@herald/contract';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, isEmbedded } from '../../db/client.js';
import { inboxConversations, inboxMessages, postTargets } from '../../db/schema.js';
import type { InboxEvent } from '../../platforms/inbox-types.js';
import { announceInbox } from '../notifications/notifications.repository.js';

/** The connected account events are stored for. */
export interface IngestAccount {
  id: string;
  organizationId: string;
  /** The network's name ('Facebook'). */
  platform: string;
}

export interface IngestOutcome {
  /** Messages stored for the first time. */
  inserted: number;
  /** Messages that were already there and were updated in place (retries, edits, unsends). */
  updated: number;
  conversationIds: string[];
}

const CONVERSATION_KIND: Record<InboxEvent['kind'], InboxConversationKind> = {
  dm: 'dm',
  comment: 'comments',
  mention: 'mention',
};

const PREVIEW_MAX = 280;
/** Conversations stored in parallel by one call (each takes a pooled connection). */
const CONVERSATIONS_AT_ONCE = 3;
const preview = (event: InboxEvent) => {
  const text = event.text.trim() || (event.attachments.length ? 'Sent an attachment' : '');
  return text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX - 1)}…` : text;
};

export const personName = (p: InboxPerson | null | undefined) =>
  p?.name ?? (p?.username ? `@${p.username}` : null);

/**
 * Stores what a network said, idempotently (docs/inbox.md#ingestion): a message is keyed by the
 * network's id within its conversation, so a retry, a polling overlap or an edit updates it in
 * place. The conversation's order and preview follow the network's timestamps, never arrival;
 * a new inbound message marks it unread and reopens it (from Done or the archive); our own
 * echoes change neither. One transaction per conversation.
 */
export async function upsertInboxEvents(
  db: Db,
  account: IngestAccount,
  events: InboxEvent[],
): Promise<IngestOutcome> {
  const groups = new Map<string, InboxEvent[]>();
  for (const event of events) {
    const key = `${CONVERSATION_KIND[event.kind]}\u0000${event.threadExternalId}`;
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  const outcome: IngestOutcome = { inserted: 0, updated: 0, conversationIds: [] };
  // Conversations are independent (each transaction locks only its own rows): a few at a time.
  const pending = [...groups.values()];
  await Promise.all(
    // PGlite has one connection: one transaction at a time there.
    Array.from({ length: isEmbedded(db) ? 1 : CONVERSATIONS_AT_ONCE }, async () => {
      for (let group = pending.shift(); group; group = pending.shift()) {
        group.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        const events = group;
        const result = await db.transaction((tx) => upsertConversation(tx, account, events));
        outcome.inserted += result.inserted;
        outcome.updated += result.updated;
        outcome.conversationIds.push(result.conversationId);
      }
    }),
  );
  return outcome;
}

/** The person a conversation is with: the DM's customer, or the newest inbound author. */
function participantOf(group: InboxEvent[]): InboxPerson | null {
  for (let i = group.length - 1; i >= 0; i--) {
    const e = group[i]!;
    if (e.counterpart) return e.counterpart;
    if (e.direction === 'in') return e.author;
  }
  return null;
}

async function linkedPostId(db: Db, integrationId: string, rootExternalId: string | undefined) {
  if (!rootExternalId) return null;
  const [row] = await db
    .select({ postId: postTargets.postId })
    .from(postTargets)
    .where(
      and(eq(postTargets.integrationId, integrationId), eq(postTargets.externalId, rootExternalId)),
    )
    .limit(1);
  return row?.postId ?? null;
}

async function upsertConversation(db: Db, account: IngestAccount, group: InboxEvent[]) {
  const first = group[0]!;
  const kind = CONVERSATION_KIND[first.kind];
  const participant = participantOf(group);
  const rootPost = group.find((e) => e.rootPost)?.rootPost ?? null;
  const postId = await linkedPostId(db, account.id, rootPost?.externalId);
  const title =
    personName(participant) ??
    (kind === 'comments' ? 'Comments on a post' : `${account.platform} user`);
  const [conversation] = await db
    .insert(inboxConversations)
    .values({
      organizationId: account.organizationId,
      integrationId: account.id,
      platform: account.platform,
      kind,
      threadExternalId: first.threadExternalId,
      participantExternalId: participant?.externalId ?? null,
      participant,
      title,
      rootPostExternalId: rootPost?.externalId ?? null,
      rootPostPermalink: rootPost?.permalink ?? null,
      rootPostText: rootPost?.text ?? null,
      postId,
      lastMessageAt: first.createdAt,
    })
    .onConflictDoUpdate({
      target: [
        inboxConversations.integrationId,
        inboxConversations.kind,
        inboxConversations.threadExternalId,
      ],
      // Locks the row: concurrent deliveries to one conversation apply one after the other.
      set: { updatedAt: sql`now()` },
    })
    .returning({ id: inboxConversations.id });
  const conversationId = conversation!.id;

  let inserted = 0;
  let updated = 0;
  let newInbound = false;
  // What is stored after each upsert (an edit stays when a late copy of the original arrives).
  const stored: InboxEvent[] = [];
  for (const event of group) {
    const row = await upsertMessage(db, account.organizationId, conversationId, event);
    if (row.inserted) {
      inserted++;
      // A hide or unsend of a comment Herald had not seen yet is no new message.
      const says = event.text !== '' || event.attachments.length > 0;
      if (event.direction === 'in' && !event.deleted && says) newInbound = true;
    } else updated++;
    stored.push({ ...event, text: row.text, deleted: row.deleted });
  }

  const shown = stored.filter((e) => !e.deleted);
  const newest = shown[shown.length - 1];
  const inbound = shown.filter((e) => e.direction === 'in');
  const newestInbound = inbound[inbound.length - 1];
  const c = inboxConversations;
  const newestAt = newest?.createdAt ?? null;
  const inboundAt = newestInbound?.createdAt ?? null;
  const newer = (at: Date | null, column: typeof c.lastMessageAt | typeof c.lastInboundAt) =>
    at ? sql`(${column} is null or ${at.toISOString()}::timestamptz >= ${column})` : sql`false`;
  // The newest inbound message's person replaces the stored one; so does the same person once
  // the network names them (a webhook carries only ids; the next poll brings the name).
  const named = personName(participant) !== null;
  const replaces = sql`(${c.participant} is null or ${newer(inboundAt, c.lastInboundAt)} or (${named} and ${c.participantExternalId} = ${participant?.externalId ?? ''} and ${c.participant}->>'name' is null and ${c.participant}->>'username' is null))`;
  await db
    .update(c)
    .set({
      lastMessageAt: newestAt
        ? sql`greatest(${c.lastMessageAt}, ${newestAt.toISOString()}::timestamptz)`
        : sql`${c.lastMessageAt}`,
      lastMessagePreview: newest
        ? sql`case when ${newer(newestAt, c.lastMessageAt)} then ${preview(newest)} else ${c.lastMessagePreview} end`
        : sql`${c.lastMessagePreview}`,
      lastMessageDirection: newest
        ? sql`case when ${newer(newestAt, c.lastMessageAt)} then ${newest.direction} else ${c.lastMessageDirection} end`
        : sql`${c.lastMessageDirection}`,
      lastMessageSenderName: newest
        ? sql`case when ${newer(newestAt, c.lastMessageAt)} then ${personName(newest.author)} else ${c.lastMessageSenderName} end`
        : sql`${c.lastMessageSenderName}`,
      lastInboundAt: inboundAt
        ? sql`greatest(${c.lastInboundAt}, ${inboundAt.toISOString()}::timestamptz)`
        : sql`${c.lastInboundAt}`,
      // DMs keep their customer; comment threads show their newest commenter.
      ...(participant &&
      (kind !== 'dm' || group.some((e) => e.counterpart) || newestInbound !== undefined)
        ? {
            participant: sql`case when ${replaces} then ${JSON.stringify(participant)}::jsonb else ${c.participant} end`,
            participantExternalId: sql`case when ${replaces} then ${participant.externalId} else ${c.participantExternalId} end`,
            title: sql`case when ${replaces} then ${title} else ${c.title} end`,
          }
        : {}),
      ...(newInbound ? { unread: true, status: 'open' as const, archivedAt: null } : {}),
      ...(rootPost
        ? {
            rootPostExternalId: sql`coalesce(${c.rootPostExternalId}, ${rootPost.externalId})`,
            rootPostPermalink: sql`coalesce(${rootPost.permalink}, ${c.rootPostPermalink})`,
            rootPostText: sql`coalesce(${rootPost.text}, ${c.rootPostText})`,
            postId: sql`coalesce(${c.postId}, ${postId})`,
          }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(c.id, conversationId));
  await announceInbox(db, {
    event: 'inbox',
    data: { organizationId: account.organizationId, conversationId, change: 'message' },
  });
  return { conversationId, inserted, updated };
}

/** One message: inserted, or the stored one updated in place (an edit, an unsend, a hide). */
async function upsertMessage(
  db: Db,
  organizationId: string,
  conversationId: string,
  event: InboxEvent,
) {
  const m = inboxMessages;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  const [row] = await db
    .insert(m)
    .values({
      organizationId,
      conversationId,
      externalId: event.externalId,
      kind: event.kind,
      direction: event.direction,
      author: event.author,
      text: event.text,
      createdAt: event.createdAt,
      attachments: event.attachments,
      parentExternalId: event.parentExternalId ?? null,
      deleted: event.deleted ?? false,
      hidden: event.hidden ?? false,
      edited: event.edited ?? false,
    })
    .onConflictDoUpdate({
      target: [m.conversationId, m.externalId],
      set: {
        // An unsend keeps what was said (the screen shows it as deleted); a late copy of the
        // original never overwrites an edit.
        // A hide, unhide or unsend comes without the text: the stored text stays.
        text: sql`case when ${excluded('text')} = '' then ${m.text}
          when ${m.edited} and not ${excluded('edited')} then ${m.text}
          else ${excluded('text')} end`,
        edited: sql`${m.edited} or ${excluded('edited')}`,
        deleted: sql`${m.deleted} or ${excluded('deleted')}`,
        ...(event.hidden !== undefined ? { hidden: sql`${excluded('hidden')}` } : {}),
        attachments: sql`case when jsonb_array_length(${excluded('attachments')}) > 0 then ${excluded('attachments')} else ${m.attachments} end`,
        author: sql`coalesce(${excluded('author')}, ${m.author})`,
        parentExternalId: sql`coalesce(${m.parentExternalId}, ${excluded('parent_external_id')})`,
        updatedAt: sql`now()`,
      },
    })
    .returning({
      id: m.id,
      text: m.text,
      deleted: m.deleted,
      inserted: sql<boolean>`(xmax = 0)`,
    });
  return row!;
}
