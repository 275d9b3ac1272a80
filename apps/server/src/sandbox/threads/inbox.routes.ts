import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { requireHeraldReceiver } from '../kit/herald-receiver.js';
import { handleOf } from '../kit/html.js';
import { emuTenant, notYours, requireSharedControl } from '../kit/tenant.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import {
  graphAccess,
  pageLink,
  pageOf,
  pickFields,
  requestedFields,
  sameUser,
  threadsTextLength,
} from './graph.js';
import {
  graphTime,
  newShortcode,
  permalinkOf,
  type ThreadsMedia,
  type ThreadsMediaState,
} from './media-state.js';
import { ownsMedia } from './emu.routes.js';
import { mediaFields } from './media.routes.js';
import { THREADS_PUBLISHING } from './responses.js';

/**
 * The Threads emulator's inbox (docs/inbox.md#threads-sandbox): `GET /{user}/mentions`
 * (`threads_manage_mentions`, `since`/`until` in Unix seconds), and webhook deliveries in Threads'
 * envelope (`values.value`, `field` replies or mentions) signed `X-Hub-Signature-256` with the
 * app secret. The callback is what the App Dashboard would hold: set with
 * `POST /_emu/webhooks {callbackUrl, verifyToken}`, which runs Meta's GET handshake first; the
 * sandbox app is every organization's, so the only callback it takes is Herald's own receiver,
 * set by a platform operator.
 * Knobs per account: `webhook_duplicate`, `webhook_out_of_order` (each delivery is held until
 * `POST /_emu/inbox/flush`, which sends the held ones newest first), `webhook_bad_signature`,
 * `webhook_disabled`.
 * Customer hooks: `POST /_emu/inbox/reply {postId, fromName, text}` and
 * `POST /_emu/inbox/mention {account, fromName, text}`; each answers `deliveries[].status`.
 */
export const THREADS_WEBHOOK_KNOBS = [
  'webhook_duplicate',
  'webhook_out_of_order',
  'webhook_bad_signature',
  'webhook_disabled',
] as const;

interface Callback {
  url: string;
  verifyToken: string;
}

/** A signed delivery `webhook_out_of_order` holds back until the flush. */
interface HeldDelivery {
  /** The account the event was for: only its organization releases it. */
  accountId?: string;
  heldAt: number;
  seq: number;
  body: string;
  signature: string;
  copies: number;
}
let heldSeq = 0;

const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export function registerThreadsInboxRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  state: ThreadsMediaState,
) {
  scope.get<{ Params: { user: string } }>('/v1.0/:user/mentions', async (request, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_manage_mentions');
    if (!access || !sameUser(reply, access, request.params.user)) return reply;
    const query = request.query as Record<string, unknown>;
    const handle = `@${access.account.username.toLowerCase()}`;
    const since = Number(query.since) * 1000 || 0;
    const until = Number(query.until) * 1000 || Infinity;
    const mentions = (await state.allMedia())
      .filter((m) => !m.deleted && m.accountId !== access.account.id)
      .filter((m) => m.text.toLowerCase().includes(handle))
      .filter((m) => m.createdAt >= since && m.createdAt <= until)
      .sort((a, b) => b.createdAt - a.createdAt);
    const page = pageOf(mentions, query, pageLink(ctx, request));
    const fields = requestedFields(query, ['id']);
    const data = [];
    for (const m of page.items) {
      const picked = pickFields(reply, mediaFields(m, access.account.id), fields, 'ThreadsMedia');
      if (!picked) return reply;
      data.push(picked);
    }
    return { data, paging: page.paging };
  });

  async function deliver(accountId: string, field: 'replies' | 'mentions', media: ThreadsMedia) {
    const callback = await ctx.store.get<Callback>('th_webhook', 'app');
    if (!callback) return [];
    const scenario = await oauth.scenarios.read([accountId]);
    if (scenario.isOn('webhook_disabled')) return [];
    const root = field === 'replies' ? await state.getMedia(media.rootId) : null;
    const body = JSON.stringify({
      app_id: ctx.clientId,
      topic: field === 'replies' ? 'moderate' : 'interaction',
      target_id: accountId,
      time: Math.floor((await oauth.now()) / 1000),
      subscription_id: randomDigits(15),
      has_uid_field: false,
      values: {
        value: {
          id: media.id,
          username: media.username,
          text: media.text,
          media_type: media.mediaType,
          permalink: permalinkOf(media),
          shortcode: media.shortcode,
          timestamp: graphTime(media.createdAt),
          ...(field === 'replies'
            ? {
                replied_to: { id: media.repliedToId },
                root_post: {
                  id: media.rootId,
                  owner_id: root?.accountId,
                  username: root?.username,
                },
              }
            : {}),
        },
        field,
      },
    });
    const signature = scenario.isOn('webhook_bad_signature')
      ? sign(`${ctx.clientSecret}-wrong`, body)
      : sign(ctx.clientSecret, body);
    const copies = scenario.isOn('webhook_duplicate') ? 2 : 1;
    if (scenario.isOn('webhook_out_of_order')) {
      const held: HeldDelivery = {
        accountId,
        heldAt: Date.now(),
        seq: ++heldSeq,
        body,
        signature,
        copies,
      };
      await ctx.store.put('th_held', `${held.heldAt}-${held.seq}`, held);
      return [{ status: 'held' as const }];
    }
    return send(callback.url, body, signature, copies);
  }

  async function send(url: string, body: string, signature: string, copies: number) {
    const results: Array<{ status: number | null }> = [];
    for (let i = 0; i < copies; i++) {
      try {
        const res = await ctx.deliver(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        results.push({ status: res.status });
      } catch {
        results.push({ status: null });
      }
    }
    return results;
  }

  // The held deliveries of the caller's accounts, newest first (what arrived last is delivered
  // first).
  scope.post('/_emu/inbox/flush', async (request) => {
    const tenant = emuTenant(request);
    const callback = await ctx.store.get<Callback>('th_webhook', 'app');
    const held = (await ctx.store.list<HeldDelivery>('th_held'))
      .map((r) => ({ id: r.id, ...r.data }))
      .filter((d) => tenant.owns(d.accountId))
      .sort((a, b) => b.heldAt - a.heldAt || b.seq - a.seq);
    const deliveries: Array<{ status: number | null }> = [];
    for (const d of held) {
      await ctx.store.delete('th_held', d.id);
      if (callback) deliveries.push(...(await send(callback.url, d.body, d.signature, d.copies)));
    }
    return { deliveries };
  });

  // The app has one callback for every organization's accounts, as X's app has one webhook.
  scope.post('/_emu/webhooks', async (request, reply) => {
    requireSharedControl(emuTenant(request), "The sandbox app's webhook");
    const body = (request.body ?? {}) as Record<string, unknown>;
    const url = typeof body.callbackUrl === 'string' ? body.callbackUrl : '';
    const verifyToken = typeof body.verifyToken === 'string' ? body.verifyToken : '';
    if (!/^https?:\/\//.test(url) || !verifyToken)
      return reply.status(400).send({ error: 'Send {callbackUrl, verifyToken}.' });
    requireHeraldReceiver(url, ctx, 'threads');
    const challenge = randomBytes(8).readUInt32BE(0).toString();
    const check = new URL(url);
    check.searchParams.set('hub.mode', 'subscribe');
    check.searchParams.set('hub.challenge', challenge);
    check.searchParams.set('hub.verify_token', verifyToken);
    const answer = await ctx
      .deliver(check, { signal: AbortSignal.timeout(10_000) })
      .then(async (res) => (res.status === 200 ? (await res.text()).trim() : null))
      .catch(() => null);
    if (answer !== challenge)
      return reply
        .status(400)
        .send({ error: 'The callback URL could not be validated: it did not echo hub.challenge.' });
    await ctx.store.put('th_webhook', 'app', { url, verifyToken } satisfies Callback);
    return { success: true };
  });

  const person = (fromName: string) => ({
    name: fromName,
    username: handleOf(fromName, 'threads_fan', Infinity, '.'),
  });

  async function create(
    fromName: string,
    text: string,
    parent: ThreadsMedia | null,
  ): Promise<ThreadsMedia> {
    const id = randomDigits(17);
    const media: ThreadsMedia = {
      id,
      accountId: null,
      ...person(fromName),
      mediaType: 'TEXT_POST',
      text,
      mediaCount: 0,
      shortcode: newShortcode(),
      createdAt: await oauth.now(),
      rootId: parent ? parent.rootId : id,
      repliedToId: parent?.id ?? null,
      replyCount: 0,
      hidden: false,
      deleted: false,
    };
    await state.addMedia(media, parent);
    return media;
  }

  const read = (raw: unknown) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    return {
      account: str(b.account),
      fromName: str(b.fromName),
      text: str(b.text),
      postId: str(b.postId),
    };
  };

  scope.post('/_emu/inbox/reply', async (request, reply) => {
    const input = read(request.body);
    const parent = input.postId ? await state.getMedia(input.postId) : null;
    if (parent && !(await ownsMedia(emuTenant(request), state, parent))) throw notYours('post');
    if (!parent || parent.deleted || !input.fromName || !input.text)
      return reply.status(400).send({ error: 'Send {postId, fromName, text} of a live post.' });
    if (threadsTextLength(input.text) > THREADS_PUBLISHING.textMax)
      return reply.status(400).send({ error: 'text is longer than Threads allows.' });
    const media = await create(input.fromName, input.text, parent);
    const root = await state.getMedia(media.rootId);
    const deliveries = root?.accountId ? await deliver(root.accountId, 'replies', media) : [];
    return reply
      .status(201)
      .send({ id: media.id, username: media.username, rootId: media.rootId, deliveries });
  });

  scope.post('/_emu/inbox/mention', async (request, reply) => {
    const input = read(request.body);
    const account = input.account ? await oauth.findAccount(input.account) : null;
    if (account && !emuTenant(request).owns(account.id)) throw notYours('account');
    if (!account || !input.fromName)
      return reply
        .status(400)
        .send({ error: 'Send {account, fromName, text} of a connected account.' });
    const media = await create(input.fromName, `@${account.username} ${input.text}`.trim(), null);
    const deliveries = await deliver(account.id, 'mentions', media);
    return reply.status(201).send({ id: media.id, username: media.username, deliveries });
  });

  scope.get('/_emu/inbox/media/:id', async (request, reply) => {
    const media = await state.getMedia((request.params as { id: string }).id);
    if (!media || !(await ownsMedia(emuTenant(request), state, media)))
      return reply.status(404).send({ error: 'No such media.' });
    return { id: media.id, hidden: media.hidden, deleted: media.deleted, text: media.text };
  });
}
