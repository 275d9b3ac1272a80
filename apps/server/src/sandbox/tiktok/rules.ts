import { unreachableMediaBase } from '../../lib/public-url.js';
import { TIKTOK_PUBLISHING } from './responses.js';

/** TikTok's media rules as the emulator checks them (docs/networks.md#tiktok-publishing chunked upload). */
export interface ChunkPlan {
  videoSize: number;
  chunkSize: number;
  totalChunks: number;
}

const MB = 1024 * 1024;

/**
 * Why TikTok would refuse this FILE_UPLOAD plan, or null: chunks of 5–64 MB (the last one up to
 * 128 MB), `total_chunk_count = floor(video_size / chunk_size)`, a file under 5 MB as one chunk.
 */
export function chunkPlanProblem({ videoSize, chunkSize, totalChunks }: ChunkPlan): string | null {
  const p = TIKTOK_PUBLISHING;
  if (![videoSize, chunkSize, totalChunks].every((n) => Number.isInteger(n) && n > 0))
    return 'video_size, chunk_size and total_chunk_count must be positive integers.';
  if (videoSize > p.videoMaxBytes) return 'The video is larger than 4 GB.';
  if (videoSize < p.chunkMin) {
    if (chunkSize !== videoSize || totalChunks !== 1)
      return 'A video under 5 MB is uploaded as one chunk of video_size bytes.';
    return null;
  }
  if (chunkSize < p.chunkMin || chunkSize > p.chunkMax)
    return `chunk_size must be between ${p.chunkMin / MB} MB and ${p.chunkMax / MB} MB.`;
  if (totalChunks !== Math.floor(videoSize / chunkSize))
    return 'total_chunk_count must be video_size divided by chunk_size, rounded down.';
  if (totalChunks > p.chunksMax) return `A video is uploaded in at most ${p.chunksMax} chunks.`;
  if (videoSize - chunkSize * (totalChunks - 1) > p.lastChunkMax)
    return `The last chunk may not exceed ${p.lastChunkMax / MB} MB.`;
  return null;
}

/** The bytes chunk `index` must carry: all but the last are chunk_size long. */
export function chunkRange(plan: ChunkPlan, index: number): { start: number; length: number } {
  const start = index * plan.chunkSize;
  const last = index === plan.totalChunks - 1;
  return { start, length: last ? plan.videoSize - start : plan.chunkSize };
}

/**
 * Whether TikTok could pull a media URL: `invalid` when it is not an http(s) URL (refused at
 * init), `expired` when Herald's signed URL has passed its `exp` (the pull fails later).
 */
export function pulledUrlProblem(
  value: string,
  runsLocally = true,
): 'invalid' | 'unreachable' | 'expired' | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'invalid';
  // TikTok pulls from the internet: loopback or plain http only when told it runs locally.
  if (!runsLocally && unreachableMediaBase(url.href)) return 'unreachable';
  const exp = Number(url.searchParams.get('exp'));
  if (url.searchParams.has('exp') && Number.isFinite(exp) && exp * 1000 < Date.now())
    return 'expired';
  return null;
}

/** The first bytes of a video TikTok can read: an MP4/MOV `ftyp` box or a WebM (EBML) header. */
export function looksLikeVideo(head: Buffer): boolean {
  if (head.length >= 8 && head.subarray(4, 8).toString('latin1') === 'ftyp') return true;
  return head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3;
}
