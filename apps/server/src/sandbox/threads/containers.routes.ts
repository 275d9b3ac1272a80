import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import type { SandboxContext } from '../context.js';
import { fetchReceivedMedia } from '../kit/media-facts.js';
import { randomDigits } from '../kit/secrets.js';
import {
  badParam,
  graphAccess,
  type GraphAccess,
  linksIn,
  refused,
  sameUser,
  threadsTextLength,
  unreachableUrl,
} from './graph.js';
import {
  containerStatus,
  type ContainerType,
  type ThreadsContainer,
  type ThreadsMediaState,
} from './media-state.js';
import { fieldsOf, graphError, THREADS_PUBLISHING } from './responses.js';

type Fields = Record<string, string | undefined>;
const CONTAINER_TYPES: ContainerType[] = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];

/**
 * `POST /{user}/threads` (docs/networks.md#threads-publishing, #threads-sandbox): an invisible container for a text,
 * image, video, carousel item, carousel or reply. Media URLs are checked, not downloaded; media
 * containers process for a while (knob `processing_ms`) and may end in ERROR (`processing_fails`).
 */
export function registerThreadsContainerRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  state: ThreadsMediaState,
  /** SandboxContext.runsLocally: loopback media URLs are fetchable. */
  runsLocally = true,
  /** SandboxContext.fetchMedia: how Threads reads a file Herald hands out, to check it. */
  fetchMedia?: SandboxContext['fetchMedia'],
) {
  scope.post<{ Params: { user: string } }>('/v1.0/:user/threads', async (request, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_content_publish');
    if (!access || !sameUser(reply, access, request.params.user)) return reply;
    return createContainer(reply, access, fieldsOf(request.query, request.body));
  });

  /** docs/product.md#alt-text: the longest `alt_text` the sandbox takes. */
  const THREADS_ALT_TEXT_MAX = 1000;

  async function createContainer(reply: FastifyReply, access: GraphAccess, f: Fields) {
    const mediaType = f.media_type as ContainerType;
    if (!CONTAINER_TYPES.includes(mediaType))
      return badParam(reply, 'Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}');
    const isCarouselItem = f.is_carousel_item === 'true';
    const text = isCarouselItem ? '' : (f.text ?? '');
    if (threadsTextLength(text) > THREADS_PUBLISHING.textMax)
      return badParam(
        reply,
        `Param text must be at most ${THREADS_PUBLISHING.textMax} characters long.`,
      );
    const links = linksIn(text) + (f.link_attachment ? 1 : 0);
    if (links > THREADS_PUBLISHING.linksMax)
      return graphError(reply, 400, {
        message: `THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most ${THREADS_PUBLISHING.linksMax} links; this one has ${links}.`,
        code: 100,
      });
    if ((f.alt_text ?? '').length > THREADS_ALT_TEXT_MAX)
      return badParam(
        reply,
        `Param alt_text must be at most ${THREADS_ALT_TEXT_MAX} characters long.`,
      );
    if (mediaType === 'TEXT' && !text.trim())
      return badParam(reply, 'Param text is required for a TEXT post.');
    if (f.reply_to_id && !(await replyTargetOk(reply, access, f.reply_to_id))) return reply;
    const now = access.now;
    const made = await mediaOf(reply, access, mediaType, f, now);
    if (!made) return reply;
    const container: ThreadsContainer = {
      id: randomDigits(17),
      accountId: access.account.id,
      mediaType,
      text,
      mediaUrl: made.url,
      isCarouselItem,
      children: made.children,
      replyToId: f.reply_to_id ?? null,
      createdAt: now,
      readyAt: now + made.processingMs,
      errorMessage: made.errorMessage,
      publishedId: null,
      altText: mediaType === 'IMAGE' ? (f.alt_text ?? null) : null,
    };
    await state.putContainer(container);
    return { id: container.id };
  }

  async function replyTargetOk(reply: FastifyReply, access: GraphAccess, id: string) {
    if (!access.scopes.includes('threads_manage_replies')) {
      graphError(reply, 400, {
        message:
          '(#10) The user has not granted the threads_manage_replies permission to this app.',
        code: 10,
      });
      return false;
    }
    const target = await state.getMedia(id);
    if (target && !target.deleted) return true;
    badParam(reply, 'Param reply_to_id is not a media that can be replied to.');
    return false;
  }

  /** The media part of a container: URL, children, processing time and outcome. */
  async function mediaOf(
    reply: FastifyReply,
    access: GraphAccess,
    mediaType: ContainerType,
    f: Fields,
    now: number,
  ) {
    const plain = { url: null, children: [], processingMs: 0, errorMessage: null };
    if (mediaType === 'TEXT') return plain;
    if (mediaType === 'CAROUSEL') {
      const children = await carouselChildren(reply, access, f.children ?? '', now);
      return children && { ...plain, children };
    }
    const param = mediaType === 'IMAGE' ? 'image_url' : 'video_url';
    const url = f[param];
    if (!url)
      return refused(badParam(reply, `Param ${param} is required for an ${mediaType} post.`));
    const problem = unreachableUrl(url, runsLocally);
    if (problem && mediaType === 'IMAGE') {
      graphError(reply, 400, {
        message: `Media download has failed. The media URI ${problem}.`,
        code: 9004,
        error_subcode: 2207052,
      });
      return null;
    }
    const fails = await access.scenario.take('processing_fails');
    const processingMs =
      access.scenario.value('processing_ms') ??
      (mediaType === 'VIDEO'
        ? THREADS_PUBLISHING.videoProcessingMs
        : THREADS_PUBLISHING.imageProcessingMs);
    // Threads reports failures as container status ERROR with a code word (docs/networks.md#threads-publishing).
    let errorMessage: string | null = null;
    const refusal = problem ? null : await mediaRefusal(mediaType, url);
    if (refusal && mediaType === 'IMAGE') {
      graphError(reply, 400, { message: `(#100) ${refusal}`, code: 100 });
      return null;
    }
    if (refusal) errorMessage = refusal;
    else if (problem) errorMessage = 'FAILED_DOWNLOADING_VIDEO';
    else if (fails) errorMessage = mediaType === 'VIDEO' ? 'FAILED_PROCESSING_VIDEO' : 'UNKNOWN';
    return { url, children: [], processingMs, errorMessage };
  }

  /**
   * What Threads refuses in the file itself (https://developers.facebook.com/docs/threads/overview,
   * media specifications): an image that is not JPEG or PNG or over 8 MB (refused at once), a video
   * over 1 GB or 5 minutes (its container ends in ERROR with the status's code word).
   */
  async function mediaRefusal(mediaType: ContainerType, url: string): Promise<string | null> {
    const file = fetchMedia ? await fetchReceivedMedia(fetchMedia, url) : null;
    if (!file) return null;
    const p = THREADS_PUBLISHING;
    if (mediaType === 'IMAGE') {
      if (file.format && !p.imageFormats.includes(file.format))
        return `The image format ${file.format} is not supported; use JPEG or PNG.`;
      if (file.size > p.imageMaxBytes) return 'The image is larger than 8 MB.';
      return null;
    }
    if (file.size > p.videoMaxBytes) return 'FAILED_PROCESSING_VIDEO';
    if (file.durationSec !== null && file.durationSec > p.videoMaxSeconds)
      return 'INVALID_DURATION';
    return null;
  }

  async function carouselChildren(
    reply: FastifyReply,
    access: GraphAccess,
    list: string,
    now: number,
  ): Promise<string[] | null> {
    const ids = list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const { carouselMin, carouselMax } = THREADS_PUBLISHING;
    if (ids.length < carouselMin || ids.length > carouselMax)
      return refused(
        badParam(reply, `A carousel needs ${carouselMin} to ${carouselMax} children.`),
      );
    for (const id of ids) {
      const child = await state.getContainer(id);
      if (!child || child.accountId !== access.account.id || !child.isCarouselItem)
        return refused(
          badParam(reply, `Param children contains ${id}, which is not a carousel item.`),
        );
      const status = containerStatus(child, now);
      if (status === 'IN_PROGRESS') {
        graphError(reply, 400, {
          message: 'The media is not ready for publishing, please wait for a moment.',
          code: 9007,
          error_subcode: 2207027,
        });
        return null;
      }
      if (status !== 'FINISHED')
        return refused(badParam(reply, `The carousel item ${id} cannot be used (${status}).`));
    }
    return ids;
  }
}
