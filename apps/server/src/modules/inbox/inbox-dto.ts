import {
  webUrlOrNull,
  type InboxCapabilities as InboxCapabilitiesDto,
  type InboxConversation,
  type InboxMessage,
  type InboxNote,
  type InboxReplyWindow,
} from '@herald/contract';
import type { InboxAdapter, InboxCapabilities } from '../../platforms/inbox-types.js';
import { attachmentWithWebUrls } from './inbox-urls.js';
import type { StoredAccount } from '../../platforms/types.js';
import type { ConversationRow, IntegrationRow, MessageRow } from './inbox.repository.js';

/** A connected account as the inbox uses it: its adapter's inbox half and what it can do. */
export interface AccountContext {
  integration: IntegrationRow;
  platformName: string;
  inbox: InboxAdapter | null;
  caps: InboxCapabilities | null;
  account: StoredAccount | null;
}

export type Teammates = Map<string, { id: string; displayName: string | null }>;

const HOUR = 3_600_000;
/** Meta allows one private reply per comment, within 7 days of it. */
export const PRIVATE_REPLY_DAYS = 7;

const duration = (hours: number) =>
  hours >= 48 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`;

/** Whether a DM may be answered now (Messenger/Instagram: 24 hours, 7 days with HUMAN_AGENT). */
export function replyWindow(
  row: ConversationRow,
  ctx: AccountContext,
  now: Date,
): InboxReplyWindow {
  const caps = ctx.caps;
  if (row.kind !== 'dm' || !caps || caps.dmWindowHours === null)
    return { open: true, closesAt: null, reason: null };
  const hours = caps.humanAgentWindowHours ?? caps.dmWindowHours;
  if (!row.lastInboundAt)
    return {
      open: false,
      closesAt: null,
      reason: `${ctx.platformName} lets you reply only after the person has written to you.`,
    };
  const closesAt = new Date(row.lastInboundAt.getTime() + hours * HOUR);
  if (closesAt > now) return { open: true, closesAt: closesAt.toISOString(), reason: null };
  return {
    open: false,
    closesAt: closesAt.toISOString(),
    reason: `${ctx.platformName} allows replies only within ${duration(hours)} of the person's last message; this conversation can be answered again when they write.`,
  };
}

export function capabilitiesOf(row: ConversationRow, ctx: AccountContext): InboxCapabilitiesDto {
  const { caps, inbox } = ctx;
  const live = ctx.integration.status === 'CONNECTED' && caps !== null && inbox !== null;
  const onComments = row.kind !== 'dm';
  return {
    reply: live && (row.kind === 'dm' ? Boolean(inbox.sendDm) : Boolean(inbox.replyToComment)),
    privateReply:
      live && row.kind === 'comments' && caps.privateReply && Boolean(inbox.privateReply),
    like: live && onComments && caps.like && Boolean(inbox.like),
    hide: live && onComments && caps.hide && Boolean(inbox.hide),
    deleteOnNetwork: live && onComments && caps.deleteComment && Boolean(inbox.deleteComment),
    ...(caps?.deleteOwnRepliesOnly ? { deleteOwnRepliesOnly: true } : {}),
    block: live && caps.block && Boolean(inbox.block),
    replyMaxLength:
      (row.kind === 'dm' ? (caps?.dmMaxLength ?? caps?.replyMaxLength) : caps?.replyMaxLength) ?? 1,
    replyAttachments: live ? (caps.replyAttachments ?? []) : [],
  };
}

export function toConversationDto(
  row: ConversationRow,
  ctx: AccountContext,
  teammates: Teammates,
  now: Date,
): InboxConversation {
  const p = row.participant;
  const assignee = row.assigneeUserId ? (teammates.get(row.assigneeUserId) ?? null) : null;
  return {
    id: row.id,
    integrationId: row.integrationId,
    platform: ctx.platformName as InboxConversation['platform'],
    kind: row.kind,
    account: {
      id: ctx.integration.id,
      name: ctx.integration.name,
      username: ctx.integration.username,
      pictureUrl: webUrlOrNull(ctx.integration.pictureUrl),
    },
    // Addresses are stored only when they are web ones; rows from before that rule are
    // answered the same way here.
    participant: {
      externalId: p?.externalId ?? row.participantExternalId ?? '',
      name: p?.name ?? null,
      username: p?.username ?? null,
      pictureUrl: webUrlOrNull(p?.pictureUrl),
      profileUrl: webUrlOrNull(p?.profileUrl),
    },
    title: row.title,
    lastMessage:
      row.lastMessagePreview !== null
        ? {
            text: row.lastMessagePreview,
            at: row.lastMessageAt.toISOString(),
            direction: row.lastMessageDirection ?? 'in',
            senderName: row.lastMessageSenderName,
          }
        : null,
    lastMessageAt: row.lastMessageAt.toISOString(),
    rating: row.rating ?? null,
    unread: row.unread,
    status: row.status,
    labels: row.labels,
    assignee,
    post: row.rootPostExternalId
      ? {
          postId: row.postId,
          externalId: row.rootPostExternalId,
          permalink: webUrlOrNull(row.rootPostPermalink),
          text: row.rootPostText,
        }
      : null,
    window: replyWindow(row, ctx, now),
    capabilities: capabilitiesOf(row, ctx),
  };
}

/** Whether this inbound comment may still get its one private reply. */
export function canPrivateReply(
  message: MessageRow,
  caps: InboxCapabilitiesDto,
  now: Date,
): boolean {
  return (
    caps.privateReply &&
    message.direction === 'in' &&
    message.kind === 'comment' &&
    !message.deleted &&
    message.privateRepliedAt === null &&
    now.getTime() - message.createdAt.getTime() < PRIVATE_REPLY_DAYS * 24 * HOUR
  );
}

export function toMessageDto(
  row: MessageRow,
  caps: InboxCapabilitiesDto,
  teammates: Teammates,
  idsByExternal: Map<string, string>,
  now: Date,
  privateReplyLinks: Map<string, InboxMessage['privateReplyLink']> = new Map(),
): InboxMessage {
  const link = privateReplyLinks.get(row.id) ?? null;
  return {
    id: row.id,
    conversationId: row.conversationId,
    externalId: row.externalId,
    kind: row.kind,
    direction: row.direction,
    sender: {
      name: row.author?.name ?? null,
      username: row.author?.username ?? null,
      pictureUrl: webUrlOrNull(row.author?.pictureUrl),
      teammate: row.sentByUserId ? (teammates.get(row.sentByUserId) ?? null) : null,
    },
    text: row.text,
    rating: row.rating ?? null,
    createdAt: row.createdAt.toISOString(),
    attachments: row.attachments.map(attachmentWithWebUrls),
    parentId: row.parentExternalId ? (idsByExternal.get(row.parentExternalId) ?? null) : null,
    privateReply: row.privateReplyTo !== null || link !== null,
    privateReplyLink: link,
    deleted: row.deleted,
    hidden: row.hidden,
    liked: row.liked,
    edited: row.edited,
    delivery: row.delivery,
    error: row.error,
    canPrivateReply: canPrivateReply(row, caps, now),
  };
}

export function toNoteDto(
  row: {
    id: string;
    conversationId: string;
    text: string;
    authorUserId: string | null;
    createdAt: Date;
  },
  teammates: Teammates,
): InboxNote {
  return {
    id: row.id,
    conversationId: row.conversationId,
    text: row.text,
    author: row.authorUserId ? (teammates.get(row.authorUserId) ?? null) : null,
    createdAt: row.createdAt.toISOString(),
  };
}
