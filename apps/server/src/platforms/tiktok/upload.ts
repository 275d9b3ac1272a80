import { PlatformError } from '../errors.js';
import type { PublishMedia } from '../types.js';
import type { TikTokTiming } from './limits.js';
import type { TikTokPublishApi } from './publish-api.js';
import { asUnknownOutcome, chunkPlan, failedPublish } from './publish-rules.js';

const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];

/** The FILE_UPLOAD half of a video post (docs/networks.md#tiktok-publishing): init, then the chunks. */
export function createTikTokUploader(api: TikTokPublishApi, timing: TikTokTiming) {
  /**
   * FILE_UPLOAD: without its bytes an init never becomes a post, so a failed init or chunk is an
   * ordinary error. Only the last chunk is a commit point: if its answer is lost, the status
   * tells whether TikTok has the whole video.
   */
  async function uploadVideo(
    token: string,
    info: object | null,
    video: PublishMedia,
  ): Promise<string> {
    const plan = chunkPlan(video.size, timing.chunkBytes);
    const source_info = {
      source: 'FILE_UPLOAD',
      video_size: video.size,
      chunk_size: plan.chunkSize,
      total_chunk_count: plan.count,
    };
    // No post_info: an inbox draft (docs/networks.md#tiktok-publishing), finished in the TikTok app.
    const init = info
      ? await api.initVideo(token, { post_info: info, source_info })
      : await api.initInboxVideo(token, { source_info });
    if (!init.upload_url)
      throw new PlatformError('transient', 'TikTok answered the upload without an upload URL.');
    const mimeType = VIDEO_TYPES.includes(video.mimeType) ? video.mimeType : 'video/mp4';
    let first = 0;
    for await (const chunk of chunksOf(await video.open(), plan, video.size)) {
      const isLast = first + chunk.length === video.size;
      try {
        await api.uploadChunk(init.upload_url, chunk, { first, total: video.size, mimeType });
      } catch (err) {
        const unclear = err instanceof PlatformError && err.kind === 'transient';
        if (!isLast || !unclear) throw err;
        await confirmUpload(token, init.publish_id, video.size, err);
      }
      first += chunk.length;
    }
    return init.publish_id;
  }

  /** After the last chunk's answer was lost: did TikTok get the whole video? */
  async function confirmUpload(token: string, publishId: string, size: number, cause: unknown) {
    const status = await api.fetchStatus(token, publishId).catch(() => {
      throw asUnknownOutcome(cause);
    });
    if (status.status === 'FAILED') throw failedPublish(status.fail_reason);
    if (
      status.status === 'PUBLISH_COMPLETE' ||
      status.status === 'SEND_TO_USER_INBOX' ||
      (status.uploaded_bytes ?? 0) >= size
    )
      return;
    throw cause;
  }

  return { uploadVideo };
}

/**
 * Cuts the file's stream into the planned chunks, holding one chunk at a time: all but the last
 * are `chunkSize` long, the last takes the rest.
 */
async function* chunksOf(
  stream: NodeJS.ReadableStream,
  plan: { chunkSize: number; count: number },
  size: number,
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let sent = 0;
  for await (const piece of stream) {
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    pending.push(bytes);
    pendingBytes += bytes.length;
    while (sent < plan.count - 1 && pendingBytes >= plan.chunkSize) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, plan.chunkSize);
      pending = [all.subarray(plan.chunkSize)];
      pendingBytes -= plan.chunkSize;
      sent += 1;
    }
  }
  const last = Buffer.concat(pending);
  if (sent * plan.chunkSize + last.length !== size)
    throw new PlatformError(
      'bad_request',
      'The video file is not the size Herald recorded for it; upload it again.',
    );
  yield last;
}
