import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { sleep } from '../kit/call-knobs.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import {
  badParam,
  graphAccess,
  type GraphAccess,
  pageLink,
  pageOf,
  pickFields,
  requestedFields,
  sameUser,
} from './graph.js';
import { mediaFields } from './media.routes.js';
import {
  containerStatus,
  newShortcode,
  type ThreadsContainer,
  type ThreadsMedia,
  type ThreadsMediaState,
} from './media-state.js';
import { fieldsOf, graphError, THREADS_PUBLISHING } from './responses.js';

const MEDIA_TYPE_OF = {
  TEXT: 'TEXT_POST',
  IMAGE: 'IMAGE',
  VIDEO: 'VIDEO',
  CAROUSEL: 'CAROUSEL_ALBUM',
} as const;

/**
 * Threads publishing (docs/networks.md#threads-publishing, #threads-sandbox): `POST /{user}/threads_publish` is the one
 * visible call (it counts against the 24 h quotas, and with `finalize_timeout` commits and then
 * hangs), `GET /{user}/threads_publishing_limit` reads the quotas and `GET /{user}/threads`
 * lists the account's posts (what reconciliation reads).
 */
export function registerThreadsPublishingRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  state: ThreadsMediaState,
) {
  scope.post<{ Params: { user: string } }>(
    '/v1.0/:user/threads_publish',
    async (request, reply) => {
      const access = await graphAccess(request, reply, oauth, 'threads_content_publish');
      if (!access || !sameUser(reply, access, request.params.user)) return reply;
      const f = fieldsOf(request.query, request.body);
      if (!f.creation_id) return badParam(reply, 'The parameter creation_id is required.');
      return publish(reply, access, f.creation_id);
    },
  );

  async function publish(reply: FastifyReply, access: GraphAccess, creationId: string) {
    // One publish at a time per account: the container and the quota are read and written
    // together, so a container is never published twice and no use of the quota is lost.
    const outcome = await state.lock(`publish:${access.account.id}`, () =>
      publishNow(access, creationId),
    );
    if ('error' in outcome) return graphError(reply, 400, outcome.error);
    const hangMs = (await access.scenario.takeValue('finalize_timeout')) ?? undefined;
    if (hangMs !== undefined) {
      // The post is out; the answer never makes it back in time (docs/networks.md#scenario-knobs finalize_timeout).
      await sleep(hangMs);
      return graphError(reply, 504, {
        message: 'The request timed out.',
        code: 2,
        is_transient: true,
      });
    }
    return { id: outcome.media.id };
  }

  async function publishNow(access: GraphAccess, creationId: string) {
    const container = await state.getContainer(creationId);
    if (!container || container.accountId !== access.account.id)
      return refusal(`Param creation_id ${creationId} is not a container of this user.`);
    if (container.isCarouselItem)
      return refusal('A carousel item is published through its carousel.');
    const now = access.now;
    const status = statusRefusal(containerStatus(container, now), container);
    if (status) return { error: status };
    const isReply = container.replyToId !== null;
    const quota = await state.quota(access.account.id, now);
    const used = isReply ? quota.replies : quota.posts;
    const cap =
      access.scenario.value('publish_cap') ??
      (isReply ? THREADS_PUBLISHING.repliesPer24h : THREADS_PUBLISHING.postsPer24h);
    if (used.length >= cap)
      return {
        error: {
          message: `You have reached the maximum number of ${isReply ? 'replies' : 'posts'} that is allowed in 24 hours.`,
          code: 4,
          error_subcode: 2207042,
        },
      };
    const media = await commit(access, container, now);
    used.push(now);
    await state.saveQuota(access.account.id, quota);
    return { media };
  }

  async function commit(access: GraphAccess, container: ThreadsContainer, now: number) {
    const parent = container.replyToId ? await state.getMedia(container.replyToId) : null;
    const id = randomDigits(17);
    const items =
      container.mediaType === 'CAROUSEL'
        ? await Promise.all(container.children.map((child) => state.getContainer(child)))
        : [container];
    const media: ThreadsMedia = {
      id,
      accountId: access.account.id,
      username: access.account.username,
      name: access.account.name,
      mediaType: MEDIA_TYPE_OF[container.mediaType],
      text: container.text,
      mediaCount:
        container.mediaType === 'CAROUSEL'
          ? container.children.length
          : container.mediaType === 'TEXT'
            ? 0
            : 1,
      altTexts: container.mediaType === 'TEXT' ? [] : items.map((item) => item?.altText ?? null),
      shortcode: newShortcode(),
      createdAt: now,
      rootId: parent ? parent.rootId : id,
      repliedToId: parent?.id ?? null,
      replyCount: 0,
      hidden: false,
      deleted: false,
    };
    await state.addMedia(media, parent);
    await state.putContainer({ ...container, publishedId: id });
    return media;
  }

  scope.get<{ Params: { user: string } }>(
    '/v1.0/:user/threads_publishing_limit',
    async (request, reply) => {
      const access = await graphAccess(request, reply, oauth, 'threads_basic');
      if (!access || !sameUser(reply, access, request.params.user)) return reply;
      const quota = await state.quota(access.account.id, access.now);
      const cap = access.scenario.value('publish_cap');
      const available = {
        id: undefined,
        quota_usage: quota.posts.length,
        config: { quota_total: cap ?? THREADS_PUBLISHING.postsPer24h, quota_duration: 86_400 },
        reply_quota_usage: quota.replies.length,
        reply_config: {
          quota_total: cap ?? THREADS_PUBLISHING.repliesPer24h,
          quota_duration: 86_400,
        },
      };
      const picked = pickFields(
        reply,
        available,
        requestedFields(request.query, ['quota_usage']),
        'ThreadsPublishingLimit',
      );
      if (!picked) return reply;
      delete picked.id;
      return { data: [picked] };
    },
  );

  scope.get<{ Params: { user: string } }>('/v1.0/:user/threads', async (request, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_basic');
    if (!access || !sameUser(reply, access, request.params.user)) return reply;
    const query = request.query as Record<string, unknown>;
    const page = pageOf(await state.feedIds(access.account.id), query, pageLink(ctx, request));
    const fields = requestedFields(query, ['id']);
    const data = [];
    for (const id of page.items) {
      const media = await state.getMedia(id);
      if (!media || media.deleted) continue;
      const picked = pickFields(
        reply,
        mediaFields(media, access.account.id),
        fields,
        'ThreadsMedia',
      );
      if (!picked) return reply;
      data.push(picked);
    }
    return { data, paging: page.paging };
  });
}

const refusal = (message: string) => ({ error: { message: `(#100) ${message}`, code: 100 } });

function statusRefusal(status: string, container: ThreadsContainer) {
  if (status === 'FINISHED') return null;
  if (status === 'IN_PROGRESS')
    return {
      message: 'The media is not ready for publishing, please wait for a moment.',
      code: 9007,
      error_subcode: 2207027,
    };
  if (status === 'PUBLISHED')
    return { message: '(#100) This container has already been published.', code: 100 };
  if (status === 'EXPIRED')
    return { message: '(#100) This container has expired. Create a new one.', code: 100 };
  return {
    message: `(#100) The container failed processing: ${container.errorMessage ?? 'UNKNOWN'}.`,
    code: 100,
  };
}
