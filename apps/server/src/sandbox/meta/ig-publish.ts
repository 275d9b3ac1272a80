import { graphErrors } from './errors.js';
import { parseFields, pickFields } from './fields.js';
import {
  answerVisible,
  paginate,
  requireScope,
  wants,
  type ObjectView,
  type PublishDeps,
} from './helpers.js';
import {
  buildContainer,
  containerStatus,
  mediaFrom,
  postKind,
  publishable,
} from './ig-containers.js';
import { graphTime, withLock, type IgContainer, type IgMedia } from './objects.js';
import type { GraphRequest, GraphRouter } from './router.js';
import type { Authenticated } from './state.js';

/** The publishing cap when no `publish_cap` knob is set (docs/networks.md#instagram-publishing: "currently 50"). */
const DEFAULT_PUBLISH_QUOTA = 50;
const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

function instagramOf(auth: Authenticated, igUserId: string, method: 'get' | 'post') {
  const pages = auth.page ? [auth.page] : auth.user.pages;
  const page = pages.find((p) => p.instagram?.id === igUserId);
  if (!page?.instagram) throw graphErrors.notFound(igUserId, method);
  return page.instagram;
}

/** Instagram containers, their status, `media_publish`, the cap and the media nodes (docs/networks.md#instagram-publishing). */
export function addInstagramPublishing(router: GraphRouter, deps: PublishDeps) {
  const { ctx, kit, state, objects, views } = deps;

  async function createContainer(req: GraphRequest, igUserId: string) {
    const auth = await state.authenticate(req.token, [igUserId]);
    const ig = instagramOf(auth, igUserId, 'post');
    requireScope(auth, 'instagram_content_publish');
    const container = await buildContainer({
      params: req.params,
      owner: ig.id,
      now: await kit.now(),
      scenario: auth.scenario,
      objects,
      runsLocally: ctx.runsLocally,
      fetchMedia: ctx.fetchMedia,
    });
    await objects.put(container);
    return { json: { id: container.id } };
  }

  /** The visible call: one at a time per account, so a container and a quota slot go once. */
  async function publish(req: GraphRequest, igUserId: string) {
    const auth = await state.authenticate(req.token, [igUserId]);
    const ig = instagramOf(auth, igUserId, 'post');
    requireScope(auth, 'instagram_content_publish');
    const creationId = req.params.creation_id;
    if (!creationId) throw graphErrors.missingParam('creation_id');
    const media = await withLock(`publish:${ig.id}`, async () => {
      const now = await kit.now();
      const container = publishable(await objects.get(creationId), creationId, ig.id, now);
      const quota = await readQuota(ig.id, now);
      const total = auth.scenario.number('publish_cap') || DEFAULT_PUBLISH_QUOTA;
      if (quota.length >= total) throw graphErrors.publishLimit(total);
      const made = mediaFrom(container, ig, now);
      await objects.put(made);
      await objects.put({ ...container, publishedAs: made.id });
      await ctx.store.put('quota', ig.id, { times: [...quota, now] });
      const items = container.children.length
        ? await Promise.all(container.children.map((id) => objects.get(id)))
        : [container];
      const altTexts = items.map((item) =>
        item?.type === 'ig_container' && !item.video ? (item.altText ?? null) : null,
      );
      await objects.recordPost({
        id: made.id,
        network: 'instagram',
        account: ig.id,
        accountName: ig.username,
        kind: postKind(container.mediaType),
        text: made.caption,
        mediaCount: made.mediaCount,
        createdAt: now,
        permalink: made.permalink,
        altTexts,
      });
      return made;
    });
    return answerVisible(auth.scenario, { id: media.id });
  }

  async function readQuota(igUserId: string, now: number) {
    const record = await ctx.store.get<{ times: number[] }>('quota', igUserId);
    return (record?.times ?? []).filter((t) => now - t < QUOTA_WINDOW_MS);
  }

  async function mediaUrlOf(m: IgMedia): Promise<string | undefined> {
    const container = await objects.get(m.containerId);
    if (container?.type !== 'ig_container') return undefined;
    if (container.mediaUrl) return container.mediaUrl;
    const first = container.children[0] ? await objects.get(container.children[0]) : null;
    return first?.type === 'ig_container' ? (first.mediaUrl ?? undefined) : undefined;
  }

  const mediaView: ObjectView = {
    nodeType: 'IGMedia',
    defaults: 'id',
    async view(object, specs) {
      const m = object as IgMedia;
      return {
        id: m.id,
        caption: m.caption || undefined,
        media_type: m.mediaType,
        media_product_type: m.productType,
        permalink: m.permalink,
        shortcode: m.shortcode,
        timestamp: graphTime(m.createdAt),
        username: m.username,
        owner: { id: m.owner },
        like_count: 0,
        comments_count: wants(specs, 'comments_count')
          ? await objects.countComments(m.id)
          : undefined,
        is_comment_enabled: true,
        // The file the container was made from (a carousel's: its first child's); the emulator
        // keeps no poster frame, so a video has no `thumbnail_url`.
        media_url: wants(specs, 'media_url') ? await mediaUrlOf(m) : undefined,
        thumbnail_url: undefined,
        children:
          m.mediaType === 'CAROUSEL_ALBUM' ? { data: m.children.map((id) => ({ id })) } : undefined,
      };
    },
  };
  router.add('POST', ':id/media', (req, path) => createContainer(req, path.id!));
  router.add('POST', ':id/media_publish', (req, path) => publish(req, path.id!));

  router.add('GET', ':id/content_publishing_limit', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const ig = instagramOf(auth, path.id!, 'get');
    const usage = (await readQuota(ig.id, await kit.now())).length;
    const total = auth.scenario.number('publish_cap') || DEFAULT_PUBLISH_QUOTA;
    const specs = parseFields(req.params.fields, 'quota_usage');
    const node = {
      quota_usage: usage,
      config: { quota_total: total, quota_duration: QUOTA_WINDOW_MS / 1000 },
    };
    return { json: { data: [pickFields(node, specs, 'ContentPublishingLimit')] } };
  });

  router.add('GET', ':id/media', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const ig = instagramOf(auth, path.id!, 'get');
    const posts = await objects.listPosts({ account: ig.id, network: 'instagram' });
    const { slice, paging } = paginate(ctx, req, `${ig.id}/media`, posts);
    const specs = parseFields(req.params.fields, 'id');
    const data = [];
    for (const post of slice) {
      const media = await objects.get(post.id);
      if (media) data.push(pickFields(await mediaView.view(media, specs), specs, 'IGMedia'));
    }
    return { json: { data, paging } };
  });

  views.set('ig_media', mediaView);
  views.set('ig_container', {
    nodeType: 'IGContainer',
    defaults: 'id',
    async view(object) {
      const c = object as IgContainer;
      const status = containerStatus(c, await kit.now());
      return { id: c.id, status_code: status.code, status: status.text };
    },
  });
}
