import type { InboxConversationKind, InboxPerson } from '@herald/contract';
import type { Db } from '../../db/client.js';
import type { InboxEvent } from '../../platforms/inbox-types.js';
import { emitWebhookEvents } from '../outgoing-webhooks/outgoing-webhooks.events.js';
import {
  announceInboxAll,
  type InboxAnnouncement,
} from '../notifications/notifications.service.js';
import * as repo from './inbox-ingest.repository.js';
import { withWebUrls } from './inbox-urls.js';

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
/** Rows per multi-row statement (far below PostgreSQL's 65,535 parameters). */
const ROWS_PER_STATEMENT = 1000;
const preview = (event: { text: string; attachments: unknown[] }) => {
  const text = event.text.trim() || (event.attachments.length ? 'Sent an attachment' : '');
  return text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX - 1)}…` : text;
};

export const personName = (p: InboxPerson | null | undefined) =>
  p?.name ?? (p?.username ? `@${p.username}` : null);

const slices = <T>(items: T[], size = ROWS_PER_STATEMENT) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );

interface Group {
  key: string;
  kind: InboxConversationKind;
  threadExternalId: string;
  /** Oldest first (the network's time; arrival order among equal times). */
  events: InboxEvent[];
  conversationId?: string;
}

/** What is stored for one message once the batch applied (after every copy of it). */
interface Stored {
  event: InboxEvent;
  text: string;
  /** The stored stars of a review; null for anything else. */
  rating: number | null;
  deleted: boolean;
  /** The stored time: the original's, never an edit's. */
  createdAt: Date;
  /** A copy of it in this batch was stored for the first time and is a new inbound message. */
  isNewInbound: boolean;
  /** The position in the batch of its latest copy (arrival order, to break ties on time). */
  index: number;
}

/**
 * Stores what a network said, idempotently and set-based (docs/inbox.md#ingestion): a message is
 * keyed by the network's id within its conversation, so a retry, a polling overlap or an edit
 * updates it in place. The conversation's order and preview follow the network's time of the
 * stored message (an edit keeps the original's time), never arrival — among equal times, the
 * later one in the batch; a new inbound message marks it unread and reopens it (from Done or the
 * archive); our own echoes and edits change neither. NUL characters are dropped first, and every
 * address that is not a web one (`withWebUrls`).
 *
 * One transaction for the whole batch of one account, whatever its size: one multi-row upsert of
 * the conversations, one of the messages per copy of a message (a retry inside the batch is a
 * second round), one update of the conversations and one statement of notifications. Rows are
 * written in a fixed order (thread, then message id), so two batches touching the same
 * conversations wait for each other instead of deadlocking.
 */
export async function upsertInboxEvents(
  db: Db,
  account: IngestAccount,
  events: InboxEvent[],
): Promise<IngestOutcome> {
  if (events.length === 0) return { inserted: 0, updated: 0, conversationIds: [] };
  const clean = events.map((event) => withWebUrls(withoutNul(event)));
  return db.transaction((tx) => upsertBatch(tx, account, clean));
}

/**
 * The value with every NUL character removed from its strings, however deep (PostgreSQL's text
 * and jsonb cannot hold one, and a network may send one in a text, a name or a post's text).
 * Dates and other non-plain objects are kept as they are.
 */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string')
    return (value.includes('\u0000') ? value.replaceAll('\u0000', '') : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  )
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withoutNul(v as unknown)]),
    ) as T;
  return value;
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

function groupsOf(events: InboxEvent[]) {
  const groups = new Map<string, Group>();
  for (const event of events) {
    const kind = CONVERSATION_KIND[event.kind];
    const key = `${kind}\u0000${event.threadExternalId}`;
    const group = groups.get(key) ?? {
      key,
      kind,
      threadExternalId: event.threadExternalId,
      events: [],
    };
    group.events.push(event);
    groups.set(key, group);
  }
  const sorted = [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const g of sorted) g.events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return sorted;
}

async function linkedPosts(db: Db, integrationId: string, groups: Group[]) {
  const roots = [
    ...new Set(
      groups.flatMap((g) =>
        g.events.map((e) => e.rootPost?.externalId).filter((id) => id !== undefined),
      ),
    ),
  ];
  const linked = new Map<string, string>();
  for (const ids of slices(roots)) {
    const rows = await repo.postsPublishedAs(db, integrationId, ids);
    for (const r of rows)
      if (r.externalId && !linked.has(r.externalId)) linked.set(r.externalId, r.postId);
  }
  return linked;
}

const titleOf = (
  account: IngestAccount,
  kind: InboxConversationKind,
  participant: InboxPerson | null,
) =>
  personName(participant) ??
  (kind === 'comments' ? 'Comments on a post' : `${account.platform} user`);

async function upsertBatch(
  db: Db,
  account: IngestAccount,
  events: InboxEvent[],
): Promise<IngestOutcome> {
  const groups = groupsOf(events);
  const arrival = new Map(events.map((e, i) => [e, i]));
  const posts = await linkedPosts(db, account.id, groups);
  const rootOf = (g: Group) => g.events.find((e) => e.rootPost)?.rootPost ?? null;

  // 1. Every conversation of the batch, created or locked (one statement per thousand). The rows
  // travel as one JSON parameter: building a statement of thousands of parameters cost more CPU
  // than the database spent on it (the inbox's ingestion rate goal).
  for (const part of slices(groups)) {
    const values = part.map((g) => {
      const participant = participantOf(g.events);
      const root = rootOf(g);
      return {
        kind: g.kind,
        thread_external_id: g.threadExternalId,
        participant_external_id: participant?.externalId ?? null,
        participant,
        title: titleOf(account, g.kind, participant),
        root_post_external_id: root?.externalId ?? null,
        root_post_permalink: root?.permalink ?? null,
        root_post_text: root?.text ?? null,
        post_id: root ? (posts.get(root.externalId) ?? null) : null,
        last_message_at: g.events[0]!.createdAt,
      };
    });
    const rows = await repo.upsertConversations(db, account, values);
    const byKey = new Map(rows.map((r) => [`${r.kind}\u0000${r.threadExternalId}`, r.id]));
    for (const g of part) g.conversationId = byKey.get(g.key);
  }

  // 2. The messages. A message delivered twice in the batch is applied copy after copy (oldest
  // first): round k holds every message's k-th copy, so no statement touches a row twice.
  const rounds: Array<Array<{ conversationId: string; event: InboxEvent }>> = [];
  const copies = new Map<string, number>();
  for (const g of groups)
    for (const event of g.events) {
      const id = `${g.conversationId}\u0000${event.externalId}`;
      const k = copies.get(id) ?? 0;
      copies.set(id, k + 1);
      (rounds[k] ??= []).push({ conversationId: g.conversationId!, event });
    }
  const stored = new Map<string, Stored>();
  let inserted = 0;
  let updated = 0;
  for (const round of rounds) {
    round.sort((a, b) =>
      a.conversationId === b.conversationId
        ? a.event.externalId < b.event.externalId
          ? -1
          : a.event.externalId > b.event.externalId
            ? 1
            : 0
        : a.conversationId < b.conversationId
          ? -1
          : 1,
    );
    // A copy that says nothing about hiding leaves the stored hidden state alone.
    for (const keepsHidden of [false, true])
      for (const part of slices(
        round.filter((r) => (r.event.hidden === undefined) === keepsHidden),
      )) {
        const rows = await upsertMessages(db, account.organizationId, part, keepsHidden);
        const byId = new Map(rows.map((r) => [`${r.conversationId}\u0000${r.externalId}`, r]));
        for (const { conversationId, event } of part) {
          const id = `${conversationId}\u0000${event.externalId}`;
          const row = byId.get(id)!;
          if (row.inserted) inserted++;
          else updated++;
          // A hide or unsend of a comment Herald had not seen yet is no new message; neither is
          // anything already stored (a retry, an edit, an unsend).
          const says = event.text !== '' || event.attachments.length > 0;
          stored.set(id, {
            event,
            text: row.text,
            rating: row.rating,
            deleted: row.deleted,
            createdAt: row.createdAt,
            isNewInbound:
              (row.inserted && event.direction === 'in' && !event.deleted && says) ||
              (stored.get(id)?.isNewInbound ?? false),
            index: Math.max(arrival.get(event) ?? 0, stored.get(id)?.index ?? -1),
          });
        }
      }
  }

  // 3. One update for every conversation of the batch.
  const byConversation = new Map<string, Stored[]>();
  for (const [id, s] of stored) {
    const conversationId = id.slice(0, id.indexOf('\u0000'));
    byConversation.set(conversationId, [...(byConversation.get(conversationId) ?? []), s]);
  }
  const changes = groups.map((g) => {
    const messages = byConversation.get(g.conversationId!) ?? [];
    const participant = participantOf(g.events);
    const root = rootOf(g);
    // Newest by the stored time; among equal times, the later one in the batch.
    const newestOf = (list: Stored[]) =>
      list.reduce<Stored | undefined>((best, s) => {
        if (!best) return s;
        const dt = s.createdAt.getTime() - best.createdAt.getTime();
        return dt > 0 || (dt === 0 && s.index > best.index) ? s : best;
      }, undefined);
    const shown = messages.filter((s) => !s.deleted);
    const newest = newestOf(shown);
    const newestInbound = newestOf(shown.filter((s) => s.event.direction === 'in'));
    const reopens = messages.some((s) => s.isNewInbound);
    return {
      id: g.conversationId!,
      newest_at: newest?.createdAt.toISOString() ?? null,
      preview: newest
        ? preview({ text: newest.text, attachments: newest.event.attachments })
        : null,
      direction: newest?.event.direction ?? null,
      sender_name: newest ? personName(newest.event.author) : null,
      inbound_at: newestInbound?.createdAt.toISOString() ?? null,
      // A review is a conversation of its own: its stars, as stored (an edit's over the original's).
      rating: newestOf(messages.filter((s) => s.rating !== null))?.rating ?? null,
      // DMs keep their customer; comment threads show their newest commenter.
      set_participant:
        participant !== null &&
        (g.kind !== 'dm' || g.events.some((e) => e.counterpart) || newestInbound !== undefined),
      participant,
      participant_id: participant?.externalId ?? null,
      named: personName(participant) !== null,
      title: titleOf(account, g.kind, participant),
      reopen: reopens,
      has_root: root !== null,
      root_id: root?.externalId ?? null,
      root_permalink: root?.permalink ?? null,
      root_text: root?.text ?? null,
      post_id: root ? (posts.get(root.externalId) ?? null) : null,
    };
  });
  for (const part of slices(changes)) await repo.updateConversations(db, part);

  // 4. Live updates, sent when the transaction commits.
  const conversationIds = groups.map((g) => g.conversationId!);
  const announcements = conversationIds.map((conversationId): InboxAnnouncement => ({
    event: 'inbox',
    data: { organizationId: account.organizationId, conversationId, change: 'message' },
  }));
  for (const part of slices(announcements)) await announceInboxAll(db, part);
  // Webhooks hear of new inbound messages only (not edits, hides or Herald's own replies).
  await emitWebhookEvents(
    db,
    account.organizationId,
    groups.flatMap((g) => {
      const arrived = (byConversation.get(g.conversationId!) ?? []).filter((m) => m.isNewInbound);
      if (arrived.length === 0) return [];
      return [
        {
          type: 'inbox.message.received' as const,
          data: {
            conversationId: g.conversationId,
            integrationId: account.id,
            kind: g.kind,
            messages: arrived.map((m) => ({
              externalId: m.event.externalId,
              at: m.createdAt.toISOString(),
            })),
          },
        },
      ];
    }),
  );
  return { inserted, updated, conversationIds };
}

/**
 * Messages inserted, or the stored ones updated in place (an edit, an unsend, a hide). An edit
 * never moves a message: the earliest time a copy carried (the original's) stays its time.
 */
async function upsertMessages(
  db: Db,
  organizationId: string,
  rows: Array<{ conversationId: string; event: InboxEvent }>,
  keepsHidden: boolean,
): Promise<repo.UpsertedMessage[]> {
  const values = rows.map(({ conversationId, event }) => ({
    conversation_id: conversationId,
    external_id: event.externalId,
    kind: event.kind,
    direction: event.direction,
    author: event.author,
    text: event.text,
    rating: event.rating ?? null,
    created_at: event.createdAt,
    attachments: event.attachments,
    parent_external_id: event.parentExternalId ?? null,
    deleted: event.deleted ?? false,
    hidden: event.hidden ?? false,
    edited: event.edited ?? false,
  }));
  return repo.upsertMessages(db, organizationId, values, keepsHidden);
}
