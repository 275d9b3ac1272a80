import { Readable } from 'node:stream';
import { PlatformError } from '../errors.js';
import { refuseByRules } from '../publish-guard.js';
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
  readUploadOffset,
  replyToComment,
  startUploadSession,
  uploadFrom,
  uploadUnpublishedPhoto,
} from './api.js';
import { createFacebookComments } from './comments.js';

type Shape = 'text' | 'link' | 'photo' | 'album' | 'video';

/** What prepare made at Facebook, persisted by the engine between phases. */
interface FacebookPublishState {
  shape: Shape;
  /** Our clock when the attempt began: reconciling only looks at posts made after it. */
  preparedAt: number;
  /** Unpublished photos the album post attaches. */
  photoIds: string[];
  /**
   * A video's Resumable Upload session (`upload:{id}?sig=…`), kept from prepare on so a run that
   * stops part-way goes on from the offset Meta reports; then the handle of the whole file.
   */
  upload?: { session: string; handle: string | null };
}

/** The one file type the Resumable Upload API takes for a video. */
const UPLOAD_VIDEO_TYPE = 'video/mp4';
/** Upload rounds in a row that may end without Meta holding more bytes before the run gives up. */
const UPLOAD_STALLS_ALLOWED = 3;
/** Meta's "there was a problem uploading your video" (bytes from another offset than it holds). */
const UPLOAD_OFFSET_REFUSED_CODE = 6001;

const readState = (state: PublishState) => state as unknown as FacebookPublishState;

/** The first web address in a text-only post becomes its link (with Facebook's preview). */
export function firstLink(text: string): string | null {
  const match = /https?:\/\/[^\s<>"']+/i.exec(text);
  return match ? match[0].replace(/[.,;:!?)\]]+$/, '') : null;
}

function shapeOf(request: PublishRequest): Shape {
  // Photos or one video, never both; up to 10 photos; something to publish (the shared rule set).
  refuseByRules('Facebook', request);
  const { media } = request;
  if (media.some((m) => m.kind === 'video')) {
    if (media[0]!.mimeType !== UPLOAD_VIDEO_TYPE)
      throw new PlatformError(
        'bad_request',
        `Facebook's video upload takes MP4 files only; this video is ${media[0]!.mimeType}. Export it as MP4, attach it again, then publish.`,
      );
    return 'video';
  }
  if (media.length > 1) return 'album';
  if (media.length === 1) return 'photo';
  return firstLink(request.text) ? 'link' : 'text';
}

/**
 * The person's user token, which the Resumable Upload API asks for (the Page token publishes).
 * A Page connected without one cannot upload until it is connected again.
 */
function userTokenOf(account: StoredAccount) {
  const token = account.secrets.userToken;
  if (!token)
    throw new PlatformError(
      'reauth',
      'Facebook uploads videos with the sign-in of the person who connected the Page, and Herald does not have it for this Page. Reconnect the Page in Settings, then publish again.',
    );
  return token;
}

/** Meta's offset as a number (it may come as a string). */
function offsetOf(answer: { file_offset?: number | string }) {
  const offset = Number(answer.file_offset);
  if (!Number.isInteger(offset) || offset < 0)
    throw new PlatformError('transient', 'Facebook did not say how much of the video it holds.');
  return offset;
}

/**
 * Facebook Page publishing (docs/networks.md#facebook-publishing) as the Page, with its token.
 * Several photos are prepared as unpublished photos; a video is uploaded with the Resumable
 * Upload API (prepare starts the session, check sends the bytes); every shape is then one
 * visible call in finalize.
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
      case 'video': {
        const handle = s.upload?.handle;
        if (!handle)
          throw new PlatformError('transient', 'The video is not uploaded to Facebook yet.');
        return (
          await publishVideo(graph, pageId, token, {
            fbuploader_video_file_chunk: handle,
            description: request.text || undefined,
          })
        ).id;
      }
    }
  }

  const startSession = async (account: StoredAccount, video: PublishMedia) =>
    (
      await startUploadSession(graph, settings.clientId, userTokenOf(account), {
        fileName: video.fileName,
        fileLength: video.size,
        fileType: UPLOAD_VIDEO_TYPE,
      })
    ).id;

  /**
   * Sends the video's bytes to the session from the offset Meta reports, and again from the new
   * offset after an interruption (a dropped connection, a timeout, a 5xx), until Meta answers
   * the file handle. A session Meta no longer knows is started again from the first byte.
   */
  async function upload(account: StoredAccount, session: string, video: PublishMedia) {
    const token = userTokenOf(account);
    let offset: number;
    try {
      offset = offsetOf(await readUploadOffset(graph, session, token));
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind !== 'bad_request' || err.details.code !== 100)
        throw err;
      session = await startSession(account, video);
      offset = 0;
    }
    let stalls = 0;
    let cause: PlatformError | null = null;
    for (;;) {
      const remaining = video.size - offset;
      const body =
        remaining > 0
          ? (Readable.toWeb(
              Readable.from(
                (await video.open({ start: offset, end: video.size - 1 })) as AsyncIterable<Buffer>,
              ),
            ) as ReadableStream<Uint8Array>)
          : new Uint8Array(0);
      const timeoutMs =
        timing.requestTimeoutMs + Math.ceil((remaining / timing.uploadMinBytesPerSecond) * 1000);
      try {
        const answer = await uploadFrom(graph, session, token, offset, body, timeoutMs);
        if (answer.h) return { session, handle: answer.h };
      } catch (err) {
        const interrupted =
          err instanceof PlatformError &&
          (err.kind === 'transient' || err.details.code === UPLOAD_OFFSET_REFUSED_CODE);
        if (!interrupted) throw err;
        cause = err;
      }
      const next = offsetOf(await readUploadOffset(graph, session, token));
      stalls = next > offset ? 0 : stalls + 1;
      if (stalls >= UPLOAD_STALLS_ALLOWED)
        throw (
          cause ??
          new PlatformError(
            'transient',
            'Facebook did not take the rest of the video. Herald tries again.',
          )
        );
      offset = next;
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
      // Only the session: kept on the target before any byte goes, so a stop resumes it.
      if (shape === 'video')
        s.upload = { session: await startSession(account, request.media[0]!), handle: null };
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

    /**
     * A video's bytes go to its upload session here, from where Meta says it stands; photos are
     * fetched by Facebook inside the visible call, so there is nothing else to wait for.
     */
    async check(account, state, request) {
      const s = readState(state);
      if (s.shape !== 'video' || !s.upload || s.upload.handle) return { status: 'ready' };
      const video = request?.media[0];
      if (!video)
        throw new PlatformError('transient', 'Herald did not hand the video over to upload.');
      const uploaded = await upload(account, s.upload.session, video);
      return { status: 'ready', state: { upload: uploaded } as unknown as PublishState };
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
