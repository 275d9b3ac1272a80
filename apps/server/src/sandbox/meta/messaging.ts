import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { numericId } from '../kit/emu-kit.js';
import { requireHeraldReceiver } from '../kit/herald-receiver.js';
import { emuTenant, notYours } from '../kit/tenant.js';
import { GraphFailure, graphErrors } from './errors.js';
import { parseFields, pickFields } from './fields.js';
import { answerVisible, paginate, requireScope, type PublishDeps } from './helpers.js';
import {
  graphTime,
  newNumericId,
  ownersOf,
  type GraphComment,
  type GraphConversation,
  type GraphMessage,
} from './objects.js';
import type { GraphRequest, GraphRouter } from './router.js';
import type { Authenticated, SandboxPage } from './state.js';
import type { WebhookSender } from './webhook-sender.js';
import { renderInboxPage, type InboxPageAccount } from './inbox-page.js';

/**
 * Messenger and Instagram messaging on the Graph emulator (docs/inbox.md#facebook-and-instagram):
 * - `GET /{page}/conversations?platform=messenger|instagram[&user_id=]` and
 *   `GET /{conversation}[/messages]`, `GET /{message-id}` (Instagram: only the 20 newest
 *   messages of a conversation can be read; older ones answer as deleted);
 * - `POST /{page}/messages {recipient:{id}|{comment_id}, messaging_type, tag?, message:{text}}`
 *   with the 24 h window from the customer's last message (7 days with `MESSAGE_TAG` +
 *   `HUMAN_AGENT`), by the emulator's clock; a private reply once per comment within 7 days;
 * - `GET|POST|DELETE /{page}/subscribed_apps`, `POST|DELETE /{comment}/likes` (Facebook),
 *   `POST|GET /{page}/blocked` (Facebook), `GET /{ig-user}/tags` and
 *   `POST /{ig-user}/mentions` (Instagram).
 * The Facebook emulator holds Messenger conversations, the Instagram emulator Instagram ones.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const WINDOW_MS = DAY_MS;
export const HUMAN_AGENT_WINDOW_MS = 7 * DAY_MS;
export const PRIVATE_REPLY_MS = 7 * DAY_MS;
/** Instagram: only the newest messages of a conversation can be read. */
export const IG_READABLE_MESSAGES = 20;
const MESSENGER_TEXT_MAX = 2000;
const IG_TEXT_MAX_BYTES = 1000;

const windowClosed = () =>
  new GraphFailure(
    400,
    10,
    '(#10) This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview',
    2534022,
    'OAuthException',
  );

interface MessagingDeps extends PublishDeps {
  platform: 'messenger' | 'instagram';
  webhooks: WebhookSender;
}

interface IgTag {
  id: string;
  caption: string;
  username: string;
  createdAt: number;
  commentId: string | null;
}

const parseJsonParam = (value: string | undefined): Record<string, unknown> | null => {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

export function addGraphMessaging(router: GraphRouter, deps: MessagingDeps) {
  const { ctx, kit, state, objects, views, platform, webhooks } = deps;
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

  views.set('conversation', {
    nodeType: 'Conversation',
    defaults: 'id,updated_time',
    async view(o) {
      const c = o as GraphConversation;
      const ids = await messageIdsOf(c.id);
      const messages = [];
      for (const id of ids) {
        const m = await objects.get(id);
        if (m?.type === 'message') messages.push({ id, created_time: graphTime(m.createdAt) });
      }
      const users = (await state.listUsers()).flatMap((u) => u.pages);
      const page = users.find((p) => p.id === c.pageId);
      const ownName = page ? accountName(page) : '';
      return {
        id: c.id,
        updated_time: graphTime(c.updatedAt),
        link: instagram ? undefined : `/${c.pageId}/inbox/${c.id}`,
        message_count: ids.length,
        unread_count: 0,
        participants: {
          data: [personRef(c.customerId, c.customerName), personRef(c.owner, ownName)],
        },
        messages: { data: messages },
      };
    },
  });

  views.set('message', {
    nodeType: 'Message',
    defaults: 'id,created_time',
    async view(o, specs) {
      const m = o as GraphMessage;
      const onlyIds = specs.every((s) => s.name === 'id' || s.name === 'created_time');
      if (m.deleted || (!onlyIds && !(await readableMessage(m)))) {
        throw new GraphFailure(
          400,
          100,
          '(#100) This message has been deleted or cannot be read: Instagram gives only the 20 most recent messages of a conversation.',
          2534015,
        );
      }
      return {
        id: m.id,
        created_time: graphTime(m.createdAt),
        from: { ...personRef(m.fromId, m.fromName) },
        to: { data: [personRef(m.toId, m.toName)] },
        message: m.text,
        attachments: m.attachments.length
          ? {
              data: m.attachments.map((a, i) =>
                a.type === 'image'
                  ? {
                      id: `${m.id}_${i}`,
                      mime_type: 'image/jpeg',
                      image_data: { url: a.url, preview_url: a.url, width: 640, height: 640 },
                    }
                  : a.type === 'video'
                    ? {
                        id: `${m.id}_${i}`,
                        mime_type: 'video/mp4',
                        video_data: { url: a.url, preview_url: a.url },
                      }
                    : { id: `${m.id}_${i}`, name: a.url.split('/').pop(), file_url: a.url },
              ),
            }
          : undefined,
        sticker: undefined,
        is_unsupported: instagram ? false : undefined,
      };
    },
  });

  /** `GET /{page}/conversations?platform=…`: newest first. */
  router.add('GET', ':id/conversations', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page, accountId } = accountOf(auth, path.id!, 'get');
    const wanted = req.params.platform ?? 'messenger';
    if (wanted !== 'messenger' && wanted !== 'instagram') {
      throw graphErrors.invalidParam('(#100) platform must be one of {messenger, instagram}');
    }
    requireMessaging(auth);
    const all = (await store.list<{ updatedAt: number }>(`conversations:${page.id}`)).map(
      (e) => e.id,
    );
    const conversations: GraphConversation[] = [];
    for (const id of all) {
      const c = await objects.get(id);
      if (c?.type !== 'conversation' || c.platform !== wanted || c.owner !== accountId) continue;
      if (req.params.user_id && c.customerId !== req.params.user_id) continue;
      conversations.push(c);
    }
    conversations.sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id));
    const { slice, paging } = paginate(ctx, req, `${path.id}/conversations`, conversations);
    const specs = parseFields(req.params.fields, 'id,updated_time');
    const view = views.get('conversation')!;
    const data = [];
    for (const c of slice) data.push(pickFields(await view.view(c, specs), specs, 'Conversation'));
    return { json: { data, paging } };
  });

  /** `GET /{conversation}/messages`: the conversation's messages, newest first. */
  router.add('GET', ':id/messages', async (req, path) => {
    const auth = await state.authenticate(req.token);
    const c = await objects.get(path.id!);
    if (c?.type !== 'conversation' || !ownersOf(auth).has(c.owner)) {
      throw graphErrors.notFound(path.id!);
    }
    requireMessaging(auth);
    const ids = await messageIdsOf(c.id);
    const { slice, paging } = paginate(ctx, req, `${c.id}/messages`, ids);
    const specs = parseFields(req.params.fields, 'id,created_time');
    const view = views.get('message')!;
    const data = [];
    for (const id of slice) {
      const m = await objects.get(id);
      if (!m) continue;
      try {
        data.push(pickFields(await view.view(m, specs), specs, 'Message'));
      } catch (err) {
        // Instagram: only the id of a message beyond the 20 newest (or unsent).
        if (!(err instanceof GraphFailure)) throw err;
        data.push({ id, created_time: graphTime(m.createdAt) });
      }
    }
    return { json: { data, paging } };
  });

  async function conversationWith(page: SandboxPage, accountId: string, customer: Customer) {
    const id = instagram
      ? `aWdfZAG${numericId(`conv:${accountId}:${customer.id}`, 20)}`
      : `t_${numericId(`conv:${accountId}:${customer.id}`, 16)}`;
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

  /** `POST /{page}/messages`: the Send API (and private replies). */
  router.add('POST', ':id/messages', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page, accountId } = accountOf(auth, path.id!, 'post');
    requireMessaging(auth);
    if (!auth.page) throw graphErrors.pagePublishing();
    const recipient = parseJsonParam(req.params.recipient);
    const message = parseJsonParam(req.params.message);
    if (!recipient) throw graphErrors.missingParam('recipient');
    if (!message) throw graphErrors.missingParam('message');
    const text = typeof message.text === 'string' ? message.text : '';
    if (!text.trim()) throw graphErrors.missingParam('message[text]');
    if (
      instagram
        ? Buffer.byteLength(text) > IG_TEXT_MAX_BYTES
        : [...text].length > MESSENGER_TEXT_MAX
    ) {
      throw graphErrors.invalidParam(
        instagram
          ? `(#100) Length of param message[text] must be less than or equal to ${IG_TEXT_MAX_BYTES} bytes`
          : `(#100) Length of param message[text] must be less than or equal to ${MESSENGER_TEXT_MAX}`,
      );
    }
    const now = await kit.now();
    let conversation: GraphConversation;
    let commentId: string | null = null;
    const tag = req.params.messaging_type === 'MESSAGE_TAG' ? (req.params.tag ?? null) : null;
    if (typeof recipient.comment_id === 'string') {
      commentId = recipient.comment_id;
      const comment = await objects.get(commentId);
      if (comment?.type !== 'comment' || !ownersOf(auth).has(comment.owner)) {
        throw graphErrors.notFound(commentId, 'post');
      }
      if (comment.fromId === comment.owner) {
        throw graphErrors.invalidParam('(#100) A Page cannot send a private reply to itself.');
      }
      if (now - comment.createdAt > PRIVATE_REPLY_MS) {
        throw new GraphFailure(
          400,
          10903,
          'This activity is older than 7 days: a private reply can no longer be sent.',
        );
      }
      if (await store.get('private_reply', commentId)) {
        throw new GraphFailure(
          400,
          10900,
          'Activity already replied to: only one private reply can be sent to a comment.',
        );
      }
      conversation = await conversationWith(page, accountId, {
        id: comment.fromId,
        name: comment.fromName,
      });
    } else {
      const id = typeof recipient.id === 'string' ? recipient.id : '';
      const found = (await objects.get(
        instagram
          ? `aWdfZAG${numericId(`conv:${accountId}:${id}`, 20)}`
          : `t_${numericId(`conv:${accountId}:${id}`, 16)}`,
      )) as GraphConversation | null;
      if (!id || found?.type !== 'conversation') {
        throw graphErrors.invalidParam('(#100) No matching user found', undefined, 2018001);
      }
      conversation = found;
      const since = conversation.lastInboundAt;
      const open = since !== null && now - since <= WINDOW_MS;
      const humanAgent =
        tag === 'HUMAN_AGENT' && since !== null && now - since <= HUMAN_AGENT_WINDOW_MS;
      if (!open && !humanAgent) throw windowClosed();
      if (await store.get('blocked', `${page.id}:${id}`)) {
        throw graphErrors.invalidParam(
          "(#551) This person isn't available right now.",
          undefined,
          1545041,
        );
      }
    }
    const sent = await addMessage(
      conversation,
      {
        fromId: accountId,
        fromName: accountName(page),
        toId: conversation.customerId,
        toName: conversation.customerName,
        text,
        attachments: [],
        viaApi: true,
        tag,
        commentId,
        deleted: false,
      },
      false,
    );
    if (commentId) await store.put('private_reply', commentId, { messageId: sent.id, at: now });
    queue(page, accountId, messagingEvent(sent, true));
    // finalize_timeout: the message is sent, the answer never arrives.
    return answerVisible(auth.scenario, {
      recipient_id: conversation.customerId,
      message_id: sent.id,
    });
  });

  // Webhook subscriptions of a Page (the Instagram account's webhooks come through its Page).
  router.add('GET', ':id/subscribed_apps', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page } = accountOf(auth, path.id!, 'get');
    const sub = await webhooks.subscription(page.id);
    const specs = parseFields(req.params.fields, 'id,name,subscribed_fields');
    const app = {
      // Meta's app id is the client id of the Login dialog.
      id: ctx.clientId,
      name: ctx.clientId,
      category: 'Business',
      link: `https://www.facebook.com/games/?app_id=${ctx.clientId}`,
      subscribed_fields: sub?.fields ?? [],
    };
    return { json: { data: sub ? [pickFields(app, specs, 'Application')] : [] } };
  });
  router.add('POST', ':id/subscribed_apps', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page } = accountOf(auth, path.id!, 'post');
    requireScope(auth, 'pages_manage_metadata');
    if (!auth.page) throw graphErrors.pagePublishing();
    const fields = (req.params.subscribed_fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0) throw graphErrors.missingParam('subscribed_fields');
    await webhooks.subscribe(page.id, fields);
    return { json: { success: true } };
  });
  router.add('DELETE', ':id/subscribed_apps', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page } = accountOf(auth, path.id!, 'delete');
    requireScope(auth, 'pages_manage_metadata');
    await webhooks.unsubscribe(page.id);
    return { json: { success: true } };
  });

  async function ownComment(req: GraphRequest, id: string, method: 'post' | 'delete') {
    const auth = await state.authenticate(req.token);
    const comment = await objects.get(id);
    if (comment?.type !== 'comment' || !ownersOf(auth).has(comment.owner)) {
      throw graphErrors.notFound(id, method);
    }
    return { auth, comment };
  }

  // Likes as the Page: Facebook only (Instagram's API cannot like a comment).
  router.add('POST', ':id/likes', async (req, path) => {
    const { auth, comment } = await ownComment(req, path.id!, 'post');
    if (comment.network !== 'facebook') throw graphErrors.unknownPath(`${path.id}/likes`);
    requireScope(auth, 'pages_manage_engagement');
    if (!auth.page) throw graphErrors.pagePublishing();
    if (!(await store.get('page_like', comment.id))) {
      await store.put('page_like', comment.id, { pageId: auth.page.id });
      await objects.put({ ...comment, likeCount: comment.likeCount + 1 });
    }
    return { json: { success: true } };
  });
  router.add('DELETE', ':id/likes', async (req, path) => {
    const { auth, comment } = await ownComment(req, path.id!, 'delete');
    if (comment.network !== 'facebook') throw graphErrors.unknownPath(`${path.id}/likes`);
    requireScope(auth, 'pages_manage_engagement');
    if (await store.get('page_like', comment.id)) {
      await store.delete('page_like', comment.id);
      await objects.put({ ...comment, likeCount: Math.max(0, comment.likeCount - 1) });
    }
    return { json: { success: true } };
  });

  if (!instagram) {
    // Blocking a person from the Page (`POST /{page}/blocked?user=PSID`).
    router.add('POST', ':id/blocked', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { page } = accountOf(auth, path.id!, 'post');
      if (!auth.page) throw graphErrors.pagePublishing();
      const user = req.params.user ?? req.params.psid ?? '';
      if (!user) throw graphErrors.missingParam('user');
      await store.put('blocked', `${page.id}:${user}`, { at: await kit.now() });
      return { json: { [user]: true } };
    });
    router.add('GET', ':id/blocked', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { page } = accountOf(auth, path.id!, 'get');
      const ids = (await store.list('blocked'))
        .map((e) => e.id)
        .filter((k) => k.startsWith(`${page.id}:`))
        .map((k) => ({ id: k.slice(page.id.length + 1) }));
      return { json: { data: ids } };
    });
  } else {
    // Media other accounts tagged this Instagram account in.
    router.add('GET', ':id/tags', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { accountId } = accountOf(auth, path.id!, 'get');
      requireScope(auth, 'instagram_basic');
      const tags = (await store.list<IgTag>(`tags:${accountId}`))
        .map((e) => e.data)
        .filter((t) => !t.commentId)
        .sort((a, b) => b.createdAt - a.createdAt);
      const { slice, paging } = paginate(ctx, req, `${accountId}/tags`, tags);
      const specs = parseFields(req.params.fields, 'id');
      const data = slice.map((t) =>
        pickFields(
          {
            id: t.id,
            caption: t.caption,
            media_type: 'IMAGE',
            media_product_type: 'FEED',
            permalink: `https://www.instagram.com/p/${t.id.slice(-10)}/`,
            timestamp: graphTime(t.createdAt),
            username: t.username,
            like_count: 0,
            comments_count: 0,
          },
          specs,
          'IGMedia',
        ),
      );
      return { json: { data, paging } };
    });
    // A reply to a mention: a comment on the other account's media (or under its comment).
    router.add('POST', ':id/mentions', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { accountId, page } = accountOf(auth, path.id!, 'post');
      requireScope(auth, 'instagram_manage_comments');
      const mediaId = req.params.media_id ?? '';
      if (!mediaId) throw graphErrors.missingParam('media_id');
      const message = req.params.message ?? '';
      if (!message.trim()) throw graphErrors.missingParam('message');
      const tag = await store.get<IgTag>(`tags:${accountId}`, mediaId);
      if (!tag) throw graphErrors.notFound(mediaId, 'post');
      const id = newNumericId(17);
      await store.put(`mention_replies:${accountId}`, id, {
        mediaId,
        commentId: req.params.comment_id ?? null,
        message,
        from: page.instagram!.username,
        createdAt: await kit.now(),
      });
      return { json: { id } };
    });
  }

  /** Test hooks: the "customer" side (docs/inbox.md#facebook-and-instagram). */
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
    findAccount,

    /** A customer writes to the Page or Instagram account; the webhook follows. */
    async customerMessage(input: {
      to: string;
      fromName: string;
      text: string;
      attachments?: Array<{ type: string; url: string }>;
    }) {
      const target = await findAccount(input.to);
      if (!target) return null;
      const customer = customerOf(target.accountId, input.fromName);
      const conversation = await conversationWith(target.page, target.accountId, customer);
      const m = await addMessage(
        conversation,
        {
          fromId: customer.id,
          fromName: customer.name,
          toId: target.accountId,
          toName: accountName(target.page),
          text: input.text,
          attachments: input.attachments ?? [],
          viaApi: false,
          tag: null,
          commentId: null,
          deleted: false,
        },
        true,
      );
      queue(target.page, target.accountId, messagingEvent(m, false));
      return { message: m, conversation };
    },

    /** Instagram: the customer unsends a message (same `mid`, `is_deleted`). */
    async unsend(messageId: string) {
      const m = await objects.get(messageId);
      if (m?.type !== 'message' || m.viaApi) return null;
      await objects.put({ ...m, deleted: true });
      const target = await findAccount(m.owner);
      if (target)
        queue(target.page, target.accountId, messagingEvent(m, false, { is_deleted: true }));
      return m;
    },

    /** A comment someone else wrote on one of the account's posts: the `feed`/`comments` webhook. */
    async commentAdded(comment: GraphComment) {
      const target = await findAccount(comment.owner);
      if (!target) return;
      if (comment.network === 'facebook') {
        webhooks.enqueue({
          object: 'page',
          entryId: target.accountId,
          pageId: target.page.id,
          keys: [target.accountId, target.page.id],
          change: {
            field: 'feed',
            value: {
              item: 'comment',
              verb: 'add',
              comment_id: comment.id,
              post_id: comment.root,
              parent_id: comment.parentId ?? comment.root,
              from: { id: comment.fromId, name: comment.fromName },
              message: comment.message,
              created_time: Math.floor(comment.createdAt / 1000),
              post: { id: comment.root, status_type: 'mobile_status_update' },
            },
          },
        });
      } else {
        webhooks.enqueue({
          object: 'instagram',
          entryId: target.accountId,
          pageId: target.page.id,
          keys: [target.accountId, target.page.id],
          change: {
            field: 'comments',
            value: {
              id: comment.id,
              from: { id: comment.fromId, username: comment.fromName },
              text: comment.message,
              media: { id: comment.root, media_product_type: 'FEED' },
              ...(comment.parentId ? { parent_id: comment.parentId } : {}),
            },
          },
        });
      }
    },

    /** Instagram: someone mentions the account in a caption (a tag) or in a comment. */
    async mention(input: { to: string; fromName: string; text: string; inComment: boolean }) {
      const target = await findAccount(input.to);
      if (!target || !instagram) return null;
      const tag: IgTag = {
        id: newNumericId(17),
        caption: input.text,
        username: input.fromName,
        createdAt: await kit.now(),
        commentId: input.inComment ? newNumericId(17) : null,
      };
      await store.put(`tags:${target.accountId}`, tag.id, tag);
      webhooks.enqueue({
        object: 'instagram',
        entryId: target.accountId,
        pageId: target.page.id,
        keys: [target.accountId, target.page.id],
        change: {
          field: 'mentions',
          value: { media_id: tag.id, ...(tag.commentId ? { comment_id: tag.commentId } : {}) },
        },
      });
      return tag;
    },

    /** Messages sent through the API, oldest first (what a test counts). */
    /** The messages the API sent from the accounts `owns` accepts (one account's, named). */
    async sentMessages(owns: (accountId: string) => boolean, accountRef?: string) {
      const target = accountRef ? await findAccount(accountRef) : null;
      if (accountRef && !target) return [];
      const out: GraphMessage[] = [];
      for (const entry of await store.list('node')) {
        const m = entry.data as GraphMessage;
        if (!owns(m.owner)) continue;
        if (m.type === 'message' && m.viaApi && (!target || m.owner === target.accountId))
          out.push(m);
      }
      return out.sort((a, b) => a.createdAt - b.createdAt);
    },
  };
}

interface Customer {
  id: string;
  name: string;
}

export type GraphMessaging = ReturnType<typeof addGraphMessaging>;

interface EmuInboxDeps {
  ctx: SandboxContext;
  network: 'Facebook' | 'Instagram';
  messaging: GraphMessaging;
  webhooks: WebhookSender;
  objects: PublishDeps['objects'];
  state: PublishDeps['state'];
  addVisitorComment(input: {
    postId: string;
    fromName: string;
    message: string;
  }): Promise<GraphComment | null>;
}

/**
 * Test-facing inbox hooks, under `{mount}/_emu/` (form posts from `GET /_emu/inbox`, the
 * "be a customer" page, go back to it):
 * - `POST /_emu/inbox/comments {postId, fromName, message}`: someone comments on a post (as
 *   `POST /_emu/comments`), with its webhook;
 * - `POST /_emu/inbox/messages {to, fromName, text, attachments?:[{type,url}]}`: a customer
 *   writes to a Page (Facebook sandbox) or an Instagram account (Instagram sandbox), named by
 *   id, Page name or username; `texts: [...]` sends several in one webhook batch;
 * - `POST /_emu/inbox/unsend {messageId}`: Instagram's unsend (`is_deleted`);
 * - `POST /_emu/inbox/mentions {to, fromName, text, inComment?}`: Instagram mention;
 * - `GET /_emu/inbox/sent[?account=]`: the messages the API sent, oldest first;
 * - `GET /_emu/webhooks` (deliveries), `POST /_emu/webhooks {callbackUrl|null}`,
 *   `POST /_emu/webhooks/flush {release?}` (waits for deliveries, then releases held ones
 *   unless `release: false`),
 *   `DELETE /_emu/webhooks` (forgets the log).
 * Comments come through the existing `POST /_emu/comments`, which now also sends the webhook.
 */
export function registerEmuInboxRoutes(scope: FastifyInstance, deps: EmuInboxDeps) {
  const { ctx, network, messaging, webhooks, objects } = deps;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  /** A form post from the page (`GET /_emu/inbox`) goes back to it with a sentence. */
  const fromPage = (request: FastifyRequest) =>
    (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const backToPage = (request: FastifyRequest, reply: FastifyReply, notice: string) => {
    const organizationId = emuTenant(request).organizationId;
    const forOrganization = organizationId
      ? `&organizationId=${encodeURIComponent(organizationId)}`
      : '';
    return reply.redirect(
      `${ctx.mountPath}/_emu/inbox?notice=${encodeURIComponent(notice)}${forOrganization}`,
      303,
    );
  };
  /** The account a reference names, when it is one of the caller's (else 404). */
  const ownedAccount = async (request: FastifyRequest, ref: string) => {
    const target = ref ? await messaging.findAccount(ref) : null;
    if (target && !emuTenant(request).owns(target.accountId)) throw notYours('account');
  };
  /** The post or comment an id names, when it is on one of the caller's accounts (else 404). */
  const ownedObject = async (request: FastifyRequest, id: string) => {
    const object = id ? await objects.get(id) : null;
    if (object && !emuTenant(request).owns(object.owner)) throw notYours('post or comment');
  };

  scope.get('/_emu/inbox', async (request, reply) => {
    const tenant = emuTenant(request);
    const notice = str((request.query as Record<string, unknown>).notice) || null;
    const users = await deps.state.listUsers();
    const seen = new Set<string>();
    const accounts: InboxPageAccount[] = [];
    const posts = await objects.listPosts({
      network: network === 'Instagram' ? 'instagram' : 'facebook',
    });
    for (const page of users.flatMap((u) => u.pages)) {
      const id = network === 'Instagram' ? page.instagram?.id : page.id;
      if (!id || seen.has(id) || !tenant.owns(id)) continue;
      seen.add(id);
      accounts.push({
        id,
        label: network === 'Instagram' ? `@${page.instagram!.username}` : page.name,
        posts: posts
          .filter((p) => p.account === id)
          .slice(0, 10)
          .map((p) => ({ id: p.id, text: p.text })),
      });
    }
    return reply.type('text/html; charset=utf-8').send(
      renderInboxPage({
        network,
        mountPath: ctx.mountPath,
        organizationId: tenant.organizationId,
        accounts,
        notice,
      }),
    );
  });

  scope.post('/_emu/inbox/comments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const postId = str(body.postId);
    const fromName = str(body.fromName).trim();
    const message = str(body.message);
    if (!postId || !fromName || !message.trim()) {
      return reply.status(400).send({ error: 'Send {postId, fromName, message}.' });
    }
    await ownedObject(request, postId);
    const comment = await deps.addVisitorComment({ postId, fromName, message });
    if (!comment) return reply.status(404).send({ error: `No post or comment ${postId}.` });
    await messaging.commentAdded(comment);
    if (fromPage(request)) return backToPage(request, reply, `${fromName} commented on the post.`);
    return reply.status(201).send({ id: comment.id, postId: comment.root });
  });

  scope.post('/_emu/inbox/messages', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const to = str(body.to);
    const fromName = str(body.fromName).trim();
    const texts = Array.isArray(body.texts) ? body.texts.map(str) : [str(body.text)];
    const attachments = Array.isArray(body.attachments)
      ? (body.attachments as Array<Record<string, unknown>>).map((a) => ({
          type: str(a.type) || 'image',
          url: str(a.url),
        }))
      : [];
    if (!to || !fromName || texts.every((t) => !t.trim() && attachments.length === 0)) {
      return reply.status(400).send({ error: 'Send {to, fromName, text} (or texts: [...]).' });
    }
    await ownedAccount(request, to);
    const sent = await webhooks.batch(async () => {
      const out = [];
      for (const text of texts) {
        const result = await messaging.customerMessage({ to, fromName, text, attachments });
        if (!result) return null;
        out.push(result);
      }
      return out;
    });
    if (!sent) return reply.status(404).send({ error: `No account ${to} in this sandbox.` });
    if (fromPage(request)) return backToPage(request, reply, `${fromName}'s message was sent.`);
    return reply.status(201).send({
      conversationId: sent[0]!.conversation.id,
      senderId: sent[0]!.message.fromId,
      messageIds: sent.map((s) => s.message.id),
    });
  });

  scope.post('/_emu/inbox/unsend', async (request, reply) => {
    const messageId = str((request.body as Record<string, unknown> | null)?.messageId);
    await ownedObject(request, messageId);
    const m = await messaging.unsend(messageId);
    if (!m) return reply.status(404).send({ error: `No customer message ${messageId}.` });
    return { messageId: m.id, deleted: true };
  });

  scope.post('/_emu/inbox/mentions', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await ownedAccount(request, str(body.to));
    const tag = await messaging.mention({
      to: str(body.to),
      fromName: str(body.fromName).trim() || 'someone',
      text: str(body.text),
      inComment: body.inComment === true,
    });
    if (!tag)
      return reply
        .status(404)
        .send({ error: 'Mentions exist on the Instagram sandbox, for a known account.' });
    if (fromPage(request))
      return backToPage(
        request,
        reply,
        `${str(body.fromName) || 'someone'} mentioned the account.`,
      );
    return reply.status(201).send({ mediaId: tag.id, commentId: tag.commentId });
  });

  scope.get('/_emu/inbox/sent', async (request) => {
    const tenant = emuTenant(request);
    const account = str((request.query as Record<string, unknown>).account) || undefined;
    const messages = await messaging.sentMessages((id) => tenant.owns(id), account);
    return {
      messages: messages.map((m) => ({
        id: m.id,
        conversationId: m.conversationId,
        to: m.toId,
        text: m.text,
        tag: m.tag,
        privateReplyTo: m.commentId,
        createdAt: new Date(m.createdAt).toISOString(),
      })),
    };
  });

  const ownedBy = (request: FastifyRequest) => {
    const tenant = emuTenant(request);
    return (accountId: string) => tenant.owns(accountId);
  };
  scope.get('/_emu/webhooks', async (request) => ({
    callbackUrl: webhooks.callbackUrl(),
    deliveries: await webhooks.deliveries(ownedBy(request)),
  }));
  // The app's callback, as the App Dashboard holds it: Herald's receiver is the only one taken
  // (null goes back to it).
  scope.post('/_emu/webhooks', async (request) => {
    const url = (request.body as Record<string, unknown> | null)?.callbackUrl;
    if (url !== null && url !== undefined && url !== '') requireHeraldReceiver(url, ctx, 'meta');
    return { callbackUrl: webhooks.callbackUrl() };
  });
  scope.post('/_emu/webhooks/flush', async (request) => {
    const owns = ownedBy(request);
    await webhooks.flush(owns, (request.body as Record<string, unknown> | null)?.release !== false);
    return { deliveries: (await webhooks.deliveries(owns)).length };
  });
  scope.delete('/_emu/webhooks', async (request) => {
    await webhooks.clearLog(ownedBy(request));
    return { ok: true };
  });
}
