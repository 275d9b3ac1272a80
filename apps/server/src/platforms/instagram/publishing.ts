import { PlatformError } from '../errors.js';
import { refuseByRules } from '../publish-guard.js';
import { createGraphClient, graphTimeMs, type GraphClient } from '../meta/graph-client.js';
import { META_RECONCILE_LOOKBACK, type MetaPublishingOptions } from '../meta/limits.js';
import type { MetaUrls } from '../meta/urls.js';
import type {
  AdapterSettings,
  CheckResult,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import {
  createContainer,
  commentOnMedia,
  igTokenOf,
  igUserIdOf,
  listRecentMedia,
  publishContainer,
  readContainer,
  readMedia,
  readPublishingLimit,
  type InstagramContainer,
} from './api.js';
import { createInstagramComments } from './comments.js';
import { INSTAGRAM_PUBLISH_CAPS } from './limits.js';

/** What prepare made at Instagram, persisted by the engine between phases. */
interface InstagramPublishState {
  shape: 'image' | 'reel' | 'carousel';
  /** Our clock when the attempt began: reconciling only looks at media published after it. */
  preparedAt: number;
  /** The container to publish (the carousel parent once it exists). */
  containerId: string | null;
  /** Carousel items; the parent waits until every video item is FINISHED (docs/networks.md#instagram-publishing). */
  children: Array<{ id: string; video: boolean }>;
  /** The caption of the carousel parent that check creates (check does not see the request). */
  pendingCaption?: string;
  checks: number;
  /** A check found the container PUBLISHED already: finalize only looks the media up. */
  alreadyPublished?: boolean;
}

const readState = (state: PublishState) => state as unknown as InstagramPublishState;
const asState = (state: InstagramPublishState) => state as unknown as PublishState;

function shapeOf(request: PublishRequest): InstagramPublishState['shape'] {
  // At least one file, up to 10; at most 30 hashtags and 20 mentions (the shared rule set).
  refuseByRules('Instagram', request);
  const { media } = request;
  if (media.length > 1) return 'carousel';
  return media[0]!.kind === 'video' ? 'reel' : 'image';
}

/** Instagram says why a container failed in `status`; keep its words for the person. */
function failedContainer(container: InstagramContainer) {
  const words = container.status?.replace(/^Error:\s*/i, '').trim();
  if (container.status_code === 'EXPIRED') {
    return new PlatformError(
      'bad_request',
      'Instagram discarded the prepared media because it was not published within 24 hours. Publish the post again.',
      { code: 'EXPIRED' },
    );
  }
  return new PlatformError(
    'bad_request',
    `Instagram could not process the media${words ? `: ${words}` : '.'}`,
    { code: container.status_code },
  );
}

/**
 * Instagram publishing with Facebook Login (docs/networks.md#instagram-publishing): containers that Instagram fills by fetching
 * the media URLs, status checks until FINISHED, then `media_publish`, the one visible call.
 */
/** docs/product.md#alt-text: an image container's `alt_text`. */
const altTextParam = (media: PublishMedia): { alt_text?: string } =>
  media.kind === 'image' && media.altText ? { alt_text: media.altText } : {};

export function createInstagramPublishing(
  settings: AdapterSettings<MetaUrls>,
  options: MetaPublishingOptions = {},
): PublishingAdapter {
  const graph: GraphClient = createGraphClient(settings, 'Instagram', options);
  const { timing } = graph;

  const itemParams = (media: PublishMedia) =>
    media.kind === 'video'
      ? { is_carousel_item: 'true', media_type: 'VIDEO', video_url: media.url }
      : { is_carousel_item: 'true', image_url: media.url, ...altTextParam(media) };

  async function createCarousel(account: StoredAccount, s: InstagramPublishState, text: string) {
    const parent = await createContainer(graph, igUserIdOf(account), igTokenOf(account), {
      media_type: 'CAROUSEL',
      children: s.children.map((c) => c.id).join(','),
      caption: text,
    });
    return parent.id;
  }

  function pending(s: InstagramPublishState, update: Partial<InstagramPublishState>): CheckResult {
    const hasVideo = s.shape === 'reel' || s.children.some((c) => c.video);
    const first = hasVideo ? timing.videoPollMs : timing.imagePollMs;
    const retryAfterMs = Math.min(first * 2 ** Math.min(s.checks, 10), timing.maxPollMs);
    return { status: 'pending', retryAfterMs, state: { ...update, checks: s.checks + 1 } };
  }

  /** The media published from this attempt, among the account's latest (docs/networks.md#instagram-idempotency). */
  async function findPublished(account: StoredAccount, request: PublishRequest, since: number) {
    const recent = await listRecentMedia(
      graph,
      igUserIdOf(account),
      igTokenOf(account),
      META_RECONCILE_LOOKBACK,
    );
    const match = recent.find(
      (m) =>
        (m.caption ?? '') === request.text &&
        (graphTimeMs(m.timestamp) ?? 0) >= since - timing.reconcileSlackMs,
    );
    if (!match) return null;
    return {
      externalId: match.id,
      permalink: match.permalink ?? null,
      extra: match.shortcode ? { shortcode: match.shortcode } : {},
    } satisfies PublishResult;
  }

  /** Permalinks are best-effort: a read just after publishing may fail though the post is live. */
  async function describe(account: StoredAccount, mediaId: string): Promise<PublishResult> {
    try {
      const media = await readMedia(graph, mediaId, igTokenOf(account));
      return {
        externalId: mediaId,
        permalink: media.permalink ?? null,
        extra: media.shortcode ? { shortcode: media.shortcode } : {},
      };
    } catch {
      return { externalId: mediaId, permalink: null };
    }
  }

  async function ensureQuota(account: StoredAccount) {
    const { usage, total } = await readPublishingLimit(
      graph,
      igUserIdOf(account),
      igTokenOf(account),
    );
    const cap = total ?? INSTAGRAM_PUBLISH_CAPS.postsPer24h;
    if (usage >= cap) {
      throw new PlatformError(
        'rate_limited',
        `Instagram allows ${cap} posts from apps per 24 hours, and this account has reached it. Herald tries again when the window frees up.`,
        { code: 'content_publishing_limit', retryAfterSeconds: 3600 },
      );
    }
  }

  return {
    async prepare(account, request) {
      const shape = shapeOf(request);
      const igUserId = igUserIdOf(account);
      const token = igTokenOf(account);
      const s: InstagramPublishState = {
        shape,
        preparedAt: Date.now(),
        containerId: null,
        children: [],
        checks: 0,
      };
      if (shape !== 'carousel') {
        const media = request.media[0]!;
        const params =
          shape === 'reel'
            ? { media_type: 'REELS', video_url: media.url, caption: request.text }
            : { image_url: media.url, caption: request.text, ...altTextParam(media) };
        s.containerId = (await createContainer(graph, igUserId, token, params)).id;
        return asState(s);
      }
      for (const media of request.media) {
        const child = await createContainer(graph, igUserId, token, itemParams(media));
        s.children.push({ id: child.id, video: media.kind === 'video' });
      }
      // The parent is made in check, once every item is FINISHED: if making it fails, the
      // engine keeps these item ids and the next attempt reuses them (containers count against
      // a daily limit, docs/networks.md#instagram-conformance).
      s.pendingCaption = request.text;
      return asState(s);
    },

    async check(account, state) {
      const s = readState(state);
      const token = igTokenOf(account);
      let update: Partial<InstagramPublishState> = {};
      if (!s.containerId) {
        for (const child of s.children) {
          const status = await readContainer(graph, child.id, token);
          if (status.status_code === 'ERROR' || status.status_code === 'EXPIRED') {
            throw failedContainer(status);
          }
          if (status.status_code !== 'FINISHED') return pending(s, {});
        }
        update = { containerId: await createCarousel(account, s, s.pendingCaption ?? '') };
      }
      const containerId = update.containerId ?? s.containerId!;
      const status = await readContainer(graph, containerId, token);
      switch (status.status_code) {
        case 'FINISHED':
          return { status: 'ready', state: update };
        case 'PUBLISHED':
          return { status: 'ready', state: { ...update, alreadyPublished: true } };
        case 'ERROR':
        case 'EXPIRED':
          throw failedContainer(status);
        default:
          return pending(s, update);
      }
    },

    async finalize(account, request, state) {
      const s = readState(state);
      if (!s.containerId) {
        throw new PlatformError('transient', 'Instagram has not finished preparing this post.');
      }
      if (s.alreadyPublished) {
        const found = await findPublished(account, request, s.preparedAt);
        if (found) return found;
        throw new PlatformError(
          'unknown_outcome',
          'Instagram reports this post as published but does not list it yet.',
        );
      }
      await ensureQuota(account);
      const published = await publishContainer(
        graph,
        igUserIdOf(account),
        igTokenOf(account),
        s.containerId,
      );
      return describe(account, published.id);
    },

    async reconcile(account, request, state) {
      const s = readState(state);
      if (!s.containerId) return null;
      const container = await readContainer(graph, s.containerId, igTokenOf(account));
      // Only a PUBLISHED container went out; FINISHED means publishing again is safe.
      if (container.status_code !== 'PUBLISHED') return null;
      const found = await findPublished(account, request, s.preparedAt);
      if (found) return found;
      throw new PlatformError(
        'transient',
        'Instagram reports this post as published but does not list it yet. Herald checks again shortly.',
      );
    },

    ...createInstagramComments(graph),

    // The first comment, as the account: POST /{ig-media-id}/comments.
    async followUp(account, input) {
      if (input.kind !== 'first_comment')
        throw new PlatformError('bad_request', 'Instagram posts cannot be a thread.');
      const { id } = await commentOnMedia(graph, input.postId, igTokenOf(account), input.text);
      return { externalId: id, permalink: null };
    },
  };
}
