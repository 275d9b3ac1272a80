import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { postTargets } from '../../db/schema.js';

/** The posts Herald published on this account as these network ids. */
export function postsPublishedAs(db: Db, integrationId: string, externalIds: string[]) {
  return db
    .select({ externalId: postTargets.externalId, postId: postTargets.postId })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.integrationId, integrationId),
        inArray(postTargets.externalId, externalIds),
      ),
    );
}

/** Creates or locks the account's conversations, in the rows' order (one JSON parameter). */
export function upsertConversations(
  db: Db,
  account: { id: string; organizationId: string; platform: string },
  values: Array<Record<string, unknown>>,
) {
  return rowsOf<{ id: string; kind: string; threadExternalId: string }>(
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
}

export interface UpsertedMessage {
  conversationId: string;
  externalId: string;
  text: string;
  rating: number | null;
  deleted: boolean;
  createdAt: Date;
  inserted: boolean;
}

/**
 * Messages inserted, or the stored ones updated in place (an edit, an unsend, a hide). An edit
 * never moves a message: the earliest time a copy carried (the original's) stays its time. With
 * `keepsHidden`, the stored hidden state is left alone.
 */
export async function upsertMessages(
  db: Db,
  organizationId: string,
  values: Array<Record<string, unknown>>,
  keepsHidden: boolean,
): Promise<UpsertedMessage[]> {
  const stored = await rowsOf<Omit<UpsertedMessage, 'createdAt'> & { createdAtMs: number }>(
    db,
    sql`insert into inbox_messages as m (organization_id, conversation_id, external_id, kind,
          direction, author, text, rating, created_at, attachments, parent_external_id, deleted,
          hidden, edited)
        select ${organizationId}::uuid, v.conversation_id, v.external_id, v.kind, v.direction,
          v.author, v.text, v.rating, v.created_at, coalesce(v.attachments, '[]'::jsonb),
          v.parent_external_id, v.deleted, v.hidden, v.edited
        from rows from (jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as (
          conversation_id uuid, external_id text, kind text, direction text, author jsonb,
          text text, rating smallint, created_at timestamptz, attachments jsonb,
          parent_external_id text, deleted boolean, hidden boolean, edited boolean))
          with ordinality as v(conversation_id, external_id, kind, direction, author, text,
          rating, created_at, attachments, parent_external_id, deleted, hidden, edited, n)
        order by v.n
        on conflict (conversation_id, external_id) do update set
          -- An unsend keeps what was said (the screen shows it as deleted); a late copy of the
          -- original never overwrites an edit. A hide, unhide or unsend comes without the text:
          -- the stored text stays.
          text = case when excluded.text = '' then m.text
            when m.edited and not excluded.edited then m.text
            else excluded.text end,
          -- The stars follow the words: an edited review's new rating, never a late original's.
          rating = case when excluded.rating is null then m.rating
            when m.edited and not excluded.edited then m.rating
            else excluded.rating end,
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
          rating, deleted, floor(extract(epoch from created_at) * 1000)::float8 as "createdAtMs",
          (xmax = 0) as inserted`,
  );
  return stored.map(({ createdAtMs, ...row }) => ({ ...row, createdAt: new Date(createdAtMs) }));
}

/**
 * The conversations' order, preview, window start, participant, unread/Done and root post, all
 * in one statement. Times only move forward (`greatest`), and the preview changes only for a
 * message at least as new as the stored one, so batches may arrive in any order.
 */
export async function updateConversations(db: Db, changes: Array<Record<string, unknown>>) {
  // The newest inbound message's person replaces the stored one, except the same person unnamed
  // (a webhook carries only ids) over their stored name; the same person once the network names
  // them replaces their unnamed self.
  const storedNamed = `(c.participant->>'name' is not null or c.participant->>'username' is not null)`;
  const replaces = sql.raw(`(v.set_participant and (c.participant is null
    or (v.inbound_at is not null and (c.last_inbound_at is null or v.inbound_at >= c.last_inbound_at)
        and (v.named or c.participant_external_id is distinct from v.participant_id or not ${storedNamed}))
    or (v.named and c.participant_external_id = v.participant_id and not ${storedNamed})))`);
  const newer = sql.raw(`(v.newest_at is not null and v.newest_at >= c.last_message_at)`);
  await db.execute(sql`
    update inbox_conversations c set
      last_message_at = greatest(c.last_message_at, v.newest_at),
      last_message_preview = case when ${newer} then v.preview else c.last_message_preview end,
      last_message_direction = case when ${newer} then v.direction else c.last_message_direction end,
      last_message_sender_name = case when ${newer} then v.sender_name else c.last_message_sender_name end,
      last_inbound_at = greatest(c.last_inbound_at, v.inbound_at),
      rating = coalesce(v.rating, c.rating),
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
      inbound_at timestamptz, rating smallint, set_participant boolean, participant jsonb, participant_id text,
      named boolean, title text, reopen boolean, has_root boolean, root_id text,
      root_permalink text, root_text text, post_id uuid)
    where c.id = v.id`);
}
