import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { sleep } from '../kit/call-knobs.js';
import { fetchReceivedMedia } from '../kit/media-facts.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { hashOf, randomDigits, randomToken } from '../kit/secrets.js';
import { creatorOffers, tiktokAccess, type TikTokAccess } from './access.js';
import { viewJob, type TikTokJob, type TikTokPublishState } from './publish-state.js';
import { tiktokError, tiktokOk, TIKTOK_PUBLISHING } from './responses.js';
import { chunkPlanProblem, pulledUrlProblem } from './rules.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : '');

const invalid = (reply: FastifyReply, message: string) =>
  tiktokError(reply, 400, 'invalid_params', message);

/**
 * Content Posting (docs/networks.md#tiktok-publishing, #tiktok-sandbox): `video/init` (FILE_UPLOAD with an upload URL on
 * this emulator, or PULL_FROM_URL), `content/init` for photos, and `status/fetch`, whose status
 * moves PROCESSING_UPLOAD/DOWNLOAD → PUBLISH_COMPLETE (or FAILED) as the emulator's clock runs.
 * An init is the commit point: TikTok publishes by itself once the media is there.
 */
export function registerTikTokPublishRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  state: TikTokPublishState,
) {
  /** The checks every init shares: privacy level, the per-minute cap. */
  async function initAllowed(reply: FastifyReply, access: TikTokAccess, postInfo: Obj) {
    const privacy = str(postInfo.privacy_level);
    if (!creatorOffers(access).privacyLevelOptions.includes(privacy)) {
      tiktokError(
        reply,
        403,
        'privacy_level_option_mismatch',
        'privacy_level is not one of the privacy_level_options of creator_info.',
      );
      return false;
    }
    // Branded content cannot be private (content-sharing guidelines); TikTok's code is not documented.
    if (postInfo.brand_content_toggle === true && privacy === 'SELF_ONLY') {
      tiktokError(
        reply,
        400,
        'invalid_params',
        'Branded content cannot be posted with SELF_ONLY privacy.',
      );
      return false;
    }
    // An unaudited app posts only privately (https://developers.tiktok.com/doc/content-sharing-guidelines).
    if ((ctx.unaudited || access.scenario.isOn('unaudited')) && privacy !== 'SELF_ONLY') {
      tiktokError(
        reply,
        403,
        'unaudited_client_can_only_post_to_private_accounts',
        'Unaudited clients can only post with SELF_ONLY privacy, to accounts that are private.',
      );
      return false;
    }
    if (await access.scenario.take('spam_risk_next')) {
      tiktokError(
        reply,
        403,
        'spam_risk_too_many_posts',
        'The daily post cap from the API is reached for the current user.',
      );
      return false;
    }
    const cap = access.scenario.value('publish_cap') ?? TIKTOK_PUBLISHING.initsPerMinute;
    if (await state.takeInit(access.account.id, access.now, cap)) return true;
    reply.header('retry-after', '60');
    tiktokError(reply, 429, 'rate_limit_exceeded', `Only ${cap} posts can be started per minute.`);
    return false;
  }

  /**
   * TikTok pulls only from domains or URL prefixes verified in its developer portal. The emulator
   * counts the host it is served from as verified (Herald's media URLs share it), unless
   * `url_unverified` says the operator has not verified it.
   */
  function unverifiedUrl(reply: FastifyReply, access: TikTokAccess, urls: string[]) {
    const verified = new URL(ctx.publicBase).host;
    const refused = urls.find((u) => {
      if (access.scenario.isOn('url_unverified')) return true;
      try {
        return new URL(u).host !== verified;
      } catch {
        return false;
      }
    });
    if (refused === undefined) return false;
    tiktokError(
      reply,
      403,
      'url_ownership_unverified',
      'The domain or URL prefix of the media URL is not verified for this app.',
    );
    return true;
  }

  async function newJob(access: TikTokAccess, fields: Partial<TikTokJob>): Promise<TikTokJob> {
    const now = access.now;
    const fails = await access.scenario.take('processing_fails');
    const job: TikTokJob = {
      publishId: '',
      accountId: access.account.id,
      username: access.account.username,
      mediaType: 'VIDEO',
      source: 'PULL_FROM_URL',
      postMode: 'DIRECT_POST',
      title: '',
      description: '',
      privacyLevel: '',
      photoCount: 0,
      videoSize: 0,
      chunkSize: 0,
      totalChunks: 0,
      uploadedBytes: 0,
      uploadTokenHash: null,
      createdAt: now,
      receivedAt: null,
      processingMs:
        access.scenario.value('processing_ms') ??
        (fields.mediaType === 'PHOTO'
          ? TIKTOK_PUBLISHING.photoProcessingMs
          : TIKTOK_PUBLISHING.videoProcessingMs),
      moderationMs: access.scenario.value('moderation_ms') ?? 0,
      failReason: fails ? 'file_format_check_failed' : null,
      postId: `7${randomDigits(18)}`,
      ...fields,
    };
    if (job.source === 'PULL_FROM_URL') job.receivedAt = now;
    return job;
  }

  /** Stores the job; with `finalize_timeout`, then hangs like a lost answer (docs/networks.md#scenario-knobs). */
  async function commit(reply: FastifyReply, access: TikTokAccess, job: TikTokJob, data: Obj) {
    const hangMs = (await access.scenario.takeValue('finalize_timeout')) ?? undefined;
    await state.addJob(job);
    if (hangMs === undefined) return tiktokOk(data);
    await sleep(hangMs);
    return tiktokError(reply, 504, 'internal_error', 'The request timed out.');
  }

  scope.post('/v2/post/publish/video/init/', async (request, reply) => {
    const access = await tiktokAccess(request, reply, oauth, 'video.publish');
    if (!access) return reply;
    const body = obj(request.body);
    const postInfo = obj(body.post_info);
    const source = obj(body.source_info);
    const title = str(postInfo.title);
    if (title.length > TIKTOK_PUBLISHING.videoTitleMax)
      return invalid(
        reply,
        `The title is longer than ${TIKTOK_PUBLISHING.videoTitleMax} characters.`,
      );
    const fields: Partial<TikTokJob> = {
      mediaType: 'VIDEO',
      title,
      privacyLevel: str(postInfo.privacy_level),
      postInfo,
    };
    if (source.source === 'FILE_UPLOAD') {
      const plan = {
        videoSize: Number(source.video_size),
        chunkSize: Number(source.chunk_size),
        totalChunks: Number(source.total_chunk_count),
      };
      const problem = chunkPlanProblem(plan);
      if (problem) return invalid(reply, problem);
      Object.assign(fields, plan, { source: 'FILE_UPLOAD' });
    } else if (source.source === 'PULL_FROM_URL') {
      if (pulledUrlProblem(str(source.video_url)) === 'invalid')
        return invalid(reply, 'video_url is not a valid URL.');
      if (unverifiedUrl(reply, access, [str(source.video_url)])) return reply;
    } else return invalid(reply, 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
    if (!(await initAllowed(reply, access, postInfo))) return reply;
    const upload = fields.source === 'FILE_UPLOAD';
    const job = await newJob(access, fields);
    if (!upload && pulledUrlProblem(str(source.video_url), ctx.runsLocally))
      job.failReason = 'video_pull_failed';
    job.publishId = `v_pub_${upload ? 'file' : 'url'}~v2-1.${randomDigits(19)}`;
    const token = upload ? randomToken(24) : null;
    job.uploadTokenHash = token && hashOf(token);
    const data: Obj = { publish_id: job.publishId };
    if (token) data.upload_url = uploadUrl(request, job.publishId, token);
    return commit(reply, access, job, data);
  });

  /**
   * An inbox draft (scope video.upload): only source_info; once the media is there the status is
   * SEND_TO_USER_INBOX and the creator finishes the post in the TikTok app.
   */
  scope.post('/v2/post/publish/inbox/video/init/', async (request, reply) => {
    const access = await tiktokAccess(request, reply, oauth, 'video.upload');
    if (!access) return reply;
    const source = obj(obj(request.body).source_info);
    const fields: Partial<TikTokJob> = { mediaType: 'VIDEO', postMode: 'MEDIA_UPLOAD' };
    if (source.source === 'FILE_UPLOAD') {
      const plan = {
        videoSize: Number(source.video_size),
        chunkSize: Number(source.chunk_size),
        totalChunks: Number(source.total_chunk_count),
      };
      const problem = chunkPlanProblem(plan);
      if (problem) return invalid(reply, problem);
      Object.assign(fields, plan, { source: 'FILE_UPLOAD' });
    } else if (source.source === 'PULL_FROM_URL') {
      if (pulledUrlProblem(str(source.video_url)) === 'invalid')
        return invalid(reply, 'video_url is not a valid URL.');
      if (unverifiedUrl(reply, access, [str(source.video_url)])) return reply;
    } else return invalid(reply, 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
    const cap = access.scenario.value('publish_cap') ?? TIKTOK_PUBLISHING.initsPerMinute;
    if (!(await state.takeInit(access.account.id, access.now, cap))) {
      reply.header('retry-after', '60');
      return tiktokError(
        reply,
        429,
        'rate_limit_exceeded',
        `Only ${cap} posts can be started per minute.`,
      );
    }
    const upload = fields.source === 'FILE_UPLOAD';
    const job = await newJob(access, fields);
    if (!upload && pulledUrlProblem(str(source.video_url), ctx.runsLocally))
      job.failReason = 'video_pull_failed';
    job.publishId = `v_inbox_${upload ? 'file' : 'url'}~v2-1.${randomDigits(19)}`;
    const token = upload ? randomToken(24) : null;
    job.uploadTokenHash = token && hashOf(token);
    const data: Obj = { publish_id: job.publishId };
    if (token) data.upload_url = uploadUrl(request, job.publishId, token);
    return commit(reply, access, job, data);
  });

  /** Where chunks go: this emulator, as the caller reached it (docs/networks.md#sandbox-rules, rule 2: used verbatim). */
  function uploadUrl(request: FastifyRequest, publishId: string, token: string) {
    const publicBase = new URL(ctx.publicBase);
    const base =
      request.host === publicBase.host
        ? ctx.publicBase
        : `${request.protocol}://${request.host}${ctx.mountPath}`;
    return `${base}/upload/${encodeURIComponent(publishId)}?upload_token=${token}`;
  }

  scope.post('/v2/post/publish/content/init/', async (request, reply) => {
    const body = obj(request.body);
    const mode = str(body.post_mode) || 'DIRECT_POST';
    const access = await tiktokAccess(
      request,
      reply,
      oauth,
      mode === 'MEDIA_UPLOAD' ? 'video.upload' : 'video.publish',
    );
    if (!access) return reply;
    const problem = photoInitProblem(body, mode);
    if (problem) return invalid(reply, problem);
    const postInfo = obj(body.post_info);
    const images = obj(body.source_info).photo_images as string[];
    if (unverifiedUrl(reply, access, images)) return reply;
    if (mode === 'DIRECT_POST' && !(await initAllowed(reply, access, postInfo))) return reply;
    const job = await newJob(access, {
      mediaType: 'PHOTO',
      postMode: mode as TikTokJob['postMode'],
      title: str(postInfo.title),
      description: str(postInfo.description),
      privacyLevel: str(postInfo.privacy_level),
      postInfo,
      photoCount: images.length,
    });
    if (images.some((url) => pulledUrlProblem(url, ctx.runsLocally)))
      job.failReason = 'photo_pull_failed';
    else if (await photoRefused(images)) job.failReason = 'picture_size_check_failed';
    job.publishId = `p_pub_url~v2.${randomDigits(19)}`;
    return commit(reply, access, job, { publish_id: job.publishId });
  });

  /**
   * Whether a photo TikTok pulls is one it does not take: not JPEG or WEBP, or over 20 MB
   * (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide, image restrictions).
   * The post then fails with `picture_size_check_failed`, as TikTok reports it after the pull.
   */
  async function photoRefused(urls: string[]): Promise<boolean> {
    for (const url of urls) {
      const file = await fetchReceivedMedia(ctx.fetchMedia, url);
      if (!file) continue;
      if (file.format && !TIKTOK_PUBLISHING.photoFormats.includes(file.format)) return true;
      if (file.size > TIKTOK_PUBLISHING.photoMaxBytes) return true;
    }
    return false;
  }

  scope.post('/v2/post/publish/status/fetch/', async (request, reply) => {
    const access = await tiktokAccess(request, reply, oauth);
    if (!access) return reply;
    if (!['video.publish', 'video.upload'].some((s) => access.scopes.includes(s)))
      return tiktokError(
        reply,
        401,
        'scope_not_authorized',
        'video.publish or video.upload is required.',
      );
    const job = await state.getJob(str(obj(request.body).publish_id));
    if (!job || job.accountId !== access.account.id)
      return invalid(reply, 'publish_id is invalid or does not belong to this user.');
    const view = viewJob(job, access.now);
    const data: Obj = { status: view.status, publicaly_available_post_id: [] };
    if (view.failReason) data.fail_reason = view.failReason;
    if (job.source === 'FILE_UPLOAD') data.uploaded_bytes = job.uploadedBytes;
    else data.downloaded_bytes = job.receivedAt === null ? 0 : job.videoSize;
    // Post ids are int64: written as bare numbers, beyond what a JS number holds (docs/networks.md#tiktok-publishing).
    const json = JSON.stringify(tiktokOk(data));
    const ids = view.postId ? view.postId : '';
    return reply
      .type('application/json; charset=utf-8')
      .send(
        json.replace('"publicaly_available_post_id":[]', `"publicaly_available_post_id":[${ids}]`),
      );
  });
}

function photoInitProblem(body: Obj, mode: string): string | null {
  if (body.media_type !== 'PHOTO') return 'media_type must be PHOTO.';
  if (mode !== 'DIRECT_POST' && mode !== 'MEDIA_UPLOAD')
    return 'post_mode must be DIRECT_POST or MEDIA_UPLOAD.';
  const postInfo = obj(body.post_info);
  const source = obj(body.source_info);
  if (source.source !== 'PULL_FROM_URL') return 'Photos are only taken with PULL_FROM_URL.';
  const images = source.photo_images;
  const { photosMin, photosMax, photoTitleMax, photoDescriptionMax } = TIKTOK_PUBLISHING;
  if (!Array.isArray(images) || images.length < photosMin || images.length > photosMax)
    return `photo_images must hold ${photosMin} to ${photosMax} URLs.`;
  if (images.some((url) => typeof url !== 'string' || pulledUrlProblem(url) === 'invalid'))
    return 'photo_images must be URLs.';
  const cover = Number(source.photo_cover_index ?? 0);
  if (!Number.isInteger(cover) || cover < 0 || cover >= images.length)
    return 'photo_cover_index is out of range.';
  if (str(postInfo.title).length > photoTitleMax)
    return `The title is longer than ${photoTitleMax} characters.`;
  if (str(postInfo.description).length > photoDescriptionMax)
    return `The description is longer than ${photoDescriptionMax} characters.`;
  return null;
}
