import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { avatarDataUrl } from '../kit/consent.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import {
  badParam,
  graphAccess,
  type GraphAccess,
  missingObject,
  pageLink,
  pageOf,
  pickFields,
  requestedFields,
} from './graph.js';
import {
  containerStatus,
  graphTime,
  permalinkOf,
  type ThreadsMedia,
  type ThreadsMediaState,
} from './media-state.js';
import { fieldsOf } from './responses.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** Every field a Threads media (post or reply) can answer, as seen by `viewer` (docs/networks.md#threads-publishing, #threads-comments). */
export function mediaFields(m: ThreadsMedia, viewer: string): Record<string, unknown> {
  const isReply = m.repliedToId !== null;
  return {
    id: m.id,
    media_product_type: 'THREADS',
    media_type: m.mediaType,
    media_url: undefined,
    // The emulator keeps no picture of a post's media.
    thumbnail_url: undefined,
    permalink: permalinkOf(m),
    owner: m.accountId ? { id: m.accountId } : undefined,
    username: m.username,
    text: m.text || undefined,
    timestamp: graphTime(m.createdAt),
    shortcode: m.shortcode,
    is_quote_post: false,
    has_replies: m.replyCount > 0,
    root_post: isReply ? { id: m.rootId } : undefined,
    replied_to: isReply ? { id: m.repliedToId } : undefined,
    is_reply: isReply,
    is_reply_owned_by_me: isReply ? m.accountId === viewer : undefined,
    hide_status: isReply ? (m.hidden ? 'HIDDEN' : 'NOT_HUSHED') : undefined,
    reply_audience: 'EVERYONE',
    profile_picture_url: avatarDataUrl(m.name, 0),
  };
}

const REPLY_DEFAULT_FIELDS = ['id', 'text', 'timestamp'];

/**
 * Reading and managing Threads media (docs/networks.md#threads-publishing, #threads-comments, #threads-sandbox): `GET /{id}` (a container's status or a
 * media's fields), `DELETE /{id}` (own posts and replies, scope threads_delete),
 * `GET /{id}/replies` and `/{id}/conversation`, `POST /{reply}/manage_reply`.
 */
export function registerThreadsMediaRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  state: ThreadsMediaState,
) {
  scope.get('/v1.0/:id', async (request: IdRequest, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_basic');
    if (!access) return reply;
    const { id } = request.params;
    const fields = requestedFields(request.query, ['id']);
    const wantsStatus = fields.includes('status') || fields.includes('error_message');
    const container = wantsStatus ? await state.getContainer(id) : null;
    if (container && container.accountId === access.account.id) {
      const status = containerStatus(container, access.now);
      const available = {
        id,
        status,
        error_message: status === 'ERROR' ? (container.errorMessage ?? 'UNKNOWN') : undefined,
      };
      return pickFields(reply, available, fields, 'ThreadsMediaContainer') ?? reply;
    }
    const media = await state.getMedia(id);
    if (!media || media.deleted) return missingObject(reply, id);
    return (
      pickFields(reply, mediaFields(media, access.account.id), fields, 'ThreadsMedia') ?? reply
    );
  });

  scope.delete('/v1.0/:id', async (request: IdRequest, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_delete');
    if (!access) return reply;
    const media = await state.getMedia(request.params.id);
    if (!media || media.deleted || media.accountId !== access.account.id)
      return missingObject(reply, request.params.id, 'delete');
    await state.deleteMedia(media);
    return { success: true, deleted_id: media.id };
  });

  /** Direct replies (`replies`) or the whole tree under a media, flattened (`conversation`). */
  async function listReplies(request: IdRequest, reply: FastifyReply, whole: boolean) {
    const access = await graphAccess(request, reply, oauth, 'threads_read_replies');
    if (!access) return reply;
    const root = await state.getMedia(request.params.id);
    if (!root || root.deleted) return missingObject(reply, request.params.id);
    const replies = whole ? await descendants(root.id) : await directReplies(root.id);
    const query = request.query as Record<string, unknown>;
    // `reverse` (default true) puts the newest first.
    if (query.reverse !== 'false') replies.reverse();
    const page = pageOf(replies, query, pageLink(ctx, request));
    const fields = requestedFields(query, REPLY_DEFAULT_FIELDS);
    const data = [];
    for (const m of page.items) {
      const picked = pickFields(reply, mediaFields(m, access.account.id), fields, 'ThreadsMedia');
      if (!picked) return reply;
      data.push(picked);
    }
    return { data, paging: page.paging };
  }

  async function directReplies(id: string): Promise<ThreadsMedia[]> {
    const found = await Promise.all((await state.replyIds(id)).map((r) => state.getMedia(r)));
    return found.filter((m): m is ThreadsMedia => m !== null && !m.deleted);
  }

  /** Every reply under a media, oldest first. */
  async function descendants(id: string): Promise<ThreadsMedia[]> {
    const all: ThreadsMedia[] = [];
    let level = await directReplies(id);
    while (level.length) {
      all.push(...level);
      const next = await Promise.all(
        level.filter((m) => m.replyCount > 0).map((m) => directReplies(m.id)),
      );
      level = next.flat();
    }
    return all.sort((a, b) => a.createdAt - b.createdAt);
  }

  scope.get('/v1.0/:id/replies', (request: IdRequest, reply) => listReplies(request, reply, false));
  scope.get('/v1.0/:id/conversation', (request: IdRequest, reply) =>
    listReplies(request, reply, true),
  );

  /** Hides or shows a top-level reply to one of the account's posts. */
  scope.post('/v1.0/:id/manage_reply', async (request: IdRequest, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_manage_replies');
    if (!access) return reply;
    const target = await state.getMedia(request.params.id);
    const root = target?.repliedToId ? await state.getMedia(target.rootId) : null;
    if (!target || target.deleted || !root || !isOwnTopLevelReply(access, target, root))
      return missingObject(reply, request.params.id, 'post');
    const hide = fieldsOf(request.query, request.body).hide;
    if (hide !== 'true' && hide !== 'false')
      return badParam(reply, 'Param hide must be a boolean.');
    await state.updateMedia(target.id, (m) => ({ ...m, hidden: hide === 'true' }));
    return { success: true };
  });
}

function isOwnTopLevelReply(access: GraphAccess, reply: ThreadsMedia, root: ThreadsMedia) {
  return reply.repliedToId === root.id && root.accountId === access.account.id;
}
