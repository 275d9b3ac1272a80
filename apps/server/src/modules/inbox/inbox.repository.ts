import {
  and,
  arrayOverlaps,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  inboxConversations,
  inboxLabels,
  inboxMessages,
  inboxNotes,
  inboxSavedReplies,
  inboxSyncState,
  inboxWebhookEvents,
  integrations,
  platforms,
  users,
} from '../../db/schema.js';
import { containsPattern } from '../../lib/like-pattern.js';

export type ConversationRow = typeof inboxConversations.$inferSelect;
export type MessageRow = typeof inboxMessages.$inferSelect;
export type IntegrationRow = typeof integrations.$inferSelect;

export interface ConversationFilter {
  organizationId: string;
  status: 'open' | 'done';
  unread?: boolean;
  platform?: string;
  labels: string[];
  q?: string;
  /** A user id, or null for unassigned. */
  assignee?: string | null;
  integrationId?: string;
  /** Only conversations of these accounts (a member limited to some accounts). */
  reachable?: readonly string[] | null;
  before?: { at: Date; id: string };
  limit: number;
}

/** Conversations of `reachable` accounts only; null: of every account. */
const ofAccounts = (reachable: readonly string[] | null | undefined) =>
  reachable
    ? reachable.length
      ? inArray(c.integrationId, [...reachable])
      : sql`false`
    : undefined;

const c = inboxConversations;

/** A page of the list, newest message first; served by the partial list indexes. */
export function listConversations(db: Db, f: ConversationFilter) {
  const where = and(
    eq(c.organizationId, f.organizationId),
    isNull(c.archivedAt),
    eq(c.status, f.status),
    f.unread ? eq(c.unread, true) : undefined,
    f.platform ? eq(c.platform, f.platform) : undefined,
    f.labels.length ? arrayOverlaps(c.labels, f.labels) : undefined,
    f.assignee === null ? isNull(c.assigneeUserId) : undefined,
    f.assignee ? eq(c.assigneeUserId, f.assignee) : undefined,
    f.integrationId ? eq(c.integrationId, f.integrationId) : undefined,
    ofAccounts(f.reachable),
    f.q
      ? or(
          ilike(c.title, containsPattern(f.q)),
          ilike(c.lastMessagePreview, containsPattern(f.q)),
          sql`${c.participant}->>'username' ilike ${containsPattern(f.q)}`,
        )
      : undefined,
    f.before
      ? or(
          lt(c.lastMessageAt, f.before.at),
          and(eq(c.lastMessageAt, f.before.at), lt(c.id, f.before.id)),
        )
      : undefined,
  );
  return db.select().from(c).where(where).orderBy(desc(c.lastMessageAt), desc(c.id)).limit(f.limit);
}

export async function findConversation(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(c)
    .where(and(eq(c.organizationId, organizationId), eq(c.id, id)));
  return row ?? null;
}

export async function updateConversation(
  db: Db,
  organizationId: string,
  id: string,
  values: Partial<typeof c.$inferInsert>,
) {
  const [row] = await db
    .update(c)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(c.organizationId, organizationId), eq(c.id, id)))
    .returning();
  return row ?? null;
}

/** Open, non-archived conversations with unread messages: the badge. */
export async function countUnread(
  db: Db,
  organizationId: string,
  reachable: readonly string[] | null = null,
) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(c)
    .where(
      and(
        eq(c.organizationId, organizationId),
        ofAccounts(reachable),
        isNull(c.archivedAt),
        eq(c.status, 'open'),
        eq(c.unread, true),
      ),
    );
  return row?.n ?? 0;
}

/** The organization's connected accounts with their platform names and sync state. */
export function listAccounts(db: Db, organizationId: string) {
  return db
    .select({ integration: integrations, platformName: platforms.name, sync: inboxSyncState })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .leftJoin(inboxSyncState, eq(inboxSyncState.integrationId, integrations.id))
    .where(
      and(eq(integrations.organizationId, organizationId), eq(integrations.status, 'CONNECTED')),
    )
    .orderBy(platforms.name, integrations.name);
}

export function integrationsByIds(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ integration: integrations, platformName: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(and(eq(integrations.organizationId, organizationId), inArray(integrations.id, ids)));
}

export function usersByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: users.id, displayName: users.displayName })
    .from(users)
    .where(inArray(users.id, ids));
}

const m = inboxMessages;

/** The newest `limit` messages (before the cursor), newest first. */
export function listMessages(
  db: Db,
  conversationId: string,
  limit: number,
  before?: { at: Date; id: string },
) {
  return db
    .select()
    .from(m)
    .where(
      and(
        eq(m.conversationId, conversationId),
        before
          ? or(lt(m.createdAt, before.at), and(eq(m.createdAt, before.at), lt(m.id, before.id)))
          : undefined,
      ),
    )
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit);
}

export async function findMessage(db: Db, conversationId: string, id: string) {
  const [row] = await db
    .select()
    .from(m)
    .where(and(eq(m.conversationId, conversationId), eq(m.id, id)));
  return row ?? null;
}

export async function findMessageByExternalId(db: Db, conversationId: string, externalId: string) {
  const [row] = await db
    .select()
    .from(m)
    .where(and(eq(m.conversationId, conversationId), eq(m.externalId, externalId)));
  return row ?? null;
}

/**
 * What a message must still be for a change to apply (another teammate or process may have
 * changed it meanwhile): a comment without its private reply yet, or a reply in one of these
 * delivery states.
 */
export type MessageGuard =
  { privateRepliedAt: null } | { deliveryIn: Array<NonNullable<MessageRow['delivery']>> };

const guarded = (guard: MessageGuard | undefined) =>
  guard === undefined
    ? undefined
    : 'deliveryIn' in guard
      ? inArray(m.delivery, guard.deliveryIn)
      : isNull(m.privateRepliedAt);

export async function updateMessage(
  db: Db,
  id: string,
  values: Partial<typeof m.$inferInsert>,
  guard?: MessageGuard,
) {
  const [row] = await db
    .update(m)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(m.id, id), guarded(guard)))
    .returning();
  return row ?? null;
}

/** Deletes the message while the guard holds; answers whether it did. */
export async function deleteMessage(db: Db, id: string, guard: MessageGuard) {
  const gone = await db
    .delete(m)
    .where(and(eq(m.id, id), guarded(guard)))
    .returning({ id: m.id });
  return gone.length > 0;
}

/** The reply stored under the composer's key in this conversation, if any. */
export async function findByClientKey(db: Db, conversationId: string, clientKey: string) {
  const [row] = await db
    .select()
    .from(m)
    .where(and(eq(m.conversationId, conversationId), eq(m.clientKey, clientKey)));
  return row ?? null;
}

/** Stores a reply under its composer's key; null when that key is already taken. */
export async function insertReplyUnlessKeyed(db: Db, values: typeof m.$inferInsert) {
  const [row] = await db
    .insert(m)
    .values(values)
    .onConflictDoNothing({ target: [m.conversationId, m.clientKey] })
    .returning();
  return row ?? null;
}

/** Marks the comment as having its private reply, unless it already has one; answers whether. */
export async function claimPrivateReply(
  db: Db,
  conversationId: string,
  externalId: string,
  at: Date,
) {
  const [row] = await db
    .update(m)
    .set({ privateRepliedAt: at })
    .where(
      and(
        eq(m.conversationId, conversationId),
        eq(m.externalId, externalId),
        isNull(m.privateRepliedAt),
      ),
    )
    .returning({ id: m.id });
  return Boolean(row);
}

/** The comment may have a private reply again (the one it had never went out). */
export async function releasePrivateReply(db: Db, conversationId: string, externalId: string) {
  await db
    .update(m)
    .set({ privateRepliedAt: null })
    .where(and(eq(m.conversationId, conversationId), eq(m.externalId, externalId)));
}

/** Whether another reply Herald sent (not a webhook echo) already carries this network id. */
export async function otherReplyHasExternalId(
  db: Db,
  conversationId: string,
  externalId: string,
  exceptId: string,
) {
  const [row] = await db
    .select({ id: m.id })
    .from(m)
    .where(
      and(
        eq(m.conversationId, conversationId),
        eq(m.externalId, externalId),
        ne(m.id, exceptId),
        isNotNull(m.delivery),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Deletes the webhook echoes (rows without a delivery of ours) of this network id. */
export async function deleteEchoes(
  db: Db,
  conversationId: string,
  externalId: string,
  exceptId: string,
) {
  await db
    .delete(m)
    .where(
      and(
        eq(m.conversationId, conversationId),
        eq(m.externalId, externalId),
        ne(m.id, exceptId),
        isNull(m.delivery),
      ),
    );
}

/**
 * Moves the conversation's order and preview to a reply of ours sent at `at`, unless a newer
 * message is already shown.
 */
export async function showSentReply(
  db: Db,
  conversationId: string,
  reply: { at: Date; preview: string; senderName: string | null },
) {
  const c = inboxConversations;
  const at = reply.at.toISOString();
  await db
    .update(c)
    .set({
      lastMessagePreview: sql`case when ${at}::timestamptz >= ${c.lastMessageAt} then ${reply.preview} else ${c.lastMessagePreview} end`,
      lastMessageDirection: sql`case when ${at}::timestamptz >= ${c.lastMessageAt} then 'out' else ${c.lastMessageDirection} end`,
      lastMessageSenderName: sql`case when ${at}::timestamptz >= ${c.lastMessageAt} then ${reply.senderName} else ${c.lastMessageSenderName} end`,
      lastMessageAt: sql`greatest(${c.lastMessageAt}, ${at}::timestamptz)`,
      updatedAt: new Date(),
    })
    .where(eq(c.id, conversationId));
}

/** Up to `limit` replies still pending since before `cutoff`, with their conversations. */
export function stalePendingReplies(db: Db, cutoff: Date, limit: number) {
  return db
    .select({ message: m, conversation: inboxConversations })
    .from(m)
    .innerJoin(inboxConversations, eq(inboxConversations.id, m.conversationId))
    .where(
      and(eq(m.delivery, 'pending'), sql`${m.updatedAt} < ${cutoff.toISOString()}::timestamptz`),
    )
    .limit(limit);
}

export function listNotes(db: Db, conversationId: string) {
  return db
    .select()
    .from(inboxNotes)
    .where(eq(inboxNotes.conversationId, conversationId))
    .orderBy(inboxNotes.createdAt, inboxNotes.id);
}

export async function insertNote(db: Db, values: typeof inboxNotes.$inferInsert) {
  const [row] = await db.insert(inboxNotes).values(values).returning();
  return row!;
}

/** One page of saved replies by name then id, after `after`; `limit + 1` rows tell if more follow. */
export function listSavedReplies(
  db: Db,
  organizationId: string,
  page: { q?: string | undefined; after?: { title: string; id: string }; limit: number },
) {
  const r = inboxSavedReplies;
  return db
    .select({ id: r.id, title: r.title, text: r.text })
    .from(r)
    .where(
      and(
        eq(r.organizationId, organizationId),
        page.q
          ? or(ilike(r.title, containsPattern(page.q)), ilike(r.text, containsPattern(page.q)))
          : undefined,
        page.after
          ? sql`(${r.title}, ${r.id}) > (${page.after.title}, ${page.after.id})`
          : undefined,
      ),
    )
    .orderBy(r.title, r.id)
    .limit(page.limit + 1);
}

export async function countSavedReplies(db: Db, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(inboxSavedReplies)
    .where(eq(inboxSavedReplies.organizationId, organizationId));
  return row?.n ?? 0;
}

export async function insertSavedReply(db: Db, values: typeof inboxSavedReplies.$inferInsert) {
  const [row] = await db.insert(inboxSavedReplies).values(values).returning();
  return row!;
}

export async function deleteSavedReply(db: Db, organizationId: string, id: string) {
  const rows = await db
    .delete(inboxSavedReplies)
    .where(and(eq(inboxSavedReplies.organizationId, organizationId), eq(inboxSavedReplies.id, id)))
    .returning({ id: inboxSavedReplies.id });
  return rows.length > 0;
}

export async function listOwnLabels(db: Db, organizationId: string) {
  return db
    .select({ name: inboxLabels.name, color: inboxLabels.color })
    .from(inboxLabels)
    .where(eq(inboxLabels.organizationId, organizationId))
    .orderBy(inboxLabels.createdAt, inboxLabels.name);
}

export async function countOwnLabels(db: Db, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(inboxLabels)
    .where(eq(inboxLabels.organizationId, organizationId));
  return row?.n ?? 0;
}

export async function insertLabel(
  db: Db,
  organizationId: string,
  name: string,
  color: string | null,
) {
  const rows = await db
    .insert(inboxLabels)
    .values({ organizationId, name, color })
    .onConflictDoNothing()
    .returning({ name: inboxLabels.name });
  return rows.length > 0;
}

/**
 * Renames and/or recolours an own label; a rename follows it onto every conversation of the
 * organization (one transaction). False when there is no such label; throws the unique
 * violation when the new name is taken.
 */
export async function updateLabel(
  db: Db,
  organizationId: string,
  name: string,
  change: { name?: string; color?: string | null },
) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(inboxLabels)
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.color !== undefined ? { color: change.color } : {}),
      })
      .where(and(eq(inboxLabels.organizationId, organizationId), eq(inboxLabels.name, name)))
      .returning({ name: inboxLabels.name });
    if (rows.length === 0) return false;
    if (change.name !== undefined && change.name !== name)
      await tx
        .update(c)
        .set({ labels: sql`array_replace(${c.labels}, ${name}, ${change.name})` })
        .where(and(eq(c.organizationId, organizationId), sql`${name} = any(${c.labels})`));
    return true;
  });
}

/** Removes the label and takes it off every conversation of the organization (one transaction). */
export async function deleteLabel(db: Db, organizationId: string, name: string) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(inboxLabels)
      .where(and(eq(inboxLabels.organizationId, organizationId), eq(inboxLabels.name, name)))
      .returning({ name: inboxLabels.name });
    await tx
      .update(c)
      .set({ labels: sql`array_remove(${c.labels}, ${name})` })
      .where(and(eq(c.organizationId, organizationId), sql`${name} = any(${c.labels})`));
    return rows.length > 0;
  });
}

/**
 * Deletes up to `limit` webhook deliveries processed before `before` (their contents live on in
 * the conversations they were stored in); answers how many. Unprocessed ones are kept whatever
 * their age: they are still to be read.
 */
export async function deleteProcessedWebhookEvents(db: Db, before: Date, limit: number) {
  const oldest = db
    .select({ id: inboxWebhookEvents.id })
    .from(inboxWebhookEvents)
    .where(lt(inboxWebhookEvents.processedAt, before))
    .limit(limit);
  const deleted = await db
    .delete(inboxWebhookEvents)
    .where(inArray(inboxWebhookEvents.id, oldest))
    .returning({ id: inboxWebhookEvents.id });
  return deleted.length;
}

/**
 * The same connected account's own messages with these network ids in its other conversations
 * (a private reply's two sides), through the partial index on outgoing ids.
 */
export function ourMessagesElsewhere(
  db: Db,
  organizationId: string,
  integrationId: string,
  conversationId: string,
  externalIds: string[],
) {
  return db
    .select({
      id: m.id,
      conversationId: m.conversationId,
      externalId: m.externalId,
      privateReplyTo: m.privateReplyTo,
    })
    .from(m)
    .innerJoin(inboxConversations, eq(inboxConversations.id, m.conversationId))
    .where(
      and(
        eq(m.organizationId, organizationId),
        eq(m.direction, 'out'),
        inArray(m.externalId, externalIds),
        ne(m.conversationId, conversationId),
        eq(inboxConversations.integrationId, integrationId),
      ),
    );
}

/** The organization's messages with these network ids in these conversations. */
export function messagesByExternalIds(
  db: Db,
  organizationId: string,
  conversationIds: string[],
  externalIds: string[],
) {
  return db
    .select({ id: m.id, conversationId: m.conversationId, externalId: m.externalId, text: m.text })
    .from(m)
    .where(
      and(
        eq(m.organizationId, organizationId),
        inArray(m.conversationId, conversationIds),
        inArray(m.externalId, externalIds),
      ),
    );
}
