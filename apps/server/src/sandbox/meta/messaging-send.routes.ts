import { GraphFailure, graphErrors } from './errors.js';
import { answerVisible } from './helpers.js';
import { ownersOf, type GraphConversation } from './objects.js';
import {
  HUMAN_AGENT_WINDOW_MS,
  IG_TEXT_MAX_BYTES,
  MESSENGER_TEXT_MAX,
  PRIVATE_REPLY_MS,
  WINDOW_MS,
  parseJsonParam,
  windowClosed,
  type MessagingCore,
} from './messaging-core.js';
import type { GraphRouter } from './router.js';

/** The Send API: replies within the messaging window, tagged human-agent replies, private replies. */
export function addMessagingSend(router: GraphRouter, core: MessagingCore) {
  const {
    kit,
    state,
    objects,
    store,
    instagram,
    accountOf,
    requireMessaging,
    accountName,
    conversationIdOf,
    conversationWith,
    addMessage,
    messagingEvent,
    queue,
  } = core;

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
        conversationIdOf(accountId, id),
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
}
