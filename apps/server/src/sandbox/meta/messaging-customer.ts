import { newNumericId, type GraphComment, type GraphMessage } from './objects.js';
import type { IgTag, MessagingCore } from './messaging-core.js';

/** Test hooks: the "customer" side (docs/inbox.md#facebook-and-instagram). */
export function messagingCustomerHooks(core: MessagingCore) {
  const {
    kit,
    store,
    objects,
    webhooks,
    instagram,
    findAccount,
    customerOf,
    conversationWith,
    addMessage,
    accountName,
    messagingEvent,
    queue,
  } = core;

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
