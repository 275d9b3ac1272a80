import {
  INBOX_DEFAULT_LABELS,
  type InboxAccount,
  type InboxOwnLabel,
  type InboxConversation,
  type InboxMessage,
  type InboxNote,
} from '@herald/contract';
import { ok, type FakeReply } from './fake-server';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${++sequence}`;

export function createInboxAccount(overrides: Partial<InboxAccount> = {}): InboxAccount {
  return {
    integrationId: nextId('int'),
    platform: 'Instagram',
    name: 'Studio IG',
    dm: true,
    comments: true,
    mentions: true,
    reviews: false,
    limitation: null,
    historyNote: null,
    lastSyncedAt: '2026-03-10T09:00:00.000Z',
    syncError: null,
    ...overrides,
  };
}

export function createConversation(overrides: Partial<InboxConversation> = {}): InboxConversation {
  return {
    id: nextId('conv'),
    integrationId: 'int_ig',
    platform: 'Instagram',
    kind: 'dm',
    account: { id: 'int_ig', name: 'Studio IG', username: 'studio', pictureUrl: null },
    participant: {
      externalId: nextId('ext'),
      name: 'Maya Chen',
      username: 'maya.c',
      pictureUrl: null,
      profileUrl: 'https://instagram.com/maya.c',
    },
    title: 'Maya Chen',
    lastMessage: {
      text: 'Is the spring collection out yet?',
      at: '2026-03-10T10:00:00.000Z',
      direction: 'in',
      senderName: 'Maya Chen',
    },
    lastMessageAt: '2026-03-10T10:00:00.000Z',
    rating: null,
    unread: false,
    status: 'open',
    labels: [],
    assignee: null,
    post: null,
    window: { open: true, closesAt: '2099-01-01T00:00:00.000Z', reason: null },
    capabilities: {
      reply: true,
      privateReply: false,
      like: false,
      hide: false,
      deleteOnNetwork: false,
      block: false,
      replyMaxLength: 1000,
      replyAttachments: [],
    },
    ...overrides,
  };
}

export function createInboxMessage(overrides: Partial<InboxMessage> = {}): InboxMessage {
  return {
    id: nextId('msg'),
    conversationId: 'conv_1',
    externalId: nextId('net'),
    kind: 'dm',
    direction: 'in',
    sender: { name: 'Maya Chen', username: 'maya.c', pictureUrl: null, teammate: null },
    text: 'Is the spring collection out yet?',
    rating: null,
    createdAt: '2026-03-10T10:00:00.000Z',
    attachments: [],
    parentId: null,
    privateReply: false,
    privateReplyLink: null,
    deleted: false,
    hidden: false,
    liked: false,
    edited: false,
    delivery: null,
    error: null,
    canPrivateReply: false,
    ...overrides,
  };
}

export function createInboxNote(overrides: Partial<InboxNote> = {}): InboxNote {
  return {
    id: nextId('note'),
    conversationId: 'conv_1',
    text: 'VIP customer, answer first.',
    author: { id: 'usr_bo', displayName: 'Bo Berg' },
    createdAt: '2026-03-10T10:05:00.000Z',
    ...overrides,
  };
}

/** A page of the conversation list, in the contract's envelope. */
export function conversationsPage(
  conversations: InboxConversation[],
  nextCursor: string | null = null,
): FakeReply {
  return {
    status: 200,
    body: { status: 'success', data: { conversations }, meta: { nextCursor } },
  };
}

export function threadReply(
  conversation: InboxConversation,
  messages: InboxMessage[] = [],
  notes: InboxNote[] = [],
): FakeReply {
  return ok({ conversation, messages, notes, olderCursor: null });
}

export function summaryReply({
  unreadCount = 0,
  accounts = [] as InboxAccount[],
  labels = [...INBOX_DEFAULT_LABELS] as string[],
  ownLabels = [] as InboxOwnLabel[],
} = {}): FakeReply {
  return ok({
    unreadCount,
    accounts,
    labels: [...labels, ...ownLabels.map((l) => l.name).filter((n) => !labels.includes(n))],
    ownLabels,
  });
}
