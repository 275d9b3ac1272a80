import {
  PinterestPostSettingsSchema,
  pinterestSettingsIssues,
  type PinterestPostSettings,
} from '@herald/contract';
import { asUnconfirmed, mediaBytes, pageReachesBefore, PlatformError } from '../errors.js';
import type {
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  StoredAccount,
} from '../types.js';
import type { PinterestApi, PinterestPin } from './api.js';
import {
  PINTEREST_CLOCK_DRIFT_MS,
  PINTEREST_MEDIA_TIMING,
  PINTEREST_RECONCILE_WINDOW,
} from './limits.js';

/** What prepare made at Pinterest: the uploaded video's media id, and when the attempt began. */
interface PinterestState {
  mediaId: string | null;
  preparedAt: string;
}

const token = (account: StoredAccount) => account.tokens.accessToken;
const videosOf = (request: PublishRequest) => request.media.filter((m) => m.kind === 'video');
const imagesOf = (request: PublishRequest) => request.media.filter((m) => m.kind === 'image');

function readState(raw: Record<string, unknown>): PinterestState {
  return {
    mediaId: typeof raw.mediaId === 'string' ? raw.mediaId : null,
    preparedAt: typeof raw.preparedAt === 'string' ? raw.preparedAt : new Date().toISOString(),
  };
}

/** The settings chosen in the composer, checked again before anything goes to Pinterest. */
function settingsOf(request: PublishRequest): PinterestPostSettings {
  const parsed = PinterestPostSettingsSchema.safeParse(request.settings ?? {});
  if (!parsed.success)
    throw new PlatformError('bad_request', 'The Pinterest settings of this post are not valid.');
  const problems = pinterestSettingsIssues(parsed.data).map((i) => i.message);
  if (problems.length) throw new PlatformError('bad_request', problems.join(' '));
  return parsed.data;
}

/**
 * The files as one pin can carry them. The API has no way to say a second video, or images
 * beside a video other than its one cover: such a post cannot be sent at all, so it is refused
 * here; every other judgement (types, sizes, counts, durations) is Pinterest's.
 */
function shapeOf(request: PublishRequest) {
  const videos = videosOf(request);
  const images = imagesOf(request);
  if (videos.length > 1 || (videos.length === 1 && images.length > 1))
    throw new PlatformError(
      'bad_request',
      'Pinterest takes images, or one video with at most one image as its cover. Keep only the images, or the video and its cover, in the Pinterest version of this post.',
      { code: 'pinterest.media-mix' },
    );
  return { video: videos[0] ?? null, images };
}

const base64Of = async (image: PublishMedia) => ({
  content_type: image.mimeType,
  data: (await mediaBytes(image)).toString('base64'),
});

/** `media_source` of the pin: one image, a carousel, or the processed video and its cover. */
async function mediaSourceOf(request: PublishRequest, state: PinterestState) {
  const { video, images } = shapeOf(request);
  if (video) {
    if (!state.mediaId)
      throw new PlatformError(
        'bad_request',
        'The Pinterest video was not uploaded; prepare it again.',
      );
    const cover = images[0];
    return {
      source_type: 'video_id',
      media_id: state.mediaId,
      ...(cover
        ? {
            cover_image_content_type: cover.mimeType,
            cover_image_data: (await mediaBytes(cover)).toString('base64'),
          }
        : { cover_image_key_frame_time: 0 }),
    };
  }
  if (images.length === 1) return { source_type: 'image_base64', ...(await base64Of(images[0]!)) };
  if (images.length > 1)
    return {
      source_type: 'multiple_image_base64',
      items: await Promise.all(images.map(base64Of)),
    };
  return undefined;
}

const permalinkOf = (id: string) => `https://www.pinterest.com/pin/${id}/`;

const resultOf = (pin: PinterestPin): PublishResult => ({
  externalId: pin.id,
  permalink: permalinkOf(pin.id),
  extra: { boardId: pin.board_id ?? null },
});

const same = (a: string | null | undefined, b: string) => (a ?? '').trim() === b.trim();

/** Whether a pin of the board is the one this attempt made: same words, made after prepare. */
function isTheAttempt(
  pin: PinterestPin,
  request: PublishRequest,
  s: PinterestPostSettings,
  after: number,
) {
  const made = pin.created_at ? Date.parse(pin.created_at) : NaN;
  return (
    same(pin.description, request.text) &&
    same(pin.title, s.title) &&
    same(pin.link, s.link) &&
    (Number.isNaN(made) || made >= after)
  );
}

/**
 * Pinterest publishing (docs/networks.md#pinterest-publishing, #pinterest-idempotency): prepare
 * registers a video (`POST /v5/media`) and uploads it to the URL Pinterest gives, check polls
 * `GET /v5/media/{id}` until it has succeeded, finalize creates the pin (`POST /v5/pins`) on the
 * chosen board, with the images as base64 or the video's media id. Pinterest takes no idempotency
 * key, so after a lost answer reconcile reads the board's newest pins and finds the one made
 * after prepare with the same description, title and link; when they cannot tell, the outcome
 * stays unknown rather than risk a second pin.
 */
export function createPinterestPublishing(api: PinterestApi): PublishingAdapter {
  return {
    async prepare(account, request) {
      settingsOf(request);
      const { video } = shapeOf(request);
      const preparedAt = new Date().toISOString();
      if (!video) return { mediaId: null, preparedAt };
      const upload = await api.registerVideo(token(account));
      await api.uploadVideo(upload, video);
      return { mediaId: upload.media_id, preparedAt };
    },

    async check(account, raw) {
      const s = readState(raw);
      if (!s.mediaId) return { status: 'ready' };
      const media = await api.mediaStatus(token(account), s.mediaId);
      if (media.status === 'succeeded') return { status: 'ready' };
      if (media.status === 'failed')
        throw new PlatformError(
          'bad_request',
          'Pinterest could not process this video. Check that it is an MP4, MOV or M4V file that plays, then publish again.',
          { code: 'media_failed' },
        );
      if (Date.now() - Date.parse(s.preparedAt) > PINTEREST_MEDIA_TIMING.giveUpMs)
        throw new PlatformError(
          'transient',
          'Pinterest is still processing the video after 30 minutes. Herald will upload it again.',
        );
      return { status: 'pending', retryAfterMs: PINTEREST_MEDIA_TIMING.pollMs };
    },

    preparesLocally: (request) => videosOf(request).length === 0,

    async finalize(account, request, raw) {
      const settings = settingsOf(request);
      const state = readState(raw);
      const mediaSource = await mediaSourceOf(request, state);
      const cover = imagesOf(request)[0];
      const body = {
        board_id: settings.boardId,
        ...(settings.title ? { title: settings.title } : {}),
        description: request.text,
        ...(settings.link ? { link: settings.link } : {}),
        ...(cover?.altText ? { alt_text: cover.altText } : {}),
        ...(mediaSource ? { media_source: mediaSource } : {}),
      };
      try {
        return resultOf(await api.createPin(token(account), body));
      } catch (err) {
        throw asUnconfirmed('Pinterest', err);
      }
    },

    async reconcile(account, request, raw) {
      const settings = settingsOf(request);
      const state = readState(raw);
      const after = Date.parse(state.preparedAt) - PINTEREST_CLOCK_DRIFT_MS;
      const { pins, more } = await api.boardPins(
        token(account),
        settings.boardId,
        PINTEREST_RECONCILE_WINDOW,
      );
      const found = pins.find((pin) => isTheAttempt(pin, request, settings, after));
      if (found) return resultOf(found);
      // The board's whole list, or a newest-first page reaching back past the attempt: it was
      // not made. A board sorted by hand lists pins in its own order, which proves nothing.
      if (!more) return null;
      if (
        pageReachesBefore(
          pins.map((p) => Date.parse(p.created_at ?? '')),
          after,
        )
      )
        return null;
      throw new PlatformError(
        'unknown_outcome',
        'Pinterest did not confirm the pin, and the board has had too many pins since for Herald to find it among them.',
      );
    },
  };
}
