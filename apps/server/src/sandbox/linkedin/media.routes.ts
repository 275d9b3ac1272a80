import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import type { KeyedLock } from '../kit/keyed-lock.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { readReceivedMedia } from '../kit/media-facts.js';
import { canReadAs, canWriteAs, ORGANIZATION_SCOPES, type Caller } from './access.js';
import { linkedInErrors } from './errors.js';
import { assetId, type LiImage, type LinkedInPosts, type LiVideo } from './posts-state.js';
import { linkedInRoute, logoImage } from './rest.js';
import type { LinkedInState } from './state.js';

/**
 * The Images and Videos APIs (docs/networks.md#linkedin-publishing, #linkedin-sandbox): initializeUpload answers upload URLs on this
 * emulator, the PUTs take the bytes (counted, not kept), videos are finalized with the parts'
 * ETags, and the status moves WAITING_UPLOAD → PROCESSING → AVAILABLE (or PROCESSING_FAILED).
 */
export const LINKEDIN_MEDIA = {
  /** Video upload parts (❓ 4 MB in the peer and third-party notes). */
  partBytes: 4 * 1024 * 1024,
  maxImageBytes: 36 * 1024 * 1024,
  minVideoBytes: 75 * 1024,
  /** Video length LinkedIn takes (Videos API, "Video specifications"). */
  videoSeconds: { min: 3, max: 30 * 60 },
  maxVideoBytes: 500 * 1024 * 1024,
  processingMs: 1_500,
  uploadUrlsLiveMs: 24 * 60 * 60 * 1000,
} as const;

export interface LinkedInMediaDeps {
  ctx: SandboxContext;
  kit: EmuKit;
  state: LinkedInState;
  posts: LinkedInPosts;
  withLock: KeyedLock;
}

export type AssetStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export function imageStatus(image: LiImage): AssetStatus {
  if (image.uploadedBytes === null) return 'WAITING_UPLOAD';
  return image.fails ? 'PROCESSING_FAILED' : 'AVAILABLE';
}

export function videoStatus(video: LiVideo, now: number): AssetStatus {
  if (video.finalizedAt === null) return 'WAITING_UPLOAD';
  if (now < video.finalizedAt + video.processingMs) return 'PROCESSING';
  return video.fails ? 'PROCESSING_FAILED' : 'AVAILABLE';
}

const uploadBody = (request: FastifyRequest) =>
  Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);

/** Room for a first-placed `moov` box; the rest of a part is checked, not kept. */
const VIDEO_HEAD_BYTES = 256 * 1024;

/**
 * Whether LinkedIn's processing refuses the video for its length, read from the file: 3 s to
 * 30 minutes (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api).
 */
async function durationRefused(video: LiVideo): Promise<boolean> {
  if (!video.head) return false;
  const facts = await readReceivedMedia(Buffer.from(video.head, 'base64'), video.fileSizeBytes);
  const seconds = facts.durationSec;
  const { min, max } = LINKEDIN_MEDIA.videoSeconds;
  return seconds !== null && (seconds < min || seconds > max);
}

export function registerLinkedInMediaRoutes(scope: FastifyInstance, deps: LinkedInMediaDeps) {
  const { kit, state, posts, withLock } = deps;
  const route = linkedInRoute;
  const authenticate = async (request: FastifyRequest): Promise<Caller> =>
    state.authenticate(request.headers.authorization);

  /** `{initializeUploadRequest:{owner,…}}` for an owner the caller may post as. */
  function initRequest(caller: Caller, body: unknown) {
    const init = (body as { initializeUploadRequest?: Record<string, unknown> } | null)
      ?.initializeUploadRequest;
    const owner = typeof init?.owner === 'string' ? init.owner : '';
    if (!owner) throw linkedInErrors.invalid('/initializeUploadRequest/owner', 'field is required');
    if (!canWriteAs(caller, owner)) throw linkedInErrors.denied('assets.ACTION-initializeUpload');
    return { init: init!, owner };
  }

  // Uploads carry raw bytes, whatever type the client names.
  for (const type of ['application/octet-stream', /^image\//, /^video\//])
    scope.addContentTypeParser(type, { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );

  scope.post(
    '/rest/images',
    route(true, async (request) => {
      const caller = await authenticate(request);
      if ((request.query as { action?: string }).action !== 'initializeUpload')
        throw linkedInErrors.badRequest('Unsupported action; use action=initializeUpload.');
      const { owner } = initRequest(caller, request.body);
      const now = await kit.now();
      const image: LiImage = {
        urn: `urn:li:image:${assetId()}`,
        owner,
        secret: randomBytes(16).toString('hex'),
        createdAt: now,
        uploadedBytes: null,
        fails: false,
      };
      await posts.putImage(image);
      return {
        value: {
          uploadUrlExpiresAt: now + LINKEDIN_MEDIA.uploadUrlsLiveMs,
          uploadUrl: `${deps.ctx.publicBase}/upload/image/${encodeURIComponent(image.urn)}/${image.secret}`,
          image: image.urn,
        },
      };
    }),
  );

  scope.put(
    '/upload/image/:urn/:secret',
    { bodyLimit: LINKEDIN_MEDIA.maxImageBytes + 1 },
    route(false, async (request, reply) => {
      const { urn, secret } = request.params as { urn: string; secret: string };
      const caller = request.headers.authorization ? await authenticate(request) : null;
      const image = await posts.getImage(urn);
      if (!image || image.secret !== secret) throw linkedInErrors.notFound('Upload');
      const bytes = uploadBody(request);
      if (!bytes.length) throw linkedInErrors.badRequest('The upload is empty.');
      image.uploadedBytes = bytes.length;
      image.fails =
        !!caller && caller.scenario.isOn('processing_fails')
          ? await caller.scenario.take('processing_fails')
          : false;
      await posts.putImage(image);
      return reply.status(201).send();
    }),
  );

  scope.get(
    '/rest/images/:urn',
    route(true, async (request) => {
      const caller = await authenticate(request);
      const urn = (request.params as { urn: string }).urn;
      // The Images API read needs an organization (Community Management) grant: a member's
      // "Share on LinkedIn" token is refused, whoever owns the image (docs/networks.md#linkedin-conformance).
      if (!caller.grant.scopes.some((s) => ORGANIZATION_SCOPES.includes(s)))
        throw linkedInErrors.denied(`images.GET.${request.headers['linkedin-version']}`);
      const logo = await logoImage(state, kit, urn);
      if (logo) return logo;
      const image = await posts.getImage(urn);
      if (!image) throw linkedInErrors.notFound('Image');
      if (!canWriteAs(caller, image.owner) && !canReadAs(caller, image.owner))
        throw linkedInErrors.denied('images.GET');
      const status = imageStatus(image);
      return {
        id: image.urn,
        owner: image.owner,
        status,
        ...(status === 'AVAILABLE'
          ? {
              downloadUrl: kit.pictureUrl(image.urn, 'Image'),
              downloadUrlExpiresAt: (await kit.now()) + LINKEDIN_MEDIA.uploadUrlsLiveMs,
            }
          : {}),
      };
    }),
  );

  scope.post(
    '/rest/videos',
    route(true, async (request) => {
      const caller = await authenticate(request);
      const action = (request.query as { action?: string }).action;
      if (action === 'initializeUpload') return initializeVideo(caller, request.body);
      if (action === 'finalizeUpload') return finalizeVideo(caller, request.body);
      throw linkedInErrors.badRequest(
        'Unsupported action; use initializeUpload or finalizeUpload.',
      );
    }),
  );

  async function initializeVideo(caller: Caller, body: unknown) {
    const { init, owner } = initRequest(caller, body);
    const size = Number(init.fileSizeBytes);
    if (
      !Number.isInteger(size) ||
      size < LINKEDIN_MEDIA.minVideoBytes ||
      size > LINKEDIN_MEDIA.maxVideoBytes
    )
      throw linkedInErrors.invalid(
        '/initializeUploadRequest/fileSizeBytes',
        `must be between ${LINKEDIN_MEDIA.minVideoBytes} and ${LINKEDIN_MEDIA.maxVideoBytes} bytes`,
      );
    const now = await kit.now();
    const parts = [];
    for (let first = 0; first < size; first += LINKEDIN_MEDIA.partBytes)
      parts.push({
        firstByte: first,
        lastByte: Math.min(size, first + LINKEDIN_MEDIA.partBytes) - 1,
        etag: null,
      });
    const video: LiVideo = {
      urn: `urn:li:video:${assetId()}`,
      owner,
      secret: randomBytes(16).toString('hex'),
      fileSizeBytes: size,
      // One part needs no token to tie the parts together.
      uploadToken: parts.length > 1 ? randomBytes(24).toString('base64url') : '',
      parts,
      createdAt: now,
      finalizedAt: null,
      processingMs: LINKEDIN_MEDIA.processingMs,
      fails: false,
    };
    await posts.putVideo(video);
    const base = `${deps.ctx.publicBase}/upload/video/${encodeURIComponent(video.urn)}`;
    return {
      value: {
        video: video.urn,
        uploadToken: video.uploadToken,
        uploadUrlsExpireAt: now + LINKEDIN_MEDIA.uploadUrlsLiveMs,
        uploadInstructions: parts.map((p, i) => ({
          uploadUrl: `${base}/${i}/${video.secret}`,
          firstByte: p.firstByte,
          lastByte: p.lastByte,
        })),
      },
    };
  }

  async function finalizeVideo(caller: Caller, body: unknown) {
    const request = (body as { finalizeUploadRequest?: Record<string, unknown> } | null)
      ?.finalizeUploadRequest;
    const urn = typeof request?.video === 'string' ? request.video : '';
    return withLock(`video:${urn}`, async () => {
      const video = await posts.getVideo(urn);
      if (!video) throw linkedInErrors.notFound('Video');
      if (!canWriteAs(caller, video.owner))
        throw linkedInErrors.denied('videos.ACTION-finalizeUpload');
      if ((request?.uploadToken ?? '') !== video.uploadToken)
        throw linkedInErrors.badRequest('The uploadToken does not belong to this upload.');
      const sent = Array.isArray(request?.uploadedPartIds) ? request.uploadedPartIds : [];
      const etags = video.parts.map((p) => p.etag);
      if (
        etags.includes(null) ||
        sent.length !== etags.length ||
        sent.some((id, i) => id !== etags[i])
      )
        throw linkedInErrors.badRequest(
          'uploadedPartIds must list the ETag of every uploaded part, in order.',
        );
      if (video.finalizedAt === null) {
        video.finalizedAt = await kit.now();
        const ms = caller.scenario.number('processing_ms');
        video.processingMs = caller.scenario.isOn('processing_ms')
          ? ms
          : LINKEDIN_MEDIA.processingMs;
        video.fails =
          (caller.scenario.isOn('processing_fails')
            ? await caller.scenario.take('processing_fails')
            : false) || (await durationRefused(video));
        await posts.putVideo(video);
      }
      return {};
    });
  }

  scope.put(
    '/upload/video/:urn/:part/:secret',
    { bodyLimit: LINKEDIN_MEDIA.partBytes + 1 },
    route(false, async (request, reply) => {
      const { urn, part, secret } = request.params as { urn: string; part: string; secret: string };
      if (request.headers.authorization) await authenticate(request);
      const bytes = uploadBody(request);
      const etag = await withLock(`video:${urn}`, async () => {
        const video = await posts.getVideo(urn);
        const slot = video?.parts[Number(part)];
        if (!video || video.secret !== secret || !slot) throw linkedInErrors.notFound('Upload');
        if (bytes.length !== slot.lastByte - slot.firstByte + 1)
          throw linkedInErrors.badRequest(
            `This part takes bytes ${slot.firstByte}–${slot.lastByte} (${slot.lastByte - slot.firstByte + 1} bytes), not ${bytes.length}.`,
          );
        slot.etag = `/${createHash('sha1').update(bytes).digest('base64url')}`;
        if (Number(part) === 0) video.head = bytes.subarray(0, VIDEO_HEAD_BYTES).toString('base64');
        await posts.putVideo(video);
        return slot.etag;
      });
      return reply.status(200).header('etag', etag).send();
    }),
  );

  scope.get(
    '/rest/videos/:urn',
    route(true, async (request) => {
      const caller = await authenticate(request);
      const video = await posts.getVideo((request.params as { urn: string }).urn);
      if (!video) throw linkedInErrors.notFound('Video');
      if (!canWriteAs(caller, video.owner) && !canReadAs(caller, video.owner))
        throw linkedInErrors.denied('videos.GET');
      const status = videoStatus(video, await kit.now());
      return {
        id: video.urn,
        owner: video.owner,
        status,
        ...(status === 'PROCESSING_FAILED'
          ? { processingFailureReason: 'The video could not be transcoded.' }
          : {}),
      };
    }),
  );
}
