import { onlyReachable } from '../team/account-access.js';
import {
  INBOX_DEFAULT_LABELS,
  INBOX_OWN_LABELS_MAX,
  INBOX_SAVED_REPLIES_MAX,
  type InboxLabelColor,
  type InboxAccount,
  type InboxConversation,
  type InboxConversationUpdate,
  type InboxSavedReply,
} from '@herald/contract';
import { isUniqueViolation, type Db } from '../../db/client.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import type { InboxAdapter } from '../../platforms/inbox-types.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { announceInbox, recordNotification } from '../notifications/notifications.service.js';
import { emitWebhookEvent } from '../outgoing-webhooks/outgoing-webhooks.events.js';
import { loadMembership } from '../team/membership.js';
import { toConversationDto, toMessageDto, toNoteDto, capabilitiesOf } from './inbox-dto.js';
import {
  accountContexts,
  type InboxDeps,
  inboxOf,
  isUuid,
  loadConversation,
  notFound,
  nowOf,
  readsSomething,
  teammatesOf,
} from './inbox-context.js';
import { privateReplyLinks } from './inbox-private-replies.js';
import * as repo from './inbox.repository.js';

export type { InboxDeps };

/** Cursors are opaque to the screen: the sort key of the last row shown. */
export const encodeCursor = (at: Date, id: string) =>
  Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
export function decodeCursor(cursor: string) {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at ?? '');
  if (!id || !isUuid(id) || Number.isNaN(date.getTime()))
    throw new AppError(
      'VALIDATION_FAILED',
      'The page cursor is not valid; start from the first page.',
    );
  return { at: date, id };
}

export async function conversationDto(
  deps: InboxDeps,
  row: repo.ConversationRow,
): Promise<InboxConversation> {
  const [contexts, teammates] = await Promise.all([
    accountContexts(deps, row.organizationId, [row.integrationId]),
    teammatesOf(deps.db, [row.assigneeUserId]),
  ]);
  return toConversationDto(row, contexts.get(row.integrationId)!, teammates, nowOf(deps));
}

/** The list (docs/inbox.md#list): tab, status, labels, search, assignee, account; newest first. */
export async function listConversations(
  deps: InboxDeps,
  organizationId: string,
  userId: string,
  query: {
    tab: string;
    status: 'open' | 'done';
    labels: string[];
    q?: string | undefined;
    assignee?: string | undefined;
    integrationId?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  },
  member: { accountIds: string[] | null } = { accountIds: null },
) {
  let assignee: string | null | undefined;
  if (query.assignee === 'me') assignee = userId;
  else if (query.assignee === 'unassigned') assignee = null;
  else if (query.assignee !== undefined) {
    if (!isUuid(query.assignee))
      throw new AppError('VALIDATION_FAILED', 'Choose me, unassigned or a teammate.');
    assignee = query.assignee;
  }
  if (query.integrationId !== undefined && !isUuid(query.integrationId))
    throw new AppError('VALIDATION_FAILED', 'This account is not connected to the organization.');
  const rows = await repo.listConversations(deps.db, {
    organizationId,
    status: query.status,
    unread: query.tab === 'unread',
    ...(query.tab !== 'all' && query.tab !== 'unread' ? { platform: query.tab } : {}),
    labels: query.labels.map((l) => l.toLowerCase()),
    ...(query.q ? { q: query.q } : {}),
    ...(assignee !== undefined ? { assignee } : {}),
    ...(query.integrationId ? { integrationId: query.integrationId } : {}),
    reachable: member.accountIds,
    ...(query.cursor ? { before: decodeCursor(query.cursor) } : {}),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const [contexts, teammates] = await Promise.all([
    accountContexts(
      deps,
      organizationId,
      page.map((r) => r.integrationId),
    ),
    teammatesOf(
      deps.db,
      page.map((r) => r.assigneeUserId),
    ),
  ]);
  const now = nowOf(deps);
  const last = page[page.length - 1];
  return {
    conversations: page.map((r) =>
      toConversationDto(r, contexts.get(r.integrationId)!, teammates, now),
    ),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor(last.lastMessageAt, last.id) : null,
  };
}

/** One conversation: its newest messages (oldest first), older pages by `before`, and notes. */
export async function getThread(
  deps: InboxDeps,
  organizationId: string,
  conversationId: string,
  query: { before?: string | undefined; limit: number },
) {
  const row = await loadConversation(deps.db, organizationId, conversationId);
  const before = query.before ? decodeCursor(query.before) : undefined;
  const [messages, notes, contexts] = await Promise.all([
    repo.listMessages(deps.db, row.id, query.limit + 1, before),
    repo.listNotes(deps.db, row.id),
    accountContexts(deps, organizationId, [row.integrationId]),
  ]);
  const page = messages.slice(0, query.limit);
  const teammates = await teammatesOf(deps.db, [
    row.assigneeUserId,
    ...page.map((m) => m.sentByUserId),
    ...notes.map((n) => n.authorUserId),
  ]);
  const ctx = contexts.get(row.integrationId)!;
  const now = nowOf(deps);
  const conversation = toConversationDto(row, ctx, teammates, now);
  const idsByExternal = new Map(
    page.filter((m) => m.externalId).map((m) => [m.externalId!, m.id] as const),
  );
  const links = await privateReplyLinks(deps.db, organizationId, row.integrationId, row.id, page);
  const oldest = page[page.length - 1];
  return {
    conversation,
    messages: page
      .reverse()
      .map((m) => toMessageDto(m, conversation.capabilities, teammates, idsByExternal, now, links)),
    notes: notes.map((n) => toNoteDto(n, teammates)),
    olderCursor:
      messages.length > query.limit && oldest ? encodeCursor(oldest.createdAt, oldest.id) : null,
  };
}

/** The badge's count, what each account gives, and the organization's labels. */
export async function getSummary(
  deps: InboxDeps,
  organizationId: string,
  member: { accountIds: string[] | null } = { accountIds: null },
) {
  const [unreadCount, accounts, { labels, ownLabels }] = await Promise.all([
    repo.countUnread(deps.db, organizationId, member.accountIds),
    repo.listAccounts(deps.db, organizationId),
    labelsOf(deps.db, organizationId),
  ]);
  const described: InboxAccount[] = [];
  for (const { integration, platformName, sync } of onlyReachable(
    member,
    accounts,
    (a) => a.integration.id,
  )) {
    const inbox = inboxOf(deps.networks, platformName)?.inbox;
    const caps = capabilitiesOrNull(inbox, deps.cipher, integration);
    described.push({
      integrationId: integration.id,
      platform: platformName as InboxAccount['platform'],
      name: integration.name ?? integration.username,
      dm: caps?.dm ?? false,
      comments: caps?.comments ?? false,
      mentions: caps?.mentions ?? false,
      reviews: caps?.reviews ?? false,
      limitation:
        caps?.limitation ??
        (caps && readsSomething(caps)
          ? null
          : `Herald cannot read messages or comments of ${platformName} accounts yet.`),
      historyNote: caps?.historyNote ?? null,
      lastSyncedAt: sync?.lastSyncedAt?.toISOString() ?? null,
      syncError: sync?.syncError ?? null,
    });
  }
  return { unreadCount, accounts: described, labels, ownLabels };
}

/** What the account's network reads, or null when it reads nothing or the account is unreadable. */
function capabilitiesOrNull(
  inbox: InboxAdapter | undefined,
  cipher: TokenCipher,
  integration: repo.IntegrationRow,
) {
  try {
    return inbox?.capabilities(toStoredAccount(cipher, integration)) ?? null;
  } catch {
    return null;
  }
}

export async function organizationLabels(db: Db, organizationId: string) {
  return (await labelsOf(db, organizationId)).labels;
}

/** Every label (the seven defaults first) and the organization's own, with their colours. */
export async function labelsOf(db: Db, organizationId: string) {
  const own = (await repo.listOwnLabels(db, organizationId))
    .filter((l) => !isDefaultLabel(l.name))
    .map((l) => ({ name: l.name, color: (l.color as InboxLabelColor | null) ?? null }));
  return { labels: [...INBOX_DEFAULT_LABELS, ...own.map((l) => l.name)], ownLabels: own };
}

const isDefaultLabel = (name: string) => (INBOX_DEFAULT_LABELS as readonly string[]).includes(name);

const announce = (db: Db, organizationId: string, conversationId: string) =>
  announceInbox(db, {
    event: 'inbox',
    data: { organizationId, conversationId, change: 'conversation' },
  });

/** Read/unread, Done/open, assignee, labels; the new assignee hears about it. */
export async function updateConversation(
  deps: InboxDeps,
  organizationId: string,
  userId: string,
  conversationId: string,
  change: InboxConversationUpdate,
) {
  const { db } = deps;
  const row = await loadConversation(db, organizationId, conversationId);
  const values: Parameters<typeof repo.updateConversation>[3] = {};
  if (change.unread !== undefined) values.unread = change.unread;
  if (change.status !== undefined) values.status = change.status;
  if (change.labels !== undefined) {
    const known = new Set(await organizationLabels(db, organizationId));
    const labels = [...new Set(change.labels.map((l) => l.toLowerCase()))];
    const unknown = labels.find((l) => !known.has(l));
    if (unknown)
      throw new AppError(
        'VALIDATION_FAILED',
        `There is no label "${unknown}" in this organization; add it first.`,
      );
    values.labels = labels;
  }
  let notifyAssignee: string | null = null;
  if (change.assigneeId !== undefined) {
    if (change.assigneeId !== null) {
      const member = isUuid(change.assigneeId)
        ? await loadMembership(db, organizationId, change.assigneeId)
        : null;
      if (!member?.permissions.includes('dm:view'))
        throw new AppError(
          'VALIDATION_FAILED',
          'Assign the conversation to a member of this organization who can see the inbox.',
        );
      if (change.assigneeId !== row.assigneeUserId && change.assigneeId !== userId)
        notifyAssignee = change.assigneeId;
    }
    values.assigneeUserId = change.assigneeId;
  }
  const updated = await db.transaction(async (tx) => {
    const saved = await repo.updateConversation(tx, organizationId, row.id, values);
    if (!saved) throw notFound();
    if (notifyAssignee) {
      const [assigner] = await repo.usersByIds(tx, [userId]);
      await recordNotification(
        tx,
        organizationId,
        { userIds: [notifyAssignee] },
        {
          type: 'INBOX_ASSIGNED',
          priority: 'MEDIUM',
          message: `${assigner?.displayName ?? 'A teammate'} assigned you the conversation with ${saved.title} (${saved.platform}).`,
        },
      );
    }
    if (change.assigneeId !== undefined && change.assigneeId !== row.assigneeUserId)
      await emitWebhookEvent(tx, organizationId, 'inbox.conversation.assigned', {
        conversationId: saved.id,
        assigneeUserId: change.assigneeId,
        assignedByUserId: userId,
      });
    await announce(tx, organizationId, saved.id);
    return saved;
  });
  return conversationDto(deps, updated);
}

/** "Delete conversation": archived in Herald (a new message brings it back). */
export async function archiveConversation(
  deps: InboxDeps,
  organizationId: string,
  conversationId: string,
) {
  const row = await loadConversation(deps.db, organizationId, conversationId);
  await deps.db.transaction(async (tx) => {
    await repo.updateConversation(tx, organizationId, row.id, {
      archivedAt: nowOf(deps),
      unread: false,
    });
    await announce(tx, organizationId, row.id);
  });
}

export async function addNote(
  deps: InboxDeps,
  organizationId: string,
  userId: string,
  conversationId: string,
  text: string,
) {
  const row = await loadConversation(deps.db, organizationId, conversationId);
  const note = await deps.db.transaction(async (tx) => {
    const saved = await repo.insertNote(tx, {
      organizationId,
      conversationId: row.id,
      authorUserId: userId,
      text,
    });
    await announce(tx, organizationId, row.id);
    return saved;
  });
  return toNoteDto(note, await teammatesOf(deps.db, [userId]));
}

/** "X is replying…" to the others viewing the conversation; nothing is stored. */
export async function announceTyping(
  deps: InboxDeps,
  organizationId: string,
  userId: string,
  conversationId: string,
  typing: boolean,
) {
  const row = await loadConversation(deps.db, organizationId, conversationId);
  const [user] = await repo.usersByIds(deps.db, [userId]);
  await announceInbox(deps.db, {
    event: 'inbox-typing',
    data: {
      organizationId,
      conversationId: row.id,
      user: { id: userId, displayName: user?.displayName ?? null },
      typing,
    },
  });
}

const toSavedReply = (r: { id: string; title: string; text: string }): InboxSavedReply => ({
  id: r.id,
  title: r.title,
  text: r.text,
});

/** The saved-replies cursor: the name and id of the last one shown. */
const encodeSavedReplyCursor = (r: { title: string; id: string }) =>
  Buffer.from(JSON.stringify([r.title, r.id])).toString('base64url');
function decodeSavedReplyCursor(cursor: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const [title, id] = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  if (typeof title !== 'string' || typeof id !== 'string' || !isUuid(id))
    throw new AppError(
      'VALIDATION_FAILED',
      'The page cursor is not valid; start from the first page.',
    );
  return { title, id };
}

/** One page of the organization's saved replies by name (docs/inbox.md#saved-replies). */
export async function listSavedReplies(
  db: Db,
  organizationId: string,
  query: { q?: string | undefined; cursor?: string | undefined; limit: number },
) {
  const rows = await repo.listSavedReplies(db, organizationId, {
    q: query.q || undefined,
    ...(query.cursor ? { after: decodeSavedReplyCursor(query.cursor) } : {}),
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    savedReplies: page.map(toSavedReply),
    nextCursor: rows.length > query.limit && last ? encodeSavedReplyCursor(last) : null,
  };
}

/**
 * A new saved reply, within `INBOX_SAVED_REPLIES_MAX` per organization: counted with the
 * organization's row locked, so concurrent creates cannot both take the last place.
 */
export async function createSavedReply(
  db: Db,
  organizationId: string,
  userId: string,
  input: { title: string; text: string },
) {
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    if ((await repo.countSavedReplies(tx, organizationId)) >= INBOX_SAVED_REPLIES_MAX)
      throw new AppError(
        'CONFLICT',
        `An organization can have at most ${INBOX_SAVED_REPLIES_MAX} saved replies; delete one you no longer use.`,
      );
    return toSavedReply(
      await repo.insertSavedReply(tx, { organizationId, createdByUserId: userId, ...input }),
    );
  });
}

export async function deleteSavedReply(db: Db, organizationId: string, id: string) {
  if (!isUuid(id) || !(await repo.deleteSavedReply(db, organizationId, id)))
    throw new AppError('NOT_FOUND', 'This saved reply does not exist.');
}

export async function addLabel(
  db: Db,
  organizationId: string,
  name: string,
  color: InboxLabelColor | null = null,
) {
  if (isDefaultLabel(name))
    throw new AppError('CONFLICT', `Every organization already has the label "${name}".`);
  // Counted after the insert with the organization's row locked: concurrent adds cannot both
  // take the last place, and adding a label it already has is still no change.
  await db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const added = await repo.insertLabel(tx, organizationId, name, color);
    if (added && (await repo.countOwnLabels(tx, organizationId)) > INBOX_OWN_LABELS_MAX)
      throw new AppError(
        'CONFLICT',
        `An organization can have at most ${INBOX_OWN_LABELS_MAX} labels of its own; delete one you no longer use.`,
      );
  });
  return labelsOf(db, organizationId);
}

const keptLabel = (label: string) =>
  new AppError('CONFLICT', `The label "${label}" is one of the seven every organization keeps.`);

/** Renames (every conversation keeps the label) and/or recolours one of the organization's own labels. */
export async function updateLabel(
  db: Db,
  organizationId: string,
  name: string,
  change: { name?: string | undefined; color?: InboxLabelColor | null | undefined },
) {
  const label = name.trim().toLowerCase();
  if (isDefaultLabel(label)) throw keptLabel(label);
  const rename = change.name !== undefined && change.name !== label ? change.name : undefined;
  if (rename !== undefined && isDefaultLabel(rename))
    throw new AppError('CONFLICT', `Every organization already has the label "${rename}".`);
  let found: boolean;
  try {
    found = await repo.updateLabel(db, organizationId, label, {
      ...(rename !== undefined ? { name: rename } : {}),
      ...(change.color !== undefined ? { color: change.color } : {}),
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('CONFLICT', `There is already a label "${rename}" in this organization.`);
    throw err;
  }
  if (!found) throw new AppError('NOT_FOUND', `There is no label "${label}" in this organization.`);
  return labelsOf(db, organizationId);
}

export async function removeLabel(db: Db, organizationId: string, name: string) {
  const label = name.trim().toLowerCase();
  if (isDefaultLabel(label)) throw keptLabel(label);
  if (!(await repo.deleteLabel(db, organizationId, label)))
    throw new AppError('NOT_FOUND', `There is no label "${label}" in this organization.`);
  return labelsOf(db, organizationId);
}

export { capabilitiesOf, toMessageDto };

/** The organization's unread conversations (the dashboard's count). */
export const countUnreadConversations = (
  db: Db,
  organizationId: string,
  accountIds: string[] | null = null,
) => repo.countUnread(db, organizationId, accountIds);

/** Deletes up to `limit` webhook deliveries processed before `before`; answers how many. */
export const deleteProcessedWebhookEvents = (db: Db, before: Date, limit: number) =>
  repo.deleteProcessedWebhookEvents(db, before, limit);
