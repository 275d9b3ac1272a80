import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { runNamed, type Db } from '../../db/client.js';
import type { InboxPerson } from '@herald/contract';
import {
  inboxConversations,
  inboxSyncState,
  inboxWebhookEvents,
  integrations,
  platforms,
} from '../../db/schema.js';
import type { IntegrationRow } from './inbox.repository.js';

export type WebhookEventRow = typeof inboxWebhookEvents.$inferSelect;
export type SyncStateValues = Partial<typeof inboxSyncState.$inferInsert>;

/** Group sizes whose delivery INSERT is kept prepared per connection. */
const NAMED_GROUP = 32;
const insertTexts = new Map<number, string>();
/** `insert into inbox_webhook_events … values (…), …` for `n` deliveries. */
function deliveriesInsert(n: number) {
  let text = insertTexts.get(n);
  if (!text) {
    const rows = Array.from({ length: n }, (_, i) => {
      const p = 4 * i;
      return `($${p + 1}::uuid, $${p + 2}, $${p + 3}::bytea, $${p + 4}::jsonb)`;
    });
    text = `insert into inbox_webhook_events (id, provider, body, headers) values ${rows.join(', ')}`;
    if (n <= NAMED_GROUP) insertTexts.set(n, text);
  }
  return text;
}

/**
 * Stores webhook deliveries in one multi-row VALUES, prepared once per size up to NAMED_GROUP
 * (the sizes a burst makes), with the bodies as bytes: building and parsing one JSON document of
 * base64 bodies cost about as much as the rest of the request.
 */
export function insertDeliveries(
  db: Db,
  rows: Array<{ id: string; provider: string; body: Buffer; headers: Record<string, string> }>,
) {
  const values = rows.flatMap((r) => [r.id, r.provider, r.body, JSON.stringify(r.headers)]);
  const n = rows.length;
  return runNamed(
    db,
    n <= NAMED_GROUP ? `inbox_deliveries_${n}` : undefined,
    deliveriesInsert(n),
    values,
  );
}

/**
 * Up to `limit` unprocessed deliveries (of `ids` when given), oldest first, locked for the
 * caller's transaction; those another transaction holds are skipped, and so are those an older
 * process marked claimed until its claim lapses.
 */
export function lockPendingDeliveries(tx: Db, limit: number, ids?: string[]) {
  const e = inboxWebhookEvents;
  return tx
    .select()
    .from(e)
    .where(
      and(
        isNull(e.processedAt),
        or(isNull(e.claimedUntil), lt(e.claimedUntil, sql`now()`)),
        ids ? inArray(e.id, ids) : undefined,
      ),
    )
    .orderBy(asc(e.receivedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Marks deliveries processed, with the error that kept their events out when there is one. */
export async function markDeliveriesProcessed(
  db: Db,
  ids: string[],
  processedAt: Date,
  error?: string,
) {
  await db
    .update(inboxWebhookEvents)
    .set(error === undefined ? { processedAt } : { processedAt, error })
    .where(inArray(inboxWebhookEvents.id, ids));
}

/** Brings the account's next poll forward to `at`. */
export async function pollAccountAt(db: Db, integrationId: string, at: Date) {
  await db
    .update(inboxSyncState)
    .set({ nextPollAt: at })
    .where(eq(inboxSyncState.integrationId, integrationId));
}

/** Every organization's connection of this account (the same Page may be in two). */
export function connectedAccounts(db: Db, platformName: string, accountExternalId: string) {
  return db
    .select({ id: integrations.id, organizationId: integrations.organizationId })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        eq(platforms.name, platformName),
        eq(integrations.platformAccountId, accountExternalId),
        eq(integrations.status, 'CONNECTED'),
      ),
    );
}

export async function findAccount(db: Db, integrationId: string) {
  const [row] = await db
    .select({ integration: integrations, platformName: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(eq(integrations.id, integrationId));
  return row ?? null;
}

/** Creates the account's sync state or updates it in place. */
export async function saveSyncState(
  db: Db,
  integration: Pick<IntegrationRow, 'id' | 'organizationId'>,
  values: SyncStateValues,
  now: Date,
) {
  await db
    .insert(inboxSyncState)
    .values({
      integrationId: integration.id,
      organizationId: integration.organizationId,
      ...values,
    })
    .onConflictDoUpdate({
      target: inboxSyncState.integrationId,
      set: { ...values, updatedAt: now },
    });
}

/**
 * Claims the account's poll until `until` in one statement (creating its state on the first
 * poll): only when no other poll holds it and, with `dueOnly`, when it is due. Answers the stored
 * cursor and the claim's end, or null when not claimed.
 */
export async function claimPoll(
  db: Db,
  integration: Pick<IntegrationRow, 'id' | 'organizationId'>,
  dueOnly: boolean,
  now: Date,
  until: Date,
) {
  const s = inboxSyncState;
  const [claimed] = await db
    .insert(s)
    .values({
      integrationId: integration.id,
      organizationId: integration.organizationId,
      pollClaimedUntil: until,
    })
    .onConflictDoUpdate({
      target: s.integrationId,
      set: { pollClaimedUntil: sql`excluded.poll_claimed_until` },
      setWhere: and(
        or(isNull(s.pollClaimedUntil), lte(s.pollClaimedUntil, now)),
        dueOnly ? or(isNull(s.nextPollAt), lte(s.nextPollAt, now)) : undefined,
      ),
    })
    .returning({ cursor: s.cursor, until: s.pollClaimedUntil });
  return claimed ? { cursor: claimed.cursor ?? null, until: claimed.until! } : null;
}

/** Saves `values` and releases the poll's claim, only while the claim ending `until` holds. */
export async function releasePoll(
  db: Db,
  integrationId: string,
  until: Date,
  values: SyncStateValues,
  now: Date,
) {
  const s = inboxSyncState;
  const saved = await db
    .update(s)
    .set({ ...values, pollClaimedUntil: null, updatedAt: now })
    .where(and(eq(s.integrationId, integrationId), eq(s.pollClaimedUntil, until)))
    .returning({ id: s.integrationId });
  return saved.length > 0;
}

/** Every connected account whose next poll is due, never polled first. */
export function dueAccounts(db: Db, now: Date) {
  return db
    .select({ id: integrations.id })
    .from(integrations)
    .leftJoin(inboxSyncState, eq(inboxSyncState.integrationId, integrations.id))
    .where(
      and(
        eq(integrations.status, 'CONNECTED'),
        or(isNull(inboxSyncState.nextPollAt), lte(inboxSyncState.nextPollAt, now)),
      ),
    )
    .orderBy(sql`${inboxSyncState.nextPollAt} asc nulls first`);
}

/** Every connected account with its network's name. */
export function connectedAccountsWithPlatform(db: Db) {
  return db
    .select({ id: integrations.id, platformName: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(eq(integrations.status, 'CONNECTED'));
}

/**
 * The account's DM conversations among these threads whose customer is still unnamed (a webhook
 * carried ids only), with the customer's id.
 */
export function unnamedDmConversations(db: Db, integrationId: string, threadIds: string[]) {
  const c = inboxConversations;
  return db
    .select({
      id: c.id,
      organizationId: c.organizationId,
      participantExternalId: c.participantExternalId,
    })
    .from(c)
    .where(
      and(
        eq(c.integrationId, integrationId),
        eq(c.kind, 'dm'),
        inArray(c.threadExternalId, threadIds),
        sql`${c.participantExternalId} is not null`,
        sql`${c.participant}->>'name' is null and ${c.participant}->>'username' is null`,
      ),
    );
}

/**
 * Names a conversation's customer, only while the stored one is the same person and still
 * unnamed (a poll may have named them meanwhile). Answers whether it did.
 */
export async function nameParticipant(
  db: Db,
  conversationId: string,
  person: InboxPerson,
  title: string,
) {
  const c = inboxConversations;
  const rows = await db
    .update(c)
    .set({ participant: person, title, updatedAt: sql`now()` })
    .where(
      and(
        eq(c.id, conversationId),
        eq(c.participantExternalId, person.externalId),
        sql`${c.participant}->>'name' is null and ${c.participant}->>'username' is null`,
      ),
    )
    .returning({ id: c.id });
  return rows.length > 0;
}
