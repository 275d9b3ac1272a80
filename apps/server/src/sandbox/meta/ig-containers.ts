import type { SandboxContext } from '../context.js';
import type { Scenario } from '../kit/scenario.js';
import { graphErrors } from './errors.js';
import { fetchReceivedMedia } from '../kit/media-facts.js';
import { mediaUrlProblem, parseIdList } from './helpers.js';
import {
  CONTAINER_LIFETIME_MS,
  newNumericId,
  newShortcode,
  type GraphObjects,
  type IgContainer,
  type IgMedia,
  type IgMediaType,
} from './objects.js';
import type { SandboxInstagram } from './state.js';

/**
 * Instagram's container rules (docs/networks.md#instagram-publishing): what `POST /{ig-user}/media` accepts, how a container's
 * status moves, and what `media_publish` makes of it.
 */

/** Processing time when no `processing_ms` knob is set: images at once, videos a moment. */
const IMAGE_PROCESSING_MS = 0;
const VIDEO_PROCESSING_MS = 1000;
const CAROUSEL_ITEMS = { min: 2, max: 10 };
const CAPTION_MAX = 2200;
/**
 * Hashtags and @mentions a caption may carry
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media,
 * `caption`: "Maximum 2200 characters, 30 hashtags, and 20 @ tags").
 */
const CAPTION_HASHTAGS_MAX = 30;
const CAPTION_MENTIONS_MAX = 20;
/** Images up to 8 MB; reels and carousel videos 3 s to 15 min, up to 300 MB (the lower of the figures sources give). */
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
const VIDEO_MAX_BYTES = 300 * 1024 * 1024;
const VIDEO_SECONDS = { min: 3, max: 15 * 60 };
/** Feed and carousel images: width ÷ height from 4:5 to 1.91:1, compared at two decimals. */
const IMAGE_RATIO = { min: 0.8, max: 1.91 };
const MEDIA_TYPES: IgMediaType[] = ['IMAGE', 'VIDEO', 'REELS', 'CAROUSEL', 'STORIES'];

/** The status a container reads at `now` (docs/networks.md#instagram-publishing status table). */
export function containerStatus(c: IgContainer, now: number) {
  if (c.publishedAs) return { code: 'PUBLISHED', text: 'Published: Media has been published.' };
  if (now - c.createdAt > CONTAINER_LIFETIME_MS) {
    return { code: 'EXPIRED', text: 'Expired: Media was not published within 24 hours.' };
  }
  if (now < c.readyAt) {
    return { code: 'IN_PROGRESS', text: 'In Progress: Media is still being processed.' };
  }
  if (c.fails) {
    return {
      code: 'ERROR',
      text: c.video
        ? 'Error: Media upload has failed with error code 2207026. The video could not be processed; check its format.'
        : 'Error: The image could not be processed. Use a JPEG under 8 MB. (2207004)',
    };
  }
  return {
    code: 'FINISHED',
    text: 'Finished: Media has been uploaded and it is ready to be published.',
  };
}

interface NewContainer {
  params: Record<string, string>;
  owner: string;
  now: number;
  scenario: Scenario;
  objects: GraphObjects;
  /** SandboxContext.runsLocally: loopback media URLs are fetchable. */
  runsLocally: boolean;
  /** SandboxContext.fetchMedia: how an image Herald handed out is read to check it. */
  fetchMedia: SandboxContext['fetchMedia'];
}

/** Validates `POST /{ig-user}/media` parameters and builds the container they describe. */
export async function buildContainer(input: NewContainer): Promise<IgContainer> {
  const { params: p, owner, now } = input;
  if (p.upload_type === 'resumable') {
    throw graphErrors.invalidParam(
      '(#100) The sandbox takes media by URL only (image_url, video_url).',
    );
  }
  const mediaType = (p.media_type?.toUpperCase() || 'IMAGE') as IgMediaType;
  if (!MEDIA_TYPES.includes(mediaType)) {
    throw graphErrors.invalidParam(
      '(#100) Param media_type must be one of {CAROUSEL, REELS, STORIES, VIDEO}',
    );
  }
  const isCarouselItem = p.is_carousel_item === 'true';
  const caption = isCarouselItem ? '' : (p.caption ?? '');
  if ([...caption].length > CAPTION_MAX) {
    throw graphErrors.invalidParam(
      '(#100) The caption is too long.',
      `Captions can have up to ${CAPTION_MAX.toLocaleString('en')} characters.`,
      2207010,
    );
  }
  const hashtags = caption.match(/(^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu)?.length ?? 0;
  const mentions = caption.match(/(^|[^\p{L}\p{N}_.])@[\p{L}\p{N}_.]+/gu)?.length ?? 0;
  if (hashtags > CAPTION_HASHTAGS_MAX || mentions > CAPTION_MENTIONS_MAX) {
    throw graphErrors.invalidParam(
      '(#100) The caption has too many hashtags or mentions.',
      `Captions can have up to ${CAPTION_HASHTAGS_MAX} hashtags and ${CAPTION_MENTIONS_MAX} @ tags.`,
      2207010,
    );
  }
  const base = {
    type: 'ig_container' as const,
    id: newNumericId(17),
    owner,
    createdAt: now,
    mediaType,
    isCarouselItem,
    caption,
    altText: isCarouselItem || mediaType === 'IMAGE' ? (p.alt_text ?? null) : null,
    publishedAs: null,
  };
  if (mediaType === 'CAROUSEL') {
    const children = await loadChildren(input, parseIdList(p.children));
    if (await input.scenario.take('carousel_create_fails')) throw graphErrors.createMediaFailed();
    return {
      ...base,
      video: false,
      mediaUrl: null,
      children: children.map((c) => c.id),
      // A carousel is ready when its slowest item is, and fails with any of them.
      readyAt: Math.max(now, ...children.map((c) => c.readyAt)),
      fails: children.some((c) => c.fails),
    };
  }
  return { ...base, ...(await mediaFields(input, mediaType, isCarouselItem)) };
}

async function mediaFields(input: NewContainer, mediaType: IgMediaType, isCarouselItem: boolean) {
  const { params: p, now, scenario } = input;
  const video = mediaType === 'REELS' || mediaType === 'VIDEO' || !!p.video_url;
  if (mediaType === 'VIDEO' && !isCarouselItem) {
    throw graphErrors.invalidParam(
      '(#100) The media type VIDEO is no longer supported for feed videos. Use REELS.',
      'Videos are published as reels: use media_type=REELS.',
      2207067,
    );
  }
  if (mediaType === 'REELS' && isCarouselItem) {
    throw graphErrors.invalidParam('(#100) Carousel videos use media_type=VIDEO.');
  }
  const param = video ? 'video_url' : 'image_url';
  const url = p[param];
  if (!url) throw graphErrors.invalidParam(`(#100) The parameter ${param} is required.`);
  const problem = mediaUrlProblem(url, now, input.runsLocally);
  if (problem === 'invalid')
    throw graphErrors.invalidParam(`(#100) Param ${param} is not a valid URL.`);
  // Instagram cannot reach a loopback or private address at all.
  if (problem === 'unreachable') throw graphErrors.mediaFetch();
  // Instagram fetches an image while creating the container, a video afterwards.
  if (problem === 'expired' && !video) throw graphErrors.mediaFetch();
  const refused = await checkFile(input.fetchMedia, url, video, mediaType !== 'STORIES');
  const processing =
    scenario.number('processing_ms') || (video ? VIDEO_PROCESSING_MS : IMAGE_PROCESSING_MS);
  return {
    video,
    mediaUrl: url,
    children: [],
    readyAt: now + processing,
    fails: problem === 'expired' || refused || (await scenario.take('processing_fails')),
  };
}

/**
 * The file as Instagram reads it, when it can be read: feed images JPEG, up to 8 MB, 4:5 to
 * 1.91:1 (docs/networks.md#instagram-conformance), refused at once; a video over 300 MB or outside
 * 3 s–15 min fails processing (true: the container ends in ERROR).
 */
async function checkFile(
  fetchMedia: SandboxContext['fetchMedia'],
  url: string,
  video: boolean,
  feed: boolean,
): Promise<boolean> {
  const file = await fetchReceivedMedia(fetchMedia, url);
  if (!file) return false;
  if (video) {
    const seconds = file.durationSec;
    return (
      file.size > VIDEO_MAX_BYTES ||
      (seconds !== null && (seconds < VIDEO_SECONDS.min || seconds > VIDEO_SECONDS.max))
    );
  }
  if (!feed || !file.width || !file.height || !file.format) return false;
  if (file.format !== 'jpeg') throw graphErrors.imageFormat(file.format);
  if (file.size > IMAGE_MAX_BYTES) throw graphErrors.imageTooLarge();
  const ratio = Number((file.width / file.height).toFixed(2));
  if (ratio < IMAGE_RATIO.min || ratio > IMAGE_RATIO.max) {
    throw graphErrors.aspectRatio(`${file.width}:${file.height}`);
  }
  return false;
}

async function loadChildren({ owner, now, objects }: NewContainer, ids: string[]) {
  if (ids.length < CAROUSEL_ITEMS.min || ids.length > CAROUSEL_ITEMS.max) {
    throw graphErrors.invalidParam(
      `(#100) The carousel must have between ${CAROUSEL_ITEMS.min} and ${CAROUSEL_ITEMS.max} children.`,
      `A carousel takes ${CAROUSEL_ITEMS.min} to ${CAROUSEL_ITEMS.max} photos or videos.`,
      2207028,
    );
  }
  const children: IgContainer[] = [];
  for (const id of ids) {
    const child = await objects.get(id);
    const usable =
      child?.type === 'ig_container' &&
      child.owner === owner &&
      child.isCarouselItem &&
      !child.publishedAs;
    if (!usable)
      throw graphErrors.invalidParam(`(#100) Param children contains an invalid id: ${id}`);
    if (containerStatus(child, now).code === 'EXPIRED') throw graphErrors.containerExpired();
    children.push(child);
  }
  return children;
}

/** The container `creation_id` names, if `media_publish` may publish it now. */
export function publishable(container: unknown, creationId: string, owner: string, now: number) {
  const c = container as IgContainer | null;
  if (c?.type !== 'ig_container' || c.owner !== owner) {
    throw graphErrors.invalidParam(
      `(#100) Param creation_id ${creationId} is not a media container of this account.`,
    );
  }
  if (c.isCarouselItem) {
    throw graphErrors.invalidParam(
      '(#100) A carousel item cannot be published on its own; publish its CAROUSEL container.',
    );
  }
  const status = containerStatus(c, now);
  if (status.code === 'PUBLISHED') throw graphErrors.alreadyPublished();
  if (status.code === 'EXPIRED') throw graphErrors.containerExpired();
  if (status.code === 'IN_PROGRESS') throw graphErrors.notReady();
  if (status.code === 'ERROR') throw graphErrors.containerFailed(status.text);
  return c;
}

/** The media a published container becomes. */
export function mediaFrom(c: IgContainer, ig: SandboxInstagram, now: number): IgMedia {
  const t = c.mediaType;
  const shortcode = newShortcode();
  return {
    type: 'ig_media',
    id: newNumericId(18),
    owner: ig.id,
    createdAt: now,
    username: ig.username,
    caption: c.caption,
    mediaType: t === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.video ? 'VIDEO' : 'IMAGE',
    productType: t === 'REELS' ? 'REELS' : t === 'STORIES' ? 'STORY' : 'FEED',
    shortcode,
    permalink: `https://www.instagram.com/${t === 'REELS' ? 'reel' : 'p'}/${shortcode}/`,
    mediaCount: c.children.length || 1,
    containerId: c.id,
    children: c.children.map(() => newNumericId(18)),
  };
}

/** How `/_emu/posts` names the kind of post. */
export const postKind = (t: IgMediaType) =>
  t === 'CAROUSEL' ? 'carousel' : t === 'REELS' ? 'reel' : t === 'STORIES' ? 'story' : 'image';
