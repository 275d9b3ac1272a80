import type { InboxMessage, InboxReplyAttachmentType, InboxReplyRequest } from '@herald/contract';
import { createHash } from 'node:crypto';
import { isUniqueViolation, type Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { PlatformError } from '../../platforms/errors.js';
import type { InboxSendResult, InboxThreadRef } from '../../platforms/inbox-types.js';
import { announceInbox } from '../notifications/notifications.service.js';
import {
  type AccountContext,
  canPrivateReply,
  capabilitiesOf,
  replyWindow,
  toMessageDto,
} from './inbox-dto.js';
import { personName } from './inbox-ingest.js';
import * as repo from './inbox.repository.js';
import {
  accountContexts,
  type InboxDeps,
  loadConversation,
  nowOf,
  teammatesOf,
} from './inbox-context.js';

const isUuid = (v: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
const messageNotFound = () =>
  new AppError('NOT_FOUND', 'This message does not exist in this conversation.');

async function loadContext(deps: InboxDeps, organizationId: string, conversationId: string) {
  const conversation = await loadConversation(deps.db, organizationId, conversationId);
  const ctx = (await accountContexts(deps, organizationId, [conversation.integrationId])).get(
    conversation.integrationId,
  )!;
  return { conversation, ctx };
}

const threadOf = (c: repo.ConversationRow): InboxThreadRef => ({
  kind: c.kind,
  threadExternalId: c.threadExternalId,
  participantExternalId: c.participantExternalId ?? c.threadExternalId,
  rootPostExternalId: c.rootPostExternalId,
  lastInboundAt: c.lastInboundAt,
});

async function messageDto(
  deps: InboxDeps,
  ctx: AccountContext,
  c: repo.ConversationRow,
  row: repo.MessageRow,
) {
  const teammates = await teammatesOf(deps.db, [row.sentByUserId]);
  return toMessageDto(row, capabilitiesOf(c, ctx), teammates, new Map(), nowOf(deps));
}

class ClaimLost extends Error {}

const refuse = (message: string) => new AppError('CONFLICT', message);

/**
 * A reply, sent exactly once (docs/inbox.md#exactly-once): checked against the network's rules,
 * stored `pending` under the composer's key — a second press or a second teammate with the same
 * draft gets the same message and nothing is sent again — then sent outside any transaction.
 * An unknown outcome is looked up on the network before anything is sent again.
 */
export async function sendReply(
  deps: InboxDeps,
  organizationId: string,
  userId: string,
  conversationId: string,
  request: InboxReplyRequest,
): Promise<{ message: InboxMessage; created: boolean }> {
  const { db } = deps;
  const { conversation, ctx } = await loadContext(deps, organizationId, conversationId);
  const existing = await repo.findByClientKey(db, conversation.id, request.clientKey);
  if (existing) {
    sameDraft(existing, request);
    return { message: await messageDto(deps, ctx, conversation, existing), created: false };
  }

  const caps = capabilitiesOf(conversation, ctx);
  const now = nowOf(deps);
  const attachments = request.attachments ?? [];
  const refused = attachments.find((a) => !caps.replyAttachments.includes(a.type));
  if (refused)
    throw new AppError(
      'VALIDATION_FAILED',
      caps.replyAttachments.length === 0
        ? `${ctx.platformName} replies from Herald carry text only, so the ${ATTACHMENT_NAMES[refused.type]} cannot be sent; nothing was sent.`
        : `${ctx.platformName} does not take ${ATTACHMENT_NAMES[refused.type]}s in replies here (only ${caps.replyAttachments.map((t) => `${ATTACHMENT_NAMES[t]}s`).join(', ')}); nothing was sent.`,
    );
  // A private reply is a direct message, whatever the conversation.
  const maxLength = request.privateReplyTo
    ? (ctx.caps?.dmMaxLength ?? caps.replyMaxLength)
    : caps.replyMaxLength;
  if (request.text.length > maxLength)
    throw new AppError(
      'VALIDATION_FAILED',
      `${ctx.platformName} takes replies of at most ${maxLength.toLocaleString('en-US')} characters; this one has ${request.text.length.toLocaleString('en-US')}.`,
    );
  let privateTarget: repo.MessageRow | null = null;
  let replyTo: repo.MessageRow | null = null;
  if (request.privateReplyTo) {
    if (!caps.privateReply)
      throw refuse(`${ctx.platformName} does not let Herald reply privately here.`);
    privateTarget = isUuid(request.privateReplyTo)
      ? await repo.findMessage(db, conversation.id, request.privateReplyTo)
      : null;
    if (!privateTarget) throw messageNotFound();
    if (!canPrivateReply(privateTarget, caps, now))
      throw refuse(
        privateTarget.privateRepliedAt
          ? 'This comment already has its private reply; the network allows one per comment.'
          : 'A private reply is possible only to a comment from the last 7 days.',
      );
  } else {
    if (!caps.reply)
      throw refuse(`Herald cannot reply in this conversation on ${ctx.platformName}.`);
    const window = replyWindow(conversation, ctx, now);
    if (!window.open) throw refuse(window.reason ?? 'Replying is not possible now.');
    if (request.replyTo) {
      replyTo = isUuid(request.replyTo)
        ? await repo.findMessage(db, conversation.id, request.replyTo)
        : null;
      if (!replyTo?.externalId) throw messageNotFound();
    }
  }

  // Claim: the pending row (and the comment's one private reply) in one transaction.
  const claimed = await db
    .transaction(async (tx) => {
      if (privateTarget) {
        const marked = await repo.updateMessage(
          tx,
          privateTarget.id,
          { privateRepliedAt: now },
          { privateRepliedAt: null },
        );
        if (!marked) return null;
      }
      const row = await repo.insertReplyUnlessKeyed(tx, {
        organizationId,
        conversationId: conversation.id,
        clientKey: request.clientKey,
        kind: privateTarget ? 'dm' : conversation.kind === 'dm' ? 'dm' : 'comment',
        direction: 'out',
        author: {
          externalId: ctx.integration.platformAccountId,
          name: ctx.integration.name,
          username: ctx.integration.username,
          pictureUrl: ctx.integration.pictureUrl,
          profileUrl: null,
        },
        text: request.text,
        attachments: attachments.map((a) => ({
          type: a.type,
          url: a.url,
          previewUrl: null,
          title: null,
        })),
        createdAt: now,
        parentExternalId: replyTo?.externalId ?? null,
        delivery: 'pending',
        sentByUserId: userId,
        privateReplyTo: privateTarget?.externalId ?? null,
        requestFingerprint: fingerprintOf(request),
      });
      // The same draft won the race: undo the mark with the rest.
      if (!row) throw new ClaimLost();
      return row;
    })
    .catch((err: unknown) => {
      if (err instanceof ClaimLost) return null;
      throw err;
    });
  if (!claimed) {
    const raced = await repo.findByClientKey(db, conversation.id, request.clientKey);
    if (raced) {
      sameDraft(raced, request);
      return { message: await messageDto(deps, ctx, conversation, raced), created: false };
    }
    throw refuse('This comment already has its private reply; the network allows one per comment.');
  }
  const sent = await deliver(deps, ctx, conversation, claimed);
  return { message: await messageDto(deps, ctx, conversation, sent), created: true };
}

const ATTACHMENT_NAMES: Record<InboxReplyAttachmentType, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio file',
  file: 'file',
};

/**
 * What a reply request asks for, as a digest: its text (as the contract normalised it), its
 * files in order and whether it is private.
 */
function fingerprintOf(request: InboxReplyRequest) {
  const asked = {
    text: request.text,
    attachments: (request.attachments ?? []).map((a) => [a.type, a.url]),
    private: Boolean(request.privateReplyTo),
  };
  return createHash('sha256').update(JSON.stringify(asked)).digest('hex');
}

/**
 * A key already used is the same draft sent again only when it says the same thing: a key
 * reused for other words (a client bug, an edited draft keeping its key) is refused, so nothing
 * is taken for sent that was never sent. The request is matched against the one first stored,
 * not the row: the network's echo of a sent reply rewrites its text and file URLs. A row from
 * before the fingerprint was kept is matched on its columns.
 */
function sameDraft(row: repo.MessageRow, request: InboxReplyRequest) {
  const urls = (list: Array<{ url: string | null }>) => list.map((a) => a.url).join('\n');
  const same =
    row.requestFingerprint !== null
      ? row.requestFingerprint === fingerprintOf(request)
      : row.text === request.text &&
        urls(row.attachments) === urls(request.attachments ?? []) &&
        (row.privateReplyTo !== null) === Boolean(request.privateReplyTo);
  if (!same)
    throw refuse(
      'This draft was already sent with different words; nothing was sent. Start a new reply to send this text.',
    );
}

/** Calls the network for a pending reply (no transaction open) and records what happened. */
async function deliver(
  deps: InboxDeps,
  ctx: AccountContext,
  conversation: repo.ConversationRow,
  row: repo.MessageRow,
): Promise<repo.MessageRow> {
  const { inbox, account } = ctx;
  const thread = threadOf(conversation);
  const send = (): Promise<InboxSendResult> => {
    if (!inbox || !account)
      throw new PlatformError('bad_request', 'This account is not connected.');
    const files = row.attachments.flatMap((a) =>
      a.url && a.type !== 'sticker' && a.type !== 'share' ? [{ type: a.type, url: a.url }] : [],
    );
    const extra = files.length ? [files] : [];
    if (row.privateReplyTo)
      return inbox.privateReply!(account, row.privateReplyTo, row.text, ...extra);
    if (conversation.kind === 'dm') return inbox.sendDm!(account, thread, row.text, ...extra);
    return inbox.replyToComment!(account, thread, row.parentExternalId, row.text, ...extra);
  };
  let result: InboxSendResult | null = null;
  let failure: { delivery: 'failed' | 'uncertain'; error: string } | null = null;
  try {
    result = await send();
  } catch (err) {
    if (err instanceof PlatformError && err.kind !== 'unknown_outcome') {
      failure = { delivery: 'failed', error: err.message };
    } else {
      // The network may have taken it: ask before anything is sent again.
      const lookup = await reconcile(ctx, thread, row);
      if (lookup === 'not-sent')
        failure = {
          delivery: 'failed',
          error: `${ctx.platformName} did not receive the reply; nothing was sent.`,
        };
      else if (lookup) result = lookup;
      else
        failure = {
          delivery: 'uncertain',
          error: `Herald could not tell whether ${ctx.platformName} received this reply. Check the conversation on ${ctx.platformName}, then mark it sent or send it again.`,
        };
    }
  }
  if (result) return markSent(deps, conversation, row, result);
  return deps.db.transaction(async (tx) => {
    const saved = await repo.updateMessage(tx, row.id, failure!);
    // Nothing went out: the comment keeps its one private reply.
    if (failure!.delivery === 'failed' && row.privateReplyTo)
      await repo.releasePrivateReply(tx, conversation.id, row.privateReplyTo);
    await announceMessage(tx, conversation);
    return saved ?? row;
  });
}

async function reconcile(
  ctx: AccountContext,
  thread: InboxThreadRef,
  row: repo.MessageRow,
): Promise<InboxSendResult | 'not-sent' | null> {
  if (!ctx.inbox?.findSent || !ctx.account) return null;
  // A private reply is a DM to the commenter, not in the comment thread `findSent` reads: it
  // cannot be found there, so its outcome stays for the person to decide.
  if (row.privateReplyTo) return null;
  try {
    const found = await ctx.inbox.findSent(
      ctx.account,
      thread,
      row.text,
      new Date(row.createdAt.getTime() - 60_000),
    );
    return found ?? 'not-sent';
  } catch {
    return null;
  }
}

const announceMessage = (db: Db, c: repo.ConversationRow) =>
  announceInbox(db, {
    event: 'inbox',
    data: { organizationId: c.organizationId, conversationId: c.id, change: 'message' },
  });

/**
 * Records the network's id on our reply. A webhook echo that arrived first (stored as its own
 * row under that id) is folded into the reply, so the thread shows it once.
 */
async function markSent(
  deps: InboxDeps,
  conversation: repo.ConversationRow,
  row: repo.MessageRow,
  result: InboxSendResult,
): Promise<repo.MessageRow> {
  // The network's echo of this reply (a webhook or a poll) may be stored between the echoes'
  // removal and the reply taking the id: the id's unique index then refuses the reply. The echo
  // has committed by then, so the next attempt removes it too.
  for (let attempt = 1; ; attempt++) {
    try {
      return await recordSent(deps, conversation, row, result);
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err)) throw err;
    }
  }
}

function recordSent(
  deps: InboxDeps,
  conversation: repo.ConversationRow,
  row: repo.MessageRow,
  result: InboxSendResult,
) {
  return deps.db.transaction(async (tx) => {
    // The id found belongs to another reply Herald already recorded (the same text sent
    // before): it says nothing about this one, which stays for the person to decide.
    if (await repo.otherReplyHasExternalId(tx, conversation.id, result.externalId, row.id)) {
      const saved = await repo.updateMessage(tx, row.id, {
        delivery: 'uncertain',
        error: `Herald could not tell whether ${conversation.platform} received this reply. Check the conversation there, then mark it sent or send it again.`,
      });
      await announceMessage(tx, conversation);
      return saved ?? row;
    }
    // Only a webhook echo (no delivery of ours) is folded into this reply.
    await repo.deleteEchoes(tx, conversation.id, result.externalId, row.id);
    const saved = await repo.updateMessage(tx, row.id, {
      delivery: 'sent',
      error: null,
      externalId: result.externalId,
      createdAt: result.createdAt,
    });
    await repo.showSentReply(tx, conversation.id, {
      at: result.createdAt,
      preview: row.text.slice(0, 280),
      senderName: personName(row.author),
    });
    await announceMessage(tx, conversation);
    return saved ?? row;
  });
}

/**
 * Replies left `pending` by a process that stopped between storing and recording the network's
 * answer: looked up on the network (`findSent`), else marked `uncertain` for a person to decide.
 * Never sent again blindly. Called by the poll job.
 */
export async function reconcileStalePending(deps: InboxDeps, olderThanMs = 10 * 60_000) {
  const { db } = deps;
  const cutoff = new Date(nowOf(deps).getTime() - olderThanMs);
  const stale = await repo.stalePendingReplies(db, cutoff, 100);
  for (const { message, conversation } of stale) {
    const ctx = (
      await accountContexts(deps, conversation.organizationId, [conversation.integrationId])
    ).get(conversation.integrationId);
    const found = ctx ? await reconcile(ctx, threadOf(conversation), message) : null;
    const pendingOnly: repo.MessageGuard = { deliveryIn: ['pending'] };
    if (found && found !== 'not-sent') await markSent(deps, conversation, message, found);
    else if (found === 'not-sent')
      // The lookup is conclusive: it never reached the network, so the person may send again.
      await db.transaction(async (tx) => {
        const saved = await repo.updateMessage(
          tx,
          message.id,
          {
            delivery: 'failed',
            error: `Herald stopped while sending this reply and ${ctx?.platformName ?? 'the network'} did not receive it; nothing was sent. Send it again when you are ready.`,
          },
          pendingOnly,
        );
        if (saved) await announceMessage(tx, conversation);
      });
    else
      await repo.updateMessage(
        db,
        message.id,
        {
          delivery: 'uncertain',
          error: `Herald stopped while sending this reply and could not tell whether ${ctx?.platformName ?? 'the network'} received it. Check the conversation there, then mark it sent or send it again.`,
        },
        pendingOnly,
      );
  }
  return stale.length;
}

/**
 * An uncertain (or failed) reply: `sent` records it as delivered, `resend` sends it again,
 * `discard` drops it. Only one teammate's choice applies.
 */
export async function resolveReply(
  deps: InboxDeps,
  organizationId: string,
  conversationId: string,
  messageId: string,
  action: 'sent' | 'resend' | 'discard',
) {
  const { db } = deps;
  const { conversation, ctx } = await loadContext(deps, organizationId, conversationId);
  const row = isUuid(messageId) ? await repo.findMessage(db, conversation.id, messageId) : null;
  if (!row || row.direction !== 'out' || row.delivery === null) throw messageNotFound();
  const allowed = action === 'sent' ? ['uncertain'] : ['uncertain', 'failed'];
  const guard: repo.MessageGuard = { deliveryIn: allowed as Array<'uncertain' | 'failed'> };
  const state = row.delivery;
  if (!allowed.includes(state))
    throw refuse(
      state === 'sent'
        ? 'This reply was already sent.'
        : state === 'pending'
          ? 'This reply is being sent.'
          : 'Send this reply again or discard it.',
    );
  if (action === 'discard') {
    await db.transaction(async (tx) => {
      if (!(await repo.deleteMessage(tx, row.id, guard)))
        throw refuse('Someone else resolved this reply meanwhile.');
      if (row.privateReplyTo)
        await repo.releasePrivateReply(tx, conversation.id, row.privateReplyTo);
      await announceMessage(tx, conversation);
    });
    return null;
  }
  if (action === 'sent') {
    const saved = await repo.updateMessage(db, row.id, { delivery: 'sent', error: null }, guard);
    if (!saved) throw refuse('Someone else resolved this reply meanwhile.');
    return messageDto(deps, ctx, conversation, saved);
  }
  if (row.privateReplyTo) {
    const claimed = await repo.claimPrivateReply(
      db,
      conversation.id,
      row.privateReplyTo,
      nowOf(deps),
    );
    if (!claimed && state === 'failed')
      throw refuse(
        'This comment already has its private reply; the network allows one per comment.',
      );
  }
  const claimed = await repo.updateMessage(db, row.id, { delivery: 'pending', error: null }, guard);
  if (!claimed) throw refuse('Someone else resolved this reply meanwhile.');
  return messageDto(deps, ctx, conversation, await deliver(deps, ctx, conversation, claimed));
}

/** Like, hide or delete a comment on the network, then record it. */
export async function actOnMessage(
  deps: InboxDeps,
  organizationId: string,
  conversationId: string,
  messageId: string,
  action: { like: boolean } | { hide: boolean } | { delete: true },
) {
  const { db } = deps;
  const { conversation, ctx } = await loadContext(deps, organizationId, conversationId);
  const row = isUuid(messageId) ? await repo.findMessage(db, conversation.id, messageId) : null;
  if (!row?.externalId) throw messageNotFound();
  const caps = capabilitiesOf(conversation, ctx);
  const { inbox, account } = ctx;
  const network = ctx.platformName;
  let values: Partial<repo.MessageRow>;
  try {
    if ('like' in action) {
      if (!caps.like || !inbox?.like || !account)
        throw refuse(ctx.caps?.likeUnavailable ?? `${network} does not let Herald like this.`);
      await inbox.like(account, row.externalId, action.like);
      values = { liked: action.like };
    } else if ('hide' in action) {
      if (!caps.hide || !inbox?.hide || !account)
        throw refuse(`${network} does not let Herald hide this.`);
      await inbox.hide(account, row.externalId, action.hide);
      values = { hidden: action.hide };
    } else {
      if (!caps.deleteOnNetwork || !inbox?.deleteComment || !account)
        throw refuse(`${network} does not let Herald delete this.`);
      if (caps.deleteOwnRepliesOnly && row.direction !== 'out')
        throw refuse(
          `${network} lets a business delete only its own replies, not what others wrote. Delete your reply instead.`,
        );
      await inbox.deleteComment(account, row.externalId);
      values = { deleted: true };
    }
  } catch (err) {
    if (err instanceof PlatformError) throw new AppError('CONFLICT', err.message);
    throw err;
  }
  const saved = await db.transaction(async (tx) => {
    const updated = await repo.updateMessage(tx, row.id, values);
    await announceMessage(tx, conversation);
    return updated ?? row;
  });
  return messageDto(deps, ctx, conversation, saved);
}

/** Blocks the conversation's person on the network, where it allows that. */
export async function blockParticipant(
  deps: InboxDeps,
  organizationId: string,
  conversationId: string,
) {
  const { conversation, ctx } = await loadContext(deps, organizationId, conversationId);
  const caps = capabilitiesOf(conversation, ctx);
  if (!caps.block || !ctx.inbox?.block || !ctx.account || !conversation.participantExternalId)
    throw refuse(`${ctx.platformName} does not let Herald block people.`);
  try {
    await ctx.inbox.block(ctx.account, conversation.participantExternalId);
  } catch (err) {
    if (err instanceof PlatformError) throw new AppError('CONFLICT', err.message);
    throw err;
  }
}
