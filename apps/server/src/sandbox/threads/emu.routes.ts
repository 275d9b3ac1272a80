import type { FastifyInstance } from 'fastify';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { handleOf } from '../kit/html.js';
import { randomDigits } from '../kit/secrets.js';
import { emuTenant, type EmuTenant, notYours } from '../kit/tenant.js';
import {
  graphTime,
  newShortcode,
  permalinkOf,
  type ThreadsMedia,
  type ThreadsMediaState,
} from './media-state.js';
import { THREADS_PUBLISHING } from './responses.js';
import { threadsTextLength } from './graph.js';

/** Whether a post or reply is in a thread one of the tenant's accounts started or wrote in. */
export async function ownsMedia(tenant: EmuTenant, state: ThreadsMediaState, media: ThreadsMedia) {
  if (tenant.owns(media.accountId)) return true;
  const root = media.rootId === media.id ? null : await state.getMedia(media.rootId);
  return tenant.owns(root?.accountId);
}

/**
 * The Threads emulator's test-facing publishing side (docs/networks.md#scenario-knobs assertions API):
 * - `GET /_emu/posts[?account=]` — every post actually published (not replies), oldest first;
 * - `POST /_emu/comments {postId, fromName, message}` — someone else replies to a post or reply.
 */
export function registerThreadsEmuRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  state: ThreadsMediaState,
) {
  scope.get('/_emu/posts', async (request) => {
    const tenant = emuTenant(request);
    const query = (request.query as { account?: unknown }).account;
    const ref = typeof query === 'string' ? query : '';
    const account = ref ? await oauth.findAccount(ref) : null;
    if (ref && !account) return { posts: [] };
    const posts = (await state.allMedia())
      .filter((m) => m.accountId && !m.repliedToId && !m.deleted && tenant.owns(m.accountId))
      .filter((m) => !account || m.accountId === account.id)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((m) => ({
        id: m.id,
        account: m.username,
        accountId: m.accountId,
        text: m.text,
        mediaType: m.mediaType,
        mediaCount: m.mediaCount,
        altTexts: m.altTexts ?? [],
        permalink: permalinkOf(m),
        createdAt: new Date(m.createdAt).toISOString(),
        replies: m.replyCount,
      }));
    return { posts };
  });

  scope.post('/_emu/comments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { postId, fromName, message } = body;
    if (typeof postId !== 'string' || typeof message !== 'string' || !message.trim())
      return reply.status(400).send({ error: 'postId and a non-empty message are required.' });
    if (threadsTextLength(message) > THREADS_PUBLISHING.textMax)
      return reply.status(400).send({ error: 'message is longer than Threads allows.' });
    const parent = await state.getMedia(postId);
    if (!parent || parent.deleted)
      return reply.status(404).send({ error: 'No published post or reply has this id.' });
    if (!(await ownsMedia(emuTenant(request), state, parent))) throw notYours('post');
    const name = typeof fromName === 'string' && fromName.trim() ? fromName.trim() : 'Threads Fan';
    const id = randomDigits(17);
    const media: ThreadsMedia = {
      id,
      accountId: null,
      username: handleOf(name, 'threads_fan', Infinity, '.'),
      name,
      mediaType: 'TEXT_POST',
      text: message,
      mediaCount: 0,
      shortcode: newShortcode(),
      createdAt: await oauth.now(),
      rootId: parent.rootId,
      repliedToId: parent.id,
      replyCount: 0,
      hidden: false,
      deleted: false,
    };
    await state.addMedia(media, parent);
    return reply.status(201).send({
      id,
      username: media.username,
      text: message,
      timestamp: graphTime(media.createdAt),
      replied_to: { id: parent.id },
      root_post: { id: parent.rootId },
    });
  });
}
