import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyedLock } from '../kit/keyed-lock.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import type { XAccess, XCaller } from './access.js';
import { MEDIA_HEAD_BYTES, readReceivedMedia } from '../kit/media-facts.js';
import { X_MEDIA_CATEGORIES, X_PUBLISHING, xFailures, xRoute } from './responses.js';
import { snowflake, type XMedia, type XPublishingStore } from './store.js';

/**
 * Media upload (docs/networks.md#x-publishing, #x-sandbox): the chunked `initialize → append → finalize`
 * endpoints, the STATUS poll, and the older `POST /2/media/upload` with `command=INIT|APPEND|
 * FINALIZE` or a one-shot image. Bytes are counted, not kept.
 */
export interface XMediaDeps {
  oauth: SandboxOAuth;
  access: XAccess;
  posts: XPublishingStore;
  withLock: KeyedLock;
}

type Fields = Record<string, unknown>;
const SCOPES = ['media.write'];

const fieldsOf = (request: FastifyRequest): Fields =>
  request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)
    ? (request.body as Fields)
    : {};

/** The category X would pick for a type, as its upload clients do. */
const defaultCategory = (type: string) =>
  type === 'image/gif' ? 'tweet_gif' : type.startsWith('video/') ? 'tweet_video' : 'tweet_image';

/** The processing state X reports for media at `now` (docs/networks.md#x-sandbox: pending → in_progress → done). */
export function processingInfo(media: XMedia, now: number) {
  if (!X_MEDIA_CATEGORIES[media.category]?.processes || media.finalizedAt === null) return null;
  const elapsed = now - media.finalizedAt;
  if (elapsed >= media.processingMs)
    return media.fails
      ? {
          state: 'failed',
          progress_percent: 100,
          error: {
            code: 1,
            name: 'InvalidMedia',
            message: media.failure ?? 'Unsupported video format',
          },
        }
      : { state: 'succeeded', progress_percent: 100 };
  const check_after_secs = Math.max(1, Math.ceil((media.processingMs - elapsed) / 1000));
  if (elapsed < media.processingMs / 4) return { state: 'pending', check_after_secs };
  const progress_percent = Math.floor((elapsed / media.processingMs) * 100);
  return { state: 'in_progress', check_after_secs, progress_percent };
}

/** Media the caller may use: theirs, finalized or not. */
async function ownMedia(deps: XMediaDeps, caller: XCaller, id: unknown): Promise<XMedia> {
  const media = typeof id === 'string' ? await deps.posts.getMedia(id) : null;
  if (!media || media.accountId !== caller.account.id)
    throw xFailures.invalid(`The media_id [${String(id)}] does not exist.`, {
      media_id: [String(id)],
    });
  return media;
}

/** Room for a first-placed `moov` box; the rest of a segment is counted, not kept. */
const HEAD_BYTES = Math.min(MEDIA_HEAD_BYTES, 256 * 1024);

/**
 * Why X's processing refuses a video, or undefined: its duration, read from the file, outside
 * 0.5–140 s (https://docs.x.com/x-api/media/quickstart/best-practices). GIFs have no such rule.
 */
async function videoRefusal(media: XMedia): Promise<string | undefined> {
  if (!media.mediaType.startsWith('video/') || !media.head) return undefined;
  const facts = await readReceivedMedia(Buffer.from(media.head, 'base64'), media.totalBytes);
  const seconds = facts.durationSec;
  if (seconds === null) return undefined;
  const { min, max } = X_PUBLISHING.videoSeconds;
  if (seconds < min)
    return `Invalid or Unsupported media, Reason: Duration too short (${seconds} s; minimum ${min} s).`;
  if (seconds > max)
    return `Invalid or Unsupported media, Reason: Duration too long (${seconds} s; maximum ${max} s).`;
  return undefined;
}

export function registerXMediaRoutes(scope: FastifyInstance, deps: XMediaDeps) {
  const { oauth, posts, withLock } = deps;

  async function initialize(caller: XCaller, f: Fields) {
    const mediaType = typeof f.media_type === 'string' ? f.media_type : '';
    const totalBytes = Number(f.total_bytes);
    const category =
      typeof f.media_category === 'string' ? f.media_category : defaultCategory(mediaType);
    const rules = X_MEDIA_CATEGORIES[category];
    if (!rules)
      throw xFailures.invalid(`media_category [${category}] is not supported.`, {
        media_category: [category],
      });
    if (!rules.types.includes(mediaType))
      throw xFailures.invalid(`media_type [${mediaType}] is not supported for ${category}.`, {
        media_type: [mediaType],
      });
    if (!Number.isInteger(totalBytes) || totalBytes <= 0 || totalBytes > rules.maxBytes)
      throw xFailures.invalid(
        `total_bytes must be between 1 and ${rules.maxBytes} for ${category}.`,
        { total_bytes: [String(f.total_bytes)] },
      );
    const now = await oauth.now();
    const id = snowflake(now);
    const media: XMedia = {
      id,
      key: `${rules.keyPrefix}_${id}`,
      accountId: caller.account.id,
      mediaType,
      category,
      totalBytes,
      segments: {},
      createdAt: now,
      finalizedAt: null,
      processingMs: X_PUBLISHING.processingMs,
      fails: false,
    };
    await posts.putMedia(media);
    return {
      data: { id, media_key: media.key, expires_after_secs: X_PUBLISHING.mediaExpiresSeconds },
    };
  }

  async function append(caller: XCaller, id: unknown, f: Fields) {
    const chunk = Buffer.isBuffer(f.media)
      ? f.media
      : typeof f.media === 'string'
        ? Buffer.from(f.media, 'base64')
        : null;
    if (!chunk?.length) throw xFailures.invalid('media is required.', { media: [] });
    if (chunk.length > X_PUBLISHING.maxChunkBytes)
      throw xFailures.invalid(`A segment may be at most ${X_PUBLISHING.maxChunkBytes} bytes.`, {
        media: [],
      });
    const index = Number(f.segment_index);
    return withLock(`media:${String(id)}`, async () => {
      const media = await ownMedia(deps, caller, id);
      if (media.finalizedAt !== null)
        throw xFailures.invalid(`The media_id [${media.id}] is already finalized.`);
      const received = Object.keys(media.segments).length;
      // A segment may be sent again; a new one must come right after the last.
      if (
        !Number.isInteger(index) ||
        index < 0 ||
        index >= X_PUBLISHING.maxSegments ||
        index > received
      )
        throw xFailures.invalid(
          `segment_index must be between 0 and ${Math.min(received, X_PUBLISHING.maxSegments - 1)}.`,
          { segment_index: [String(f.segment_index)] },
        );
      media.segments[String(index)] = chunk.length;
      if (index === 0) media.head = chunk.subarray(0, HEAD_BYTES).toString('base64');
      await posts.putMedia(media);
      return {
        data: {
          expires_at: Math.floor(media.createdAt / 1000) + X_PUBLISHING.mediaExpiresSeconds,
        },
      };
    });
  }

  async function finalize(caller: XCaller, id: unknown) {
    const { media, now } = await withLock(`media:${String(id)}`, async () => {
      const media = await ownMedia(deps, caller, id);
      const now = await oauth.now();
      if (media.finalizedAt !== null) return { media, now };
      const received = Object.values(media.segments).reduce((a, b) => a + b, 0);
      if (received !== media.totalBytes)
        throw xFailures.invalid(
          `Segments do not add up to provided total file size (${received} of ${media.totalBytes} bytes).`,
        );
      media.finalizedAt = now;
      if (X_MEDIA_CATEGORIES[media.category]!.processes) {
        media.processingMs = caller.scenario.value('processing_ms') ?? X_PUBLISHING.processingMs;
        media.failure = await videoRefusal(media);
        media.fails = (await caller.scenario.take('processing_fails')) || !!media.failure;
      }
      await posts.putMedia(media);
      return { media, now };
    });
    return mediaAnswer(media, now);
  }

  const mediaAnswer = (media: XMedia, now: number) => {
    const info = processingInfo(media, now);
    return {
      data: {
        id: media.id,
        media_key: media.key,
        size: media.totalBytes,
        expires_after_secs: Math.max(
          0,
          X_PUBLISHING.mediaExpiresSeconds - Math.floor((now - media.createdAt) / 1000),
        ),
        ...(info ? { processing_info: info } : {}),
      },
    };
  };

  const withBigBodies = { bodyLimit: X_PUBLISHING.uploadBodyLimit };

  scope.post(
    '/2/media/upload/initialize',
    xRoute(async (request) => initialize(await deps.access(request, SCOPES), fieldsOf(request))),
  );

  scope.post(
    '/2/media/upload/:id/append',
    withBigBodies,
    xRoute(async (request) => {
      const caller = await deps.access(request, SCOPES);
      return append(caller, (request.params as { id: string }).id, fieldsOf(request));
    }),
  );

  scope.post(
    '/2/media/upload/:id/finalize',
    xRoute(async (request) => {
      const caller = await deps.access(request, SCOPES);
      return finalize(caller, (request.params as { id: string }).id);
    }),
  );

  scope.get(
    '/2/media/upload',
    xRoute(async (request) => {
      const caller = await deps.access(request, SCOPES);
      const q = request.query as Record<string, string | undefined>;
      if (q.command !== 'STATUS')
        throw xFailures.invalid('command must be STATUS.', { command: [q.command ?? ''] });
      const media = await ownMedia(deps, caller, q.media_id);
      if (media.finalizedAt === null)
        throw xFailures.invalid(`The media_id [${media.id}] has not been finalized.`);
      return mediaAnswer(media, await oauth.now());
    }),
  );

  // docs/product.md#alt-text: `{id, metadata: {alt_text: {text}}}`, at most 1,000 characters.
  scope.post(
    '/2/media/metadata',
    xRoute(async (request) => {
      const caller = await deps.access(request, SCOPES);
      const f = fieldsOf(request);
      const metadata = (f.metadata ?? {}) as { alt_text?: { text?: unknown } };
      const text = metadata.alt_text?.text;
      if (typeof text !== 'string')
        throw xFailures.invalid('metadata.alt_text.text is required.', {
          'metadata.alt_text.text': [],
        });
      if (text.length > 1000)
        throw xFailures.invalid('metadata.alt_text.text must be at most 1000 characters.', {
          'metadata.alt_text.text': [String(text.length)],
        });
      return withLock(`media:${String(f.id)}`, async () => {
        const media = await ownMedia(deps, caller, f.id);
        media.altText = text;
        await posts.putMedia(media);
        return { data: { id: media.id, associated_metadata: { alt_text: { text } } } };
      });
    }),
  );

  // The older form: one endpoint with a command, or a whole image in one request.
  scope.post(
    '/2/media/upload',
    withBigBodies,
    xRoute(async (request, reply) => {
      const caller = await deps.access(request, SCOPES);
      const f = { ...(request.query as Fields), ...fieldsOf(request) };
      switch (f.command) {
        case 'INIT':
          return initialize(caller, f);
        case 'APPEND':
          await append(caller, f.media_id, f);
          return reply.status(204).send();
        case 'FINALIZE':
          return finalize(caller, f.media_id);
        case undefined: {
          const bytes = Buffer.isBuffer(f.media)
            ? f.media
            : Buffer.from(String(f.media ?? ''), 'base64');
          const created = await initialize(caller, {
            media_type: f.media_type ?? 'image/jpeg',
            media_category: f.media_category ?? 'tweet_image',
            total_bytes: bytes.length,
          });
          await append(caller, created.data.id, { media: bytes, segment_index: 0 });
          return finalize(caller, created.data.id);
        }
        default:
          throw xFailures.invalid('command must be INIT, APPEND or FINALIZE.', {
            command: [String(f.command)],
          });
      }
    }),
  );
}
