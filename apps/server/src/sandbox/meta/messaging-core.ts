import { numericId } from '../kit/emu-kit.js';
import { GraphFailure, graphErrors } from './errors.js';
import { requireScope, type PublishDeps } from './helpers.js';
import { newNumericId, type GraphConversation, type GraphMessage } from './objects.js';
import type { Authenticated, SandboxPage } from './state.js';
import type { WebhookSender } from './webhook-sender.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const WINDOW_MS = DAY_MS;
export const HUMAN_AGENT_WINDOW_MS = 7 * DAY_MS;
export const PRIVATE_REPLY_MS = 7 * DAY_MS;
/** Instagram: only the newest messages of a conversation can be read. */
export const IG_READABLE_MESSAGES = 20;
export const MESSENGER_TEXT_MAX = 2000;
export const IG_TEXT_MAX_BYTES = 1000;

export const windowClosed = () =>
  new GraphFailure(
    400,
    10,
    '(#10) This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview',
    2534022,
    'OAuthException',
  );

export interface MessagingDeps extends PublishDeps {
  platform: 'messenger' | 'instagram';
  webhooks: WebhookSender;
}

export interface IgTag {
  id: string;
  caption: string;
  username: string;
  createdAt: number;
  commentId: string | null;
}

export const parseJsonParam = (value: string | undefined): Record<string, unknown> | null => {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

export interface Customer {
  id: string;
  name: string;
}

/**
 * What the messaging routes and the customer-side hooks share for one platform (Messenger or
 * Instagram): its dependencies, and how accounts, conversations, messages and their webhook
 * events are found and written.
 */
export function createMessagingCore(deps: MessagingDeps) {
  const { ctx, kit, state, objects, platform, webhooks } = deps;
  const { store } = ctx;
  const instagram = platform === 'instagram';
  const object = instagram ? ('instagram' as const) : ('page' as const);

  const requireMessaging = (auth: Authenticated) =>
    requireScope(auth, instagram ? 'instagram_manage_messages' : 'pages_messaging');

  /** The Page (and its account id on this platform) a path id names, for this token. */
  function accountOf(auth: Authenticated, id: string, method: 'get' | 'post' | 'delete') {
    const pages = auth.page ? [auth.page] : auth.user.pages;
    const page =
      id === 'me' && auth.page
        ? auth.page
        : pages.find((p) => p.id === id || (instagram && p.instagram?.id === id));
    if (!page || (instagram && !page.instagram)) throw graphErrors.notFound(id, method);
    return { page, accountId: instagram ? page.instagram!.id : page.id };
  }

  const messageIdsOf = async (conversationId: string) =>
    (await store.list<{ createdAt: number }>(`messages:${conversationId}`))
      .sort((a, b) => b.data.createdAt - a.data.createdAt || b.id.localeCompare(a.id))
      .map((e) => e.id);

  const accountName = (page: SandboxPage) => (instagram ? page.instagram!.username : page.name);

  const personRef = (id: string, name: string) =>
    instagram ? { id, username: name } : { id, name };

  async function readableMessage(message: GraphMessage) {
    if (!instagram) return true;
    const ids = await messageIdsOf(message.conversationId);
    return ids.indexOf(message.id) < IG_READABLE_MESSAGES;
  }

  /** The one conversation an account has with a person: its id follows from the two. */
  const conversationIdOf = (accountId: string, customerId: string) =>
    instagram
      ? `aWdfZAG${numericId(`conv:${accountId}:${customerId}`, 20)}`
      : `t_${numericId(`conv:${accountId}:${customerId}`, 16)}`;

  async function conversationWith(page: SandboxPage, accountId: string, customer: Customer) {
    const id = conversationIdOf(accountId, customer.id);
    const existing = await objects.get(id);
    if (existing?.type === 'conversation') return existing;
    const now = await kit.now();
    const conversation: GraphConversation = {
      type: 'conversation',
      id,
      owner: accountId,
      createdAt: now,
      platform,
      pageId: page.id,
      customerId: customer.id,
      customerName: customer.name,
      updatedAt: now,
      lastInboundAt: null,
    };
    await objects.put(conversation);
    await store.put(`conversations:${page.id}`, id, { updatedAt: now });
    return conversation;
  }

  async function addMessage(
    conversation: GraphConversation,
    message: Omit<
      GraphMessage,
      'type' | 'id' | 'owner' | 'createdAt' | 'platform' | 'conversationId'
    >,
    inbound: boolean,
  ) {
    const now = await kit.now();
    const m: GraphMessage = {
      type: 'message',
      id: instagram
        ? `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlE${newNumericId(18)}`
        : `m_${newNumericId(20)}`,
      owner: conversation.owner,
      createdAt: now,
      platform,
      conversationId: conversation.id,
      ...message,
    };
    await objects.put(m);
    await store.put(`messages:${conversation.id}`, m.id, { createdAt: now });
    await objects.put({
      ...conversation,
      updatedAt: now,
      lastInboundAt: inbound ? now : conversation.lastInboundAt,
    });
    await store.put(`conversations:${conversation.pageId}`, conversation.id, { updatedAt: now });
    return m;
  }

  const attachmentsOut = (m: GraphMessage) =>
    m.attachments.length
      ? { attachments: m.attachments.map((a) => ({ type: a.type, payload: { url: a.url } })) }
      : {};

  /** The `messages` (or echo) webhook event of a message. */
  function messagingEvent(m: GraphMessage, echo: boolean, extra: Record<string, unknown> = {}) {
    return {
      sender: { id: m.fromId },
      recipient: { id: m.toId },
      timestamp: m.createdAt,
      message: {
        mid: m.id,
        ...(m.text ? { text: m.text } : {}),
        ...attachmentsOut(m),
        ...(echo ? { is_echo: true, app_id: ctx.clientId } : {}),
        ...extra,
      },
    };
  }

  function queue(page: SandboxPage, accountId: string, event: Record<string, unknown>) {
    webhooks.enqueue({
      object,
      entryId: accountId,
      pageId: page.id,
      keys: [accountId, page.id],
      messaging: event,
    });
  }

  /** The account (Page, or its Instagram account) a test hook names by id, username or name. */
  async function findAccount(ref: string) {
    const users = await state.listUsers();
    for (const user of users) {
      for (const page of user.pages) {
        const ig = page.instagram;
        if (instagram) {
          if (ig && (ig.id === ref || ig.username === ref || page.id === ref || page.name === ref))
            return { page, accountId: ig.id };
        } else if (page.id === ref || page.name === ref) return { page, accountId: page.id };
      }
    }
    return null;
  }

  const customerOf = (accountId: string, name: string): Customer => ({
    id: instagram
      ? numericId(`igsid:${accountId}:${name}`, 17)
      : numericId(`psid:${accountId}:${name}`, 16),
    name,
  });

  return {
    ...deps,
    store,
    instagram,
    requireMessaging,
    accountOf,
    messageIdsOf,
    accountName,
    personRef,
    readableMessage,
    conversationIdOf,
    conversationWith,
    addMessage,
    messagingEvent,
    queue,
    findAccount,
    customerOf,
  };
}

export type MessagingCore = ReturnType<typeof createMessagingCore>;
