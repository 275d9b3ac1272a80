import { PlatformError } from '../errors.js';
import {
  absoluteFacebookUrl,
  createGraphClient,
  graphTimeMs,
  type GraphClient,
} from '../meta/graph-client.js';
import { META_RECONCILE_LOOKBACK, type MetaPublishingOptions } from '../meta/limits.js';
import type { MetaUrls } from '../meta/urls.js';
import type {
  AdapterSettings,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import {
  listRecent,
  publishPhoto,
  publishToFeed,
  publishVideo,
  readPermalink,
  replyToComment,
  uploadUnpublishedPhoto,
} from './api.js';
import { createFacebookComments } from './comments.js';
import { FACEBOOK_PUBLISH_CAPS } from './limits.js';

type Shape = 'text' | 'link' | 'photo' | 'album' | 'video';

/** What prepare made at Facebook, persisted by the engine between phases. */
interface FacebookPublishState {
  shape: Shape;
  /** Our clock when the attempt began: reconciling only looks at posts made after it. */
  preparedAt: number;
  /** Unpublished photos the album post attaches. */
  photoIds: string[];
}

const readState = (state: PublishState) => state as unknown as FacebookPublishState;

/** The first web address in a text-only post becomes its link (with Facebook's preview). */
export function firstLink(text: string): string | null {
  const match = /https?:\/\/[^\s<>"']+/i.exec(text);
  return match ? match[0].replace(/[.,;:!?)\]]+$/, '') : null;
}

function shapeOf(request: PublishRequest): Shape {
  const { media } = request;
  const videos = media.filter((m) => m.kind === 'video').length;
  if (videos > 0 && (videos > 1 || media.length > 1)) {
    throw new PlatformError(
      'bad_request',
      'A Facebook post takes photos or one video, not several videos or both.',
    );
  }
  if (media.length > FACEBOOK_PUBLISH_CAPS.photosPerPost) {
    throw new PlatformError(
      'bad_request',
      `A Facebook post takes at most ${FACEBOOK_PUBLISH_CAPS.photosPerPost} photos.`,
    );
  }
  if (videos === 1) return 'video';
  if (media.length > 1) return 'album';
  if (media.length === 1) return 'photo';
  if (!request.text.trim()) {
    throw new PlatformError('bad_request', 'A Facebook post needs text, a link or media.');
  }
  return firstLink(request.text) ? 'link' : 'text';
}

/**
 * Facebook Page publishing (docs/networks.md#facebook-publishing) as the Page, with its token. Only several photos need a
 * prepare step (unpublished photos); every other shape is one visible call in finalize.
 */
export function createFacebookPublishing(
  settings: AdapterSettings<MetaUrls>,
  options: MetaPublishingOptions = {},
): PublishingAdapter {
  const graph: GraphClient = createGraphClient(settings, 'Facebook', options);
  const { timing } = graph;

  /** Makes the post visible; returns the id comments and permalinks are read by. */
  async function publish(account: StoredAccount, request: PublishRequest, s: FacebookPublishState) {
    const pageId = account.externalId;
    const token = account.tokens.accessToken;
    const media: PublishMedia | undefined = request.media[0];
    switch (s.shape) {
      case 'text':
        return (await publishToFeed(graph, pageId, token, { message: request.text })).id;
      case 'link':
        return (
          await publishToFeed(graph, pageId, token, {
            message: request.text,
            link: firstLink(request.text) ?? undefined,
          })
        ).id;
      case 'photo': {
        const photo = await publishPhoto(graph, pageId, token, {
          url: media!.url,
          caption: request.text || undefined,
          // docs/product.md#alt-text
          alt_text_custom: media!.altText || undefined,
        });
        return photo.post_id ?? photo.id;
      }
      case 'album':
        return (
          await publishToFeed(graph, pageId, token, {
            message: request.text || undefined,
            attached_media: JSON.stringify(s.photoIds.map((id) => ({ media_fbid: id }))),
          })
        ).id;
      case 'video':
        return (
          await publishVideo(graph, pageId, token, {
            file_url: media!.url,
            description: request.text || undefined,
          })
        ).id;
    }
  }

  /** Permalinks are best-effort: the post is live whatever this read says. */
  async function describe(account: StoredAccount, id: string): Promise<PublishResult> {
    try {
      const node = await readPermalink(graph, id, account.tokens.accessToken);
      return { externalId: id, permalink: absoluteFacebookUrl(node.permalink_url) };
    } catch {
      return { externalId: id, permalink: null };
    }
  }

  return {
    async prepare(account, request) {
      const shape = shapeOf(request);
      const s: FacebookPublishState = { shape, preparedAt: Date.now(), photoIds: [] };
      if (shape === 'album') {
        for (const media of request.media) {
          const photo = await uploadUnpublishedPhoto(
            graph,
            account.externalId,
            account.tokens.accessToken,
            media.url,
            media.altText,
          );
          s.photoIds.push(photo.id);
        }
      }
      return s as unknown as PublishState;
    },

    /** Facebook fetches the media inside the visible call: nothing to wait for. */
    async check() {
      return { status: 'ready' };
    },

    async finalize(account, request, state) {
      const id = await publish(account, request, readState(state));
      return describe(account, id);
    },

    async reconcile(account, request, state) {
      const s = readState(state);
      const edge = s.shape === 'video' ? 'videos' : 'published_posts';
      const recent = await listRecent(
        graph,
        account.externalId,
        account.tokens.accessToken,
        edge,
        META_RECONCILE_LOOKBACK,
      );
      const match = recent.find(
        (post) =>
          ((s.shape === 'video' ? post.description : post.message) ?? '') === request.text &&
          (graphTimeMs(post.created_time) ?? 0) >= s.preparedAt - timing.reconcileSlackMs,
      );
      if (!match) return null;
      return { externalId: match.id, permalink: absoluteFacebookUrl(match.permalink_url) };
    },

    ...createFacebookComments(graph),

    // The first comment, as the Page: POST /{post-id}/comments.
    async followUp(account, input) {
      if (input.kind !== 'first_comment')
        throw new PlatformError('bad_request', 'Facebook posts cannot be a thread.');
      const { id } = await replyToComment(
        graph,
        input.postId,
        account.tokens.accessToken,
        input.text,
      );
      return { externalId: id, permalink: null };
    },
  };
}
