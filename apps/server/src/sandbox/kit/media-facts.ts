import { loadSharp } from '../../lib/sharp.js';
import type { SandboxContext } from '../context.js';

/**
 * What a network learns from a media file it receives, the way it learns it: the byte count of
 * the whole file, and the format, picture size and duration written in its first bytes (an
 * image's header, an MP4's `moov` box placed first). The emulators compare these
 * with their own network's documented limits; nothing here knows any limit.
 */
export interface ReceivedMedia {
  size: number;
  kind: 'image' | 'video' | null;
  /** sharp's name for images (`jpeg`, `png`, `gif`, `webp`…), `mp4` or `webm` for videos. */
  format: string | null;
  width: number | null;
  height: number | null;
  durationSec: number | null;
}

/** The first bytes kept of a file: room for an image header and a first-placed `moov` box. */
export const MEDIA_HEAD_BYTES = 1024 * 1024;

const isIsoMedia = (head: Buffer) =>
  head.length >= 8 && head.subarray(4, 8).toString('latin1') === 'ftyp';
const isMatroska = (head: Buffer) => head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3;

/** The boxes directly inside `buffer[start, end)`: type and content range. */
function* boxes(buffer: Buffer, start: number, end: number) {
  for (let at = start; at + 8 <= end;) {
    let size = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1 && at + 16 <= end) {
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header) return;
    yield { type, start: at + header, end: Math.min(end, at + size) };
    at += size;
  }
}

const child = (buffer: Buffer, parent: { start: number; end: number }, type: string) =>
  [...boxes(buffer, parent.start, parent.end)].find((b) => b.type === type);

/**
 * An MP4/MOV's duration (`mvhd`) and picture size (the first video `tkhd`), when its `moov` box
 * is in the head (ISO/IEC 14496-12; the networks ask for it first, "faststart").
 */
function isoMediaFacts(head: Buffer) {
  const none = { durationSec: null, width: null, height: null };
  const moov = child(head, { start: 0, end: head.length }, 'moov');
  if (!moov) return none;
  const mvhd = child(head, moov, 'mvhd');
  let durationSec: number | null = null;
  if (mvhd && mvhd.end - mvhd.start >= 32) {
    const v1 = head[mvhd.start] === 1;
    const timescale = head.readUInt32BE(mvhd.start + (v1 ? 20 : 12));
    const duration = v1
      ? Number(head.readBigUInt64BE(mvhd.start + 24))
      : head.readUInt32BE(mvhd.start + 16);
    if (timescale > 0) durationSec = Math.round((duration / timescale) * 1000) / 1000;
  }
  for (const trak of boxes(head, moov.start, moov.end)) {
    if (trak.type !== 'trak') continue;
    const tkhd = child(head, trak, 'tkhd');
    if (!tkhd) continue;
    const at = tkhd.start + (head[tkhd.start] === 1 ? 88 : 76);
    if (at + 8 > tkhd.end) continue;
    const width = head.readUInt32BE(at) / 65536;
    const height = head.readUInt32BE(at + 4) / 65536;
    if (width > 0 && height > 0) return { durationSec, width, height };
  }
  return { ...none, durationSec };
}

/** Reads what the head of a file of `size` bytes says about it. */
export async function readReceivedMedia(head: Buffer, size: number): Promise<ReceivedMedia> {
  const unknown: ReceivedMedia = {
    size,
    kind: null,
    format: null,
    width: null,
    height: null,
    durationSec: null,
  };
  if (isMatroska(head)) return { ...unknown, kind: 'video', format: 'webm' };
  if (isIsoMedia(head)) return { ...unknown, kind: 'video', format: 'mp4', ...isoMediaFacts(head) };
  try {
    const sharp = await loadSharp();
    const meta = await sharp(head).metadata();
    const { width, height } = meta.autoOrient;
    if (!meta.format) return unknown;
    return {
      ...unknown,
      kind: 'image',
      format: meta.format,
      width: width ?? null,
      height: height ?? null,
    };
  } catch {
    return unknown;
  }
}

/**
 * A file the network fetches from Herald (`fetchMedia`): its length from `Content-Length` (or the
 * bytes counted when absent) and its head; the rest is not read. Null when it cannot be fetched.
 */
export async function fetchReceivedMedia(
  fetchMedia: SandboxContext['fetchMedia'],
  url: string,
): Promise<ReceivedMedia | null> {
  try {
    const res = await fetchMedia(url);
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      return null;
    }
    const declared = Number(res.headers.get('content-length'));
    const reader = res.body.getReader();
    const chunks: Buffer[] = [];
    let read = 0;
    let counted = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      counted += value.byteLength;
      if (read < MEDIA_HEAD_BYTES) {
        chunks.push(Buffer.from(value));
        read += value.byteLength;
      } else if (Number.isFinite(declared) && declared > 0) break;
    }
    await reader.cancel().catch(() => undefined);
    const size = Number.isFinite(declared) && declared > 0 ? declared : counted;
    return await readReceivedMedia(Buffer.concat(chunks).subarray(0, MEDIA_HEAD_BYTES), size);
  } catch {
    return null;
  }
}
