import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { hashOf } from '../kit/secrets.js';
import type { TikTokPublishState } from './publish-state.js';
import { tiktokError, TIKTOK_PUBLISHING, TIKTOK_VIDEO_TYPES } from './responses.js';
import { chunkRange, looksLikeVideo } from './rules.js';

/** What the emulator keeps of a chunk: its length and first bytes, never the bytes. */
interface ReceivedChunk {
  bytes: number;
  head: Buffer;
}

const HEAD_BYTES = 16;

/**
 * `PUT {upload_url}` (docs/networks.md#tiktok-publishing, #tiktok-sandbox): the chunks of a FILE_UPLOAD, in order, each
 * with `Content-Range: bytes {first}-{last}/{total}`; 206 for a chunk, 201 once the video is
 * complete, which starts processing. The URL carries its own token, no Authorization header.
 */
export function registerTikTokUploadRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  state: TikTokPublishState,
) {
  // Counted as they stream past: a 64 MB chunk is never held in memory.
  scope.addContentTypeParser(TIKTOK_VIDEO_TYPES, (_request, payload, done) => {
    let bytes = 0;
    const head: Buffer[] = [];
    payload.on('data', (piece: Buffer) => {
      if (bytes < HEAD_BYTES) head.push(piece.subarray(0, HEAD_BYTES - bytes));
      bytes += piece.length;
    });
    payload.on('end', () => done(null, { bytes, head: Buffer.concat(head) }));
    payload.on('error', (err) => done(err));
  });

  scope.put<{ Params: { publishId: string }; Querystring: { upload_token?: string } }>(
    '/upload/:publishId',
    { bodyLimit: TIKTOK_PUBLISHING.lastChunkMax + 1024 },
    (request, reply) =>
      // A chunk sent again while the first try is still being counted waits for it.
      state.lock(`upload:${request.params.publishId}`, () => receiveChunk(request, reply)),
  );

  async function receiveChunk(
    request: FastifyRequest<{
      Params: { publishId: string };
      Querystring: { upload_token?: string };
    }>,
    reply: FastifyReply,
  ) {
    const job = await state.getJob(request.params.publishId);
    const token = request.query.upload_token;
    if (!job || !job.uploadTokenHash || !token || hashOf(token) !== job.uploadTokenHash)
      return tiktokError(reply, 404, 'invalid_params', 'This upload URL is not valid.');
    const chunk = request.body as ReceivedChunk | undefined;
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(request.headers['content-range'] ?? '');
    if (!chunk || !range)
      return tiktokError(
        reply,
        400,
        'invalid_file_upload',
        'Content-Range is missing or malformed.',
      );
    const [first, last, total] = range.slice(1).map(Number) as [number, number, number];
    const index = first / job.chunkSize;
    const expected =
      Number.isInteger(index) && index < job.totalChunks ? chunkRange(job, index) : null;
    if (
      total !== job.videoSize ||
      !expected ||
      last - first + 1 !== expected.length ||
      chunk.bytes !== expected.length
    )
      return tiktokError(
        reply,
        400,
        'invalid_file_upload',
        'The chunk does not match the chunk_size and video_size given at init.',
      );
    // A chunk sent again (its answer was lost) changes nothing.
    if (first < job.uploadedBytes) return reply.status(job.receivedAt ? 201 : 206).send();
    if (first > job.uploadedBytes)
      return tiktokError(
        reply,
        400,
        'invalid_file_upload',
        `Chunks are uploaded in order: the next one starts at byte ${job.uploadedBytes}.`,
      );
    job.uploadedBytes += chunk.bytes;
    if (first === 0 && !looksLikeVideo(chunk.head))
      job.failReason = job.failReason ?? 'file_format_check_failed';
    const complete = job.uploadedBytes === job.videoSize;
    if (complete) job.receivedAt = await oauth.now();
    await state.putJob(job);
    return reply.status(complete ? 201 : 206).send();
  }
}
