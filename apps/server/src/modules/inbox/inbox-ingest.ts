import type { InboxConversationKind, InboxPerson } from '@herald/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { postTargets } from '../../db/schema.js';
import type { InboxEvent } from '../../platforms/inbox-types.js';
import {
  INBOX_CHANNEL,
  type InboxAnnouncement,
} from '../notifications/notifications.repository.js';
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
    const rows = await db
      .select({ externalId: postTargets.externalId, postId: postTargets.postId })
      .from(postTargets)
      .where(
        and(eq(postTargets.integrationId, integrationId), inArray(postTargets.externalId, ids)),
      );
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
    const rows = await rowsOf<{ id: string; kind: string; threadExternalId: string }>(
      db,
      sql`insert into inbox_conversations (organization_id, integration_id, platform, kind,
            thread_external_id, participant_external_id, participant, title,
            root_post_external_id, root_post_permalink, root_post_text, post_id, last_message_at)
          select ${account.organizationId}::uuid, ${account.id}::uuid, ${account.platform}, v.kind,
            v.thread_external_id, v.participant_external_id, v.participant, v.title,
            v.root_post_external_id, v.root_post_permalink, v.root_post_text, v.post_id,
            v.last_message_at
          from rows from (jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as (
            kind text, thread_external_id text, participant_external_id text, participant jsonb,
            title text, root_post_external_id text, root_post_permalink text, root_post_text text,
            post_id uuid, last_message_at timestamptz)) with ordinality as v(kind,
            thread_external_id, participant_external_id, participant, title,
            root_post_external_id, root_post_permalink, root_post_text, post_id, last_message_at,
            n)
          order by v.n
          -- Locks the rows: concurrent batches to one conversation apply one after the other.
          on conflict (integration_id, kind, thread_external_id) do update set updated_at = now()
          returning id, kind, thread_external_id as "threadExternalId"`,
    );
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
  for (const part of slices(changes)) await updateConversations(db, part);

  // 4. Live updates, sent when the transaction commits.
  const conversationIds = groups.map((g) => g.conversationId!);
  const announcements = conversationIds.map((conversationId): InboxAnnouncement => ({
    event: 'inbox',
    data: { organizationId: account.organizationId, conversationId, change: 'message' },
  }));
  for (const part of slices(announcements))
    await db.execute(
      sql`select pg_notify(${INBOX_CHANNEL}, a) from jsonb_array_elements_text(${JSON.stringify(part.map((a) => JSON.stringify(a)))}::jsonb) a`,
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
): Promise<UpsertedMessage[]> {
  const values = rows.map(({ conversationId, event }) => ({
    conversation_id: conversationId,
    external_id: event.externalId,
    kind: event.kind,
    direction: event.direction,
    author: event.author,
    text: event.text,
    created_at: event.createdAt,
    attachments: event.attachments,
    parent_external_id: event.parentExternalId ?? null,
    deleted: event.deleted ?? false,
    hidden: event.hidden ?? false,
    edited: event.edited ?? false,
  }));
  const stored = await rowsOf<Omit<UpsertedMessage, 'createdAt'> & { createdAtMs: number }>(
    db,
    sql`insert into inbox_messages as m (organization_id, conversation_id, external_id, kind,
          direction, author, text, created_at, attachments, parent_external_id, deleted, hidden,
          edited)
        select ${organizationId}::uuid, v.conversation_id, v.external_id, v.kind, v.direction,
          v.author, v.text, v.created_at, coalesce(v.attachments, '[]'::jsonb),
          v.parent_external_id, v.deleted, v.hidden, v.edited
        from rows from (jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as (
          conversation_id uuid, external_id text, kind text, direction text, author jsonb,
          text text, created_at timestamptz, attachments jsonb, parent_external_id text,
          deleted boolean, hidden boolean, edited boolean)) with ordinality as v(conversation_id,
          external_id, kind, direction, author, text, created_at, attachments, parent_external_id,
          deleted, hidden, edited, n)
        order by v.n
        on conflict (conversation_id, external_id) do update set
          -- An unsend keeps what was said (the screen shows it as deleted); a late copy of the
          -- original never overwrites an edit. A hide, unhide or unsend comes without the text:
          -- the stored text stays.
          text = case when excluded.text = '' then m.text
            when m.edited and not excluded.edited then m.text
            else excluded.text end,
          edited = m.edited or excluded.edited,
          deleted = m.deleted or excluded.deleted,
          ${keepsHidden ? sql`` : sql`hidden = excluded.hidden,`}
          created_at = least(m.created_at, excluded.created_at),
          attachments = case when jsonb_array_length(excluded.attachments) > 0
            then excluded.attachments else m.attachments end,
          author = coalesce(excluded.author, m.author),
          parent_external_id = coalesce(m.parent_external_id, excluded.parent_external_id),
          updated_at = now()
        returning conversation_id as "conversationId", external_id as "externalId", text,
          deleted, floor(extract(epoch from created_at) * 1000)::float8 as "createdAtMs",
          (xmax = 0) as inserted`,
  );
  return stored.map(({ createdAtMs, ...row }) => ({ ...row, createdAt: new Date(createdAtMs) }));
}

interface UpsertedMessage {
  conversationId: string;
  externalId: string;
  text: string;
  deleted: boolean;
  createdAt: Date;
  inserted: boolean;
}

/**
 * The conversations' order, preview, window start, participant, unread/Done and root post, all
 * in one statement. Times only move forward (`greatest`), and the preview changes only for a
 * message at least as new as the stored one, so batches may arrive in any order.
 */
async function updateConversations(db: Db, changes: Array<Record<string, unknown>>) {
  // The newest inbound message's person replaces the stored one; so does the same person once
  // the network names them (a webhook carries only ids; the next poll brings the name).
  const replaces = sql.raw(`(v.set_participant and (c.participant is null
    or (v.inbound_at is not null and (c.last_inbound_at is null or v.inbound_at >= c.last_inbound_at))
    or (v.named and c.participant_external_id = v.participant_id
        and c.participant->>'name' is null and c.participant->>'username' is null)))`);
  const newer = sql.raw(`(v.newest_at is not null and v.newest_at >= c.last_message_at)`);
  await db.execute(sql`
    update inbox_conversations c set
      last_message_at = greatest(c.last_message_at, v.newest_at),
      last_message_preview = case when ${newer} then v.preview else c.last_message_preview end,
      last_message_direction = case when ${newer} then v.direction else c.last_message_direction end,
      last_message_sender_name = case when ${newer} then v.sender_name else c.last_message_sender_name end,
      last_inbound_at = greatest(c.last_inbound_at, v.inbound_at),
      participant = case when ${replaces} then v.participant else c.participant end,
      participant_external_id = case when ${replaces} then v.participant_id else c.participant_external_id end,
      title = case when ${replaces} then v.title else c.title end,
      unread = c.unread or v.reopen,
      status = case when v.reopen then 'open' else c.status end,
      archived_at = case when v.reopen then null else c.archived_at end,
      root_post_external_id = case when v.has_root then coalesce(c.root_post_external_id, v.root_id) else c.root_post_external_id end,
      root_post_permalink = case when v.has_root then coalesce(v.root_permalink, c.root_post_permalink) else c.root_post_permalink end,
      root_post_text = case when v.has_root then coalesce(v.root_text, c.root_post_text) else c.root_post_text end,
      post_id = case when v.has_root then coalesce(c.post_id, v.post_id) else c.post_id end,
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as v(
      id uuid, newest_at timestamptz, preview text, direction text, sender_name text,
      inbound_at timestamptz, set_participant boolean, participant jsonb, participant_id text,
      named boolean, title text, reopen boolean, has_root boolean, root_id text,
      root_permalink text, root_text text, post_id uuid)
    where c.id = v.id`);
}
