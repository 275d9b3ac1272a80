import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { requireHeraldReceiver } from '../kit/herald-receiver.js';
import { emuTenant, notYours } from '../kit/tenant.js';
import type { PublishDeps } from './helpers.js';
import { renderInboxPage, type InboxPageAccount } from './inbox-page.js';
import type { GraphMessaging } from './messaging.js';
import type { GraphComment } from './objects.js';
import type { WebhookSender } from './webhook-sender.js';

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
