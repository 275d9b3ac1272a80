import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callFault } from '../kit/call-knobs.js';
import { avatarDataUrl, bearerToken } from '../kit/consent.js';
import { MEDIA_HEAD_BYTES, readReceivedMedia } from '../kit/media-facts.js';
import type { AccessCheck, SandboxOAuth } from '../kit/oauth-state.js';
import { randomToken } from '../kit/secrets.js';
import { emuTenant } from '../kit/tenant.js';
import type { SandboxStore } from '../store.js';
import {
  authFailed,
  invalid,
  mediaId,
  PINTEREST_EMULATOR as P,
  pinterestError,
  pinterestId,
} from './responses.js';
import { registerUploadBodyParser, type ReceivedUpload } from './upload-body.js';

type Access = Extract<AccessCheck, { ok: true }>;
type Body = Record<string, unknown>;

export interface SandboxBoard {
  id: string;
  accountId: string;
  name: string;
  description: string;
  privacy: 'PUBLIC' | 'PROTECTED' | 'SECRET';
  createdAt: number;
}

export interface SandboxPin {
  id: string;
  accountId: string;
  boardId: string;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  /** `image`, `multiple_images` or `video`, and the number of images of a carousel. */
  mediaType: 'image' | 'multiple_images' | 'video';
  images: number;
  hasCover: boolean;
  createdAt: number;
  stats: Record<string, number>;
}

interface SandboxMedia {
  id: string;
  accountId: string;
  /** The form's one-time key: only an upload bringing it is taken. */
  uploadKey: string;
  status: 'registered' | 'processing' | 'succeeded' | 'failed';
  uploadedAt: number | null;
  /** Whether the received file is a video Pinterest processes: mp4/mov/m4v, 4 s–15 min, ≤ 2 GB. */
  playable: boolean | null;
}

const codepoints = (s: string) => [...s].length;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A base64 image as Pinterest reads it: the declared type must be one it takes, and be the bytes'. */
async function checkImage(
  contentType: unknown,
  data: unknown,
  what: string,
): Promise<string | null> {
  if (typeof contentType !== 'string' || !(P.imageTypes as readonly string[]).includes(contentType))
    return `Invalid ${what}: content_type must be one of image/jpeg, image/png.`;
  if (typeof data !== 'string' || !data) return `Invalid ${what}: data is required.`;
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > P.imageMaxBytes)
    return `Invalid ${what}: the image is ${bytes.length} bytes; images may be at most 20 MB.`;
  const facts = await readReceivedMedia(bytes.subarray(0, MEDIA_HEAD_BYTES), bytes.length);
  if (facts.kind !== 'image' || facts.format !== P.imageFormats[contentType])
    return `Invalid ${what}: the data is not a ${contentType} image.`;
  return null;
}

/**
 * Pinterest API v5 as the emulator plays it (docs/networks.md#pinterest-sandbox): the user
 * account, boards, the video media flow (register, form upload to the storage URL, status), pins
 * (one image, a carousel of 2–5, or a processed video with its cover) and their analytics, with
 * Pinterest's `{code, message}` refusals. Knobs: the connection and publishing ones;
 * `processing_ms` and `processing_fails` for videos; `finalize_timeout` makes the pin and loses
 * the answer. An app the sandbox treats as unaudited has Trial access: pins answer code 29.
 */
export function registerPinterestApiRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  store: SandboxStore,
  publicBase: string,
  trialAccess: boolean,
) {
  registerUploadBodyParser(scope);

  async function access(
    request: FastifyRequest,
    reply: FastifyReply,
    scopes: string[],
  ): Promise<Access | null> {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) {
      authFailed(reply);
      return null;
    }
    const fault = await callFault(check.scenario);
    if (fault === 'rate_limit') {
      pinterestError(reply, 429, 8, 'You have exceeded your rate limit. Try again later.');
      return null;
    }
    if (fault === 'fail') {
      pinterestError(reply, 500, 0, 'Internal error. Please try again later.');
      return null;
    }
    const missing = scopes.filter((s) => !check.scopes.includes(s));
    if (missing.length) {
      reply.status(401).send({
        code: 3,
        message: `Authorization failed. The token is missing required scopes: ${missing.join(', ')}.`,
        status: 'failure',
      });
      return null;
    }
    return check;
  }

  const boardsOf = async (accountId: string) =>
    (await store.list<SandboxBoard>('board'))
      .map((r) => r.data)
      .filter((b) => b.accountId === accountId)
      .sort((a, b) => a.createdAt - b.createdAt);

  const boardResource = async (b: SandboxBoard) => ({
    id: b.id,
    created_at: new Date(b.createdAt).toISOString(),
    board_pins_modified_at: new Date(b.createdAt).toISOString(),
    name: b.name,
    description: b.description,
    collaborator_count: 0,
    pin_count: (await pinsOf(b.id)).length,
    follower_count: 0,
    privacy: b.privacy,
    owner: { username: (await oauth.getAccount(b.accountId))?.username ?? '' },
  });

  const pinsOf = async (boardId: string) =>
    (await store.list<SandboxPin>('pin'))
      .map((r) => r.data)
      .filter((p) => p.boardId === boardId)
      .sort((a, b) => b.createdAt - a.createdAt);

  const pinResource = (p: SandboxPin) => ({
    id: p.id,
    created_at: new Date(p.createdAt).toISOString(),
    link: p.link,
    title: p.title,
    description: p.description,
    alt_text: p.altText,
    board_id: p.boardId,
    board_section_id: null,
    board_owner: {},
    is_owner: true,
    media: { media_type: p.mediaType },
    parent_pin_id: null,
    is_standard: true,
    has_been_promoted: false,
    creative_type:
      p.mediaType === 'video'
        ? 'VIDEO'
        : p.mediaType === 'multiple_images'
          ? 'CAROUSEL'
          : 'REGULAR',
  });

  /** Where a video stands: processing takes `processing_ms` after the upload. */
  async function statusOf(m: SandboxMedia, a: Access): Promise<SandboxMedia['status']> {
    if (m.status !== 'processing' || m.uploadedAt === null) return m.status;
    const takes = a.scenario.value('processing_ms') ?? P.processingMs;
    if (a.now - m.uploadedAt < takes) return 'processing';
    const failed = !m.playable || (await a.scenario.take('processing_fails'));
    const done = { ...m, status: failed ? ('failed' as const) : ('succeeded' as const) };
    await store.put('media', m.id, done);
    return done.status;
  }

  scope.get('/v5/user_account', async (request, reply) => {
    const a = await access(request, reply, ['user_accounts:read']);
    if (!a) return;
    const boards = await boardsOf(a.account.id);
    return {
      account_type: 'BUSINESS',
      id: a.account.id,
      profile_image: avatarDataUrl(a.account.name, 355),
      website_url: '',
      username: a.account.username,
      about: '',
      business_name: a.account.name,
      board_count: boards.length,
      pin_count: 0,
      follower_count: 0,
      following_count: 0,
      monthly_views: 0,
    };
  });

  scope.get('/v5/boards', async (request, reply) => {
    const a = await access(request, reply, ['boards:read']);
    if (!a) return;
    const q = request.query as Record<string, string | undefined>;
    const size = Number(q.page_size ?? 25);
    if (!Number.isInteger(size) || size < 1 || size > P.boardsPageMax)
      return invalid(
        reply,
        `Invalid parameter: page_size must be between 1 and ${P.boardsPageMax}.`,
      );
    const all = await boardsOf(a.account.id);
    const from = q.bookmark ? Number(Buffer.from(q.bookmark, 'base64url').toString()) || 0 : 0;
    const page = all.slice(from, from + size);
    const next =
      from + size < all.length ? Buffer.from(String(from + size)).toString('base64url') : null;
    return { items: await Promise.all(page.map(boardResource)), bookmark: next };
  });

  scope.post('/v5/boards', async (request, reply) => {
    const a = await access(request, reply, ['boards:write']);
    if (!a) return;
    const body = (request.body ?? {}) as Body;
    const name = str(body.name)?.trim();
    if (!name) return invalid(reply, 'Missing request body property: name.');
    if (codepoints(name) > P.boardName)
      return invalid(
        reply,
        `Invalid request body: name must be at most ${P.boardName} characters.`,
      );
    const description = str(body.description) ?? '';
    if (codepoints(description) > P.boardDescription)
      return invalid(
        reply,
        `Invalid request body: description must be at most ${P.boardDescription} characters.`,
      );
    const privacy = str(body.privacy) ?? 'PUBLIC';
    if (!['PUBLIC', 'PROTECTED', 'SECRET'].includes(privacy))
      return invalid(
        reply,
        'Invalid request body: privacy must be one of PUBLIC, PROTECTED, SECRET.',
      );
    if ((await boardsOf(a.account.id)).some((b) => b.name.toLowerCase() === name.toLowerCase()))
      return pinterestError(reply, 409, 58, 'You already have a board with this name.');
    const board: SandboxBoard = {
      id: pinterestId(),
      accountId: a.account.id,
      name,
      description,
      privacy: privacy as SandboxBoard['privacy'],
      createdAt: a.now,
    };
    await store.put('board', board.id, board);
    return reply.status(201).send(await boardResource(board));
  });

  scope.get('/v5/boards/:boardId/pins', async (request, reply) => {
    const a = await access(request, reply, ['boards:read', 'pins:read']);
    if (!a) return;
    const { boardId } = request.params as { boardId: string };
    const board = await store.get<SandboxBoard>('board', boardId);
    if (!board || board.accountId !== a.account.id)
      return pinterestError(reply, 404, 40, 'Board not found.');
    const size = Math.min(Number((request.query as Body).page_size ?? 25) || 25, 250);
    const pins = await pinsOf(boardId);
    return {
      items: pins.slice(0, size).map(pinResource),
      bookmark: pins.length > size ? randomToken(12) : null,
    };
  });

  /** POST /v5/media: registers a video upload and answers the storage form to send it with. */
  scope.post('/v5/media', async (request, reply) => {
    const a = await access(request, reply, ['pins:write']);
    if (!a) return;
    const body = (request.body ?? {}) as Body;
    if (body.media_type !== 'video')
      return invalid(reply, 'Invalid request body: media_type must be video.');
    const media: SandboxMedia = {
      id: mediaId(),
      accountId: a.account.id,
      uploadKey: randomToken(16),
      status: 'registered',
      uploadedAt: null,
      playable: null,
    };
    await store.put('media', media.id, media);
    return reply.status(201).send({
      media_id: media.id,
      media_type: 'video',
      upload_url: `${publicBase}/media-upload/`,
      upload_parameters: {
        'x-amz-date': new Date(a.now).toISOString().replace(/[-:]|\.\d{3}/g, ''),
        'x-amz-signature': randomToken(16),
        'x-amz-security-token': randomToken(24),
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        key: `${media.id}/${media.uploadKey}`,
        policy: Buffer.from(JSON.stringify({ media: media.id })).toString('base64'),
        'x-amz-credential': `EMULATOR/${new Date(a.now).toISOString().slice(0, 10).replace(/-/g, '')}/us-east-1/s3/aws4_request`,
        'Content-Type': 'multipart/form-data',
      },
    });
  });

  /** The storage behind `upload_url`: an S3-style form POST, 204 when taken. */
  scope.post('/media-upload/', { bodyLimit: P.videoMaxBytes * 2 }, async (request, reply) => {
    const received = request.body as ReceivedUpload;
    const [id, key] = (received.fields.key ?? '').split('/');
    const media = id ? await store.get<SandboxMedia>('media', id) : null;
    if (!media || media.uploadKey !== key || media.status !== 'registered')
      return reply
        .status(403)
        .type('application/xml')
        .send(
          '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy</Message></Error>',
        );
    if (!received.file)
      return reply
        .status(400)
        .type('application/xml')
        .send(
          '<Error><Code>InvalidArgument</Code><Message>POST requires exactly one file upload per request.</Message></Error>',
        );
    const facts = await readReceivedMedia(received.file.head, received.file.size);
    const playable =
      facts.kind === 'video' &&
      facts.format === 'mp4' &&
      facts.size <= P.videoMaxBytes &&
      facts.durationSec !== null &&
      facts.durationSec >= P.videoMinSeconds &&
      facts.durationSec <= P.videoMaxSeconds;
    await store.put('media', media.id, {
      ...media,
      status: 'processing',
      uploadedAt: await oauth.now(),
      playable,
    });
    return reply.status(204).send();
  });

  scope.get('/v5/media/:mediaId', async (request, reply) => {
    const a = await access(request, reply, ['pins:read']);
    if (!a) return;
    const { mediaId: id } = request.params as { mediaId: string };
    const media = await store.get<SandboxMedia>('media', id);
    if (!media || media.accountId !== a.account.id)
      return pinterestError(reply, 404, 4, 'Media not found.');
    return { media_id: media.id, media_type: 'video', status: await statusOf(media, a) };
  });

  /** What a pin's `media_source` makes, or Pinterest's refusal. */
  async function mediaOf(
    source: unknown,
    a: Access,
  ): Promise<
    | { ok: true; made: Pick<SandboxPin, 'mediaType' | 'images' | 'hasCover'> }
    | { ok: false; message: string }
  > {
    if (!source || typeof source !== 'object')
      return { ok: false, message: 'Missing request body property: media_source.' };
    const s = source as Body;
    if (s.source_type === 'image_base64') {
      const problem = await checkImage(s.content_type, s.data, 'image');
      return problem
        ? { ok: false, message: problem }
        : { ok: true, made: { mediaType: 'image', images: 1, hasCover: false } };
    }
    if (s.source_type === 'multiple_image_base64') {
      const items = Array.isArray(s.items) ? (s.items as Body[]) : [];
      if (items.length < P.carouselMin || items.length > P.carouselMax)
        return {
          ok: false,
          message: `Invalid media_source: items must contain between ${P.carouselMin} and ${P.carouselMax} images.`,
        };
      for (const [i, item] of items.entries()) {
        const problem = await checkImage(item.content_type, item.data, `image ${i + 1}`);
        if (problem) return { ok: false, message: problem };
      }
      return {
        ok: true,
        made: { mediaType: 'multiple_images', images: items.length, hasCover: false },
      };
    }
    if (s.source_type === 'video_id') {
      const media =
        typeof s.media_id === 'string' ? await store.get<SandboxMedia>('media', s.media_id) : null;
      if (!media || media.accountId !== a.account.id)
        return { ok: false, message: 'Invalid media_source: media not found.' };
      const status = await statusOf(media, a);
      if (status !== 'succeeded')
        return {
          ok: false,
          message:
            status === 'failed'
              ? 'Invalid media_source: the video failed processing.'
              : 'Invalid media_source: the video is not ready yet; wait until its status is succeeded.',
        };
      const hasCover = s.cover_image_data !== undefined || s.cover_image_url !== undefined;
      if (!hasCover && typeof s.cover_image_key_frame_time !== 'number')
        return {
          ok: false,
          message:
            'Invalid media_source: one of cover_image_url, cover_image_data or cover_image_key_frame_time is required.',
        };
      if (s.cover_image_data !== undefined) {
        const problem = await checkImage(
          s.cover_image_content_type,
          s.cover_image_data,
          'cover image',
        );
        if (problem) return { ok: false, message: problem };
      }
      return { ok: true, made: { mediaType: 'video', images: 0, hasCover } };
    }
    return {
      ok: false,
      message: `Invalid media_source: unsupported source_type ${String(s.source_type)}.`,
    };
  }

  scope.post('/v5/pins', { bodyLimit: 200 * 1024 * 1024 }, async (request, reply) => {
    const a = await access(request, reply, ['boards:read', 'pins:write']);
    if (!a) return;
    if (trialAccess)
      return pinterestError(
        reply,
        403,
        29,
        'Apps with Trial access may not create Pins in production. Please use API Sandbox (https://api-sandbox.pinterest.com/v5) to create Pins with Trial access.',
      );
    const body = (request.body ?? {}) as Body;
    const boardId = str(body.board_id);
    if (!boardId) return invalid(reply, 'Missing request body property: board_id.');
    const board = await store.get<SandboxBoard>('board', boardId);
    if (!board || board.accountId !== a.account.id)
      return pinterestError(reply, 404, 40, 'Board not found.');
    const limits: Array<[string, number]> = [
      ['title', P.title],
      ['description', P.description],
      ['link', P.link],
      ['alt_text', P.altText],
    ];
    for (const [field, max] of limits) {
      const value = body[field];
      if (value !== undefined && typeof value !== 'string')
        return invalid(reply, `Invalid request body: ${field} must be a string.`);
      if (typeof value === 'string' && codepoints(value) > max)
        return invalid(reply, `Invalid request body: ${field} is longer than ${max} characters.`);
    }
    const link = str(body.link);
    if (link && !/^https?:\/\/[^\s]+$/i.test(link))
      return invalid(reply, 'Invalid request body: link must be a valid URL.');
    const media = await mediaOf(body.media_source, a);
    if (!media.ok) return invalid(reply, media.message);
    const pin: SandboxPin = {
      id: pinterestId(),
      accountId: a.account.id,
      boardId,
      title: str(body.title) ?? null,
      description: str(body.description) ?? null,
      link: link ?? null,
      altText: str(body.alt_text) ?? null,
      ...media.made,
      createdAt: a.now,
      stats: {},
    };
    await store.put('pin', pin.id, pin);
    // finalize_timeout: the pin is made, then the answer is lost.
    if ((await a.scenario.takeValue('finalize_timeout')) !== null) {
      reply.hijack();
      reply.raw.destroy();
      request.raw.destroy();
      return;
    }
    return reply.status(201).send(pinResource(pin));
  });

  scope.get('/v5/pins/:pinId', async (request, reply) => {
    const a = await access(request, reply, ['pins:read']);
    if (!a) return;
    const pin = await store.get<SandboxPin>('pin', (request.params as { pinId: string }).pinId);
    if (!pin || pin.accountId !== a.account.id)
      return pinterestError(reply, 404, 50, 'Pin not found.');
    return pinResource(pin);
  });

  /** GET /v5/pins/{id}/analytics: the range's sums of what the test set, per metric asked. */
  scope.get('/v5/pins/:pinId/analytics', async (request, reply) => {
    const a = await access(request, reply, ['pins:read']);
    if (!a) return;
    const pin = await store.get<SandboxPin>('pin', (request.params as { pinId: string }).pinId);
    if (!pin || pin.accountId !== a.account.id)
      return pinterestError(reply, 404, 50, 'Pin not found.');
    const q = request.query as Record<string, string | undefined>;
    const day = /^\d{4}-\d{2}-\d{2}$/;
    if (!q.start_date || !q.end_date || !day.test(q.start_date) || !day.test(q.end_date))
      return invalid(
        reply,
        'Missing or invalid query parameters: start_date, end_date (YYYY-MM-DD).',
      );
    if (!q.metric_types) return invalid(reply, 'Missing query parameter: metric_types.');
    const today = new Date(a.now).toISOString().slice(0, 10);
    const earliest = new Date(a.now - (P.analyticsDays - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    if (q.start_date < earliest || q.end_date > today || q.start_date > q.end_date)
      return invalid(
        reply,
        `Invalid query parameters: the range must be within the last ${P.analyticsDays} days.`,
      );
    const asked = q.metric_types.split(',').map((m) => m.trim());
    const sums: Record<string, number> = {};
    for (const metric of asked) {
      if (metric.startsWith('VIDEO_') && pin.mediaType !== 'video') continue;
      sums[metric] = pin.stats[metric] ?? 0;
    }
    return {
      all: {
        daily_metrics: [{ date: today, data_status: 'READY', metrics: sums }],
        summary_metrics: sums,
        lifetime_metrics: sums,
      },
    };
  });

  /** Test control: a pin's counts, by Pinterest's metric names (IMPRESSION, SAVE…). */
  scope.post('/_emu/pins/stats', async (request, reply) => {
    const tenant = emuTenant(request);
    const body = (request.body ?? {}) as { pinId?: string; stats?: Record<string, number> };
    const pin = body.pinId ? await store.get<SandboxPin>('pin', body.pinId) : null;
    if (!pin || !tenant.owns(pin.accountId))
      return reply.status(404).send({ error: 'No pin of your sandbox accounts has this id.' });
    await store.put('pin', pin.id, { ...pin, stats: { ...pin.stats, ...(body.stats ?? {}) } });
    return { ok: true };
  });

  /** Assertions: the pins of the caller's sandbox accounts, oldest first. */
  scope.get('/_emu/pins', async (request) => {
    const tenant = emuTenant(request);
    const pins = (await store.list<SandboxPin>('pin'))
      .map((r) => r.data)
      .filter((p) => tenant.owns(p.accountId))
      .sort((x, y) => x.createdAt - y.createdAt);
    return { pins };
  });
}
