import { mediaBytes, PlatformError } from '../errors.js';
import { refuseByRules } from '../publish-guard.js';
import type {
  AdapterSettings,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import { createLinkedInComments } from './comments.js';
import {
  LINKEDIN_FINALIZE_TIMEOUT_MS,
  LINKEDIN_POLL_MS,
  LINKEDIN_RECONCILE_LOOKBACK,
} from './limits.js';
import { escapeLittleText } from './little-text.js';
import {
  createLinkedInPublishApi,
  type LinkedInPostBody,
  type LinkedInPostElement,
} from './publish-api.js';
import type { LinkedInUrls } from './urls.js';
import { visibleCall } from './visible-call.js';

/** Settings tests and tools may change; production uses the defaults from limits.ts. */
export interface LinkedInPublishOptions {
  finalizeTimeoutMs: number;
}

/** One uploaded asset, as kept in the publish state between phases. */
interface Uploaded {
  urn: string;
  kind: 'image' | 'video';
  ready: boolean;
  /** The image's `altText` (docs/product.md#alt-text). */
  altText?: string;
}

function uploadedOf(state: PublishState): Uploaded[] {
  return Array.isArray(state.media)
    ? state.media.filter(
        (m): m is Uploaded =>
          typeof m === 'object' && m !== null && typeof (m as Uploaded).urn === 'string',
      )
    : [];
}

/** The post's `content` for its uploaded media (docs/networks.md#linkedin-publishing). */
function contentOf(media: Uploaded[]): LinkedInPostBody['content'] {
  if (!media.length) return undefined;
  const item = (m: Uploaded) => ({ id: m.urn, ...(m.altText ? { altText: m.altText } : {}) });
  if (media.length === 1) return { media: item(media[0]!) };
  return { multiImage: { images: media.map(item) } };
}

const contentIds = (post: LinkedInPostElement) =>
  post.content?.media?.id
    ? [post.content.media.id]
    : (post.content?.multiImage?.images ?? []).map((i) => i.id ?? '');

/**
 * Commentary as a reader sees it, for comparing what was sent with what LinkedIn returns
 * (it may give hashtags back as `{hashtag|\#|tag}` templates).
 */
const comparable = (commentary: string) =>
  commentary
    .replace(/\{hashtag\|\\?#\|([^}]+)\}/g, '#$1')
    .replace(/\\(.)/gs, '$1')
    .replace(/\s+/g, ' ')
    .trim();

const isMember = (account: StoredAccount) => account.externalId.startsWith('urn:li:person:');

/** `https://www.linkedin.com/feed/update/{urn}` (docs/networks.md#linkedin-publishing, #permalinks). */
export const linkedInPermalink = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;

/**
 * LinkedIn's publishing half (docs/networks.md#linkedin-publishing, #linkedin-comments, #linkedin-idempotency): Images/Videos uploads on the
 * URLs LinkedIn hands out, asset status polls, `POST /rest/posts`, reconciliation from the
 * author's recent posts (where LinkedIn lets Herald read them), and comments.
 */
export function createLinkedInPublishing(
  settings: AdapterSettings<LinkedInUrls>,
  options: Partial<LinkedInPublishOptions> = {},
): PublishingAdapter {
  const api = createLinkedInPublishApi(settings);
  const finalizeTimeoutMs = options.finalizeTimeoutMs ?? LINKEDIN_FINALIZE_TIMEOUT_MS;
  const token = (account: StoredAccount) => account.tokens.accessToken;

  async function uploadImage(account: StoredAccount, media: PublishMedia): Promise<Uploaded> {
    const { uploadUrl, image } = await api.initializeImage(token(account), account.externalId);
    await api.upload(token(account), uploadUrl, await mediaBytes(media));
    // A member's token may not read the Images API (403), so a personal post's image is not
    // polled: it counts as ready once its upload is accepted, and the post follows.
    return {
      urn: image,
      kind: 'image',
      ready: isMember(account),
      ...(media.altText ? { altText: media.altText } : {}),
    };
  }

  async function uploadVideo(account: StoredAccount, media: PublishMedia): Promise<Uploaded> {
    const started = await api.initializeVideo(token(account), account.externalId, media.size);
    const etags: string[] = [];
    for (const part of started.uploadInstructions) {
      const bytes = await mediaBytes(media, { start: part.firstByte, end: part.lastByte });
      const etag = await api.upload(token(account), part.uploadUrl, bytes);
      if (!etag)
        throw new PlatformError(
          'transient',
          'LinkedIn took a part of the video without confirming it (no ETag). Uploading again.',
        );
      etags.push(etag);
    }
    await api.finalizeVideo(token(account), {
      video: started.video,
      uploadToken: started.uploadToken ?? '',
      uploadedPartIds: etags,
    });
    return { urn: started.video, kind: 'video', ready: false };
  }

  const postBody = (account: StoredAccount, request: PublishRequest, media: Uploaded[]) => {
    const content = contentOf(media);
    const body: LinkedInPostBody = {
      author: account.externalId,
      commentary: escapeLittleText(request.text),
      visibility: 'PUBLIC',
      distribution: {
        feedDistribution: 'MAIN_FEED',
        targetEntities: [],
        thirdPartyDistributionChannels: [],
      },
      ...(content ? { content } : {}),
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    return body;
  };

  const comments = createLinkedInComments({ api, finalizeTimeoutMs });
  const result = (urn: string): PublishResult => ({
    externalId: urn,
    permalink: linkedInPermalink(urn),
  });

  return {
    async prepare(account, request) {
      // One video alone, or 1–20 images of fewer than 36,152,320 pixels (the shared rule set).
      refuseByRules('LinkedIn', request);
      const media: Uploaded[] = [];
      for (const file of request.media)
        media.push(
          file.kind === 'video'
            ? await uploadVideo(account, file)
            : await uploadImage(account, file),
        );
      return { author: account.externalId, media };
    },

    async check(account, state) {
      const checked: Uploaded[] = [];
      let waitMs = 0;
      for (const m of uploadedOf(state)) {
        if (m.ready) {
          checked.push(m);
          continue;
        }
        const status =
          m.kind === 'video'
            ? await api.videoStatus(token(account), m.urn)
            : await api.imageStatus(token(account), m.urn);
        if (status.status === 'PROCESSING_FAILED')
          throw new PlatformError(
            'bad_request',
            `LinkedIn could not process the ${m.kind}: ${
              ('processingFailureReason' in status && status.processingFailureReason) ||
              'processing failed'
            }.`,
            { code: 'PROCESSING_FAILED' },
          );
        const ready = status.status === 'AVAILABLE';
        if (!ready) waitMs = Math.max(waitMs, LINKEDIN_POLL_MS[m.kind]);
        checked.push({ ...m, ready });
      }
      return waitMs
        ? { status: 'pending', retryAfterMs: waitMs, state: { media: checked } }
        : { status: 'ready', state: { media: checked } };
    },

    async finalize(account, request, state) {
      const media = uploadedOf(state);
      if (media.length !== request.media.length)
        throw new PlatformError(
          'bad_request',
          'The files of this post were not uploaded to LinkedIn yet; prepare it again.',
        );
      const urn = await visibleCall('the post', finalizeTimeoutMs, (signal) =>
        api.createPost(token(account), postBody(account, request, media), signal),
      );
      if (!urn)
        throw new PlatformError(
          'unknown_outcome',
          'LinkedIn accepted the post without giving its id, so Herald cannot tell where it is.',
        );
      return result(urn);
    },

    async reconcile(account, request, state) {
      let page;
      try {
        page = await api.postsBy(token(account), account.externalId, LINKEDIN_RECONCILE_LOOKBACK);
      } catch (err) {
        if (err instanceof PlatformError && err.details.status === 403)
          throw new PlatformError(
            'unknown_outcome',
            `LinkedIn does not let Herald read this account's posts (${err.message}), so it cannot tell whether the post went out. Check the LinkedIn profile before publishing again.`,
            err.details,
          );
        throw err;
      }
      const ids = uploadedOf(state).map((m) => m.urn);
      const want = comparable(escapeLittleText(request.text));
      // Uploaded assets belong to one post only: they identify it whatever LinkedIn did to the
      // text. A text post is recognized by its text, with nothing attached.
      const match = (page.elements ?? []).find((p) => {
        const attached = contentIds(p);
        if (ids.length) return ids.every((id) => attached.includes(id));
        return attached.length === 0 && comparable(p.commentary ?? '') === want;
      });
      return match ? result(match.id) : null;
    },

    ...comments,

    // The first comment, as the author: a top-level comment on the post.
    async followUp(account, input) {
      if (input.kind !== 'first_comment')
        throw new PlatformError('bad_request', 'LinkedIn posts cannot be a thread.');
      const made = await comments.reply!(
        account,
        { externalId: input.postId, commentId: input.postId },
        input.text,
      );
      return { externalId: made.id, permalink: null };
    },
  };
}
