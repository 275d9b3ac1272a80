import { GraphFailure } from './errors.js';
import { wholeByDefault } from './fields.js';
import { graphTime, type GraphConversation, type GraphMessage } from './objects.js';
import type { MessagingCore } from './messaging-core.js';

/** How the Graph emulator renders a conversation and a message node (fields, as Meta names them). */
export function addMessagingViews(core: MessagingCore) {
  const {
    views,
    state,
    instagram,
    messageIdsOf,
    objects,
    accountName,
    personRef,
    readableMessage,
  } = core;

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
        // Messenger names each participant ({name, email, id}), Instagram by username.
        participants: wholeByDefault({
          data: [personRef(c.customerId, c.customerName), personRef(c.owner, ownName)],
        }),
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
}
