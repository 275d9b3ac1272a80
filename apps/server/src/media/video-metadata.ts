import { open } from 'node:fs/promises';

/**
 * Duration and picture size of MP4/MOV (ISO base media) and WebM/Matroska files, read from their
 * headers without decoding anything: the fallback for machines without ffprobe. Reads a few boxes
 * or elements by seeking; never the whole file.
 */
export interface VideoFacts {
  durationSec: number | null;
  width: number | null;
  height: number | null;
}

/** Random access to a file's bytes (a file on disk, or a Buffer in tests). */
export interface ByteSource {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
}

/** The moov box or Matroska header elements larger than this are not read (a corrupt size). */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

export function bufferSource(buffer: Buffer): ByteSource {
  return {
    size: buffer.length,
    read: async (position, length) => buffer.subarray(position, position + length),
  };
}

/** Reads the facts of a video file; null when its structure could not be understood. */
export async function readVideoFacts(path: string, mimeType: string): Promise<VideoFacts | null> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const source: ByteSource = {
      size,
      async read(position, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      },
    };
    return await readVideoFactsFrom(source, mimeType);
  } finally {
    await handle.close();
  }
}

export async function readVideoFactsFrom(
  source: ByteSource,
  mimeType: string,
): Promise<VideoFacts | null> {
  try {
    if (mimeType === 'video/webm' || mimeType === 'video/x-matroska')
      return await readMatroska(source);
    return await readIsoMedia(source);
  } catch {
    // A truncated or odd file: the caller treats it as "could not read metadata".
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// ISO base media (MP4, MOV)

interface Box {
  type: string;
  /** Offset of the box's content (after its header), relative to the buffer or file. */
  start: number;
  end: number;
}

function* childBoxes(buffer: Buffer, start = 0, end = buffer.length): Generator<Box> {
  let at = start;
  while (at + 8 <= end) {
    let size = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) return;
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) return;
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

const findBox = (buffer: Buffer, parent: Box | null, type: string) => {
  for (const box of childBoxes(buffer, parent?.start ?? 0, parent?.end ?? buffer.length))
    if (box.type === type) return box;
  return null;
};

async function findMoov(source: ByteSource): Promise<Buffer | null> {
  let at = 0;
  for (let i = 0; i < 10_000 && at + 8 <= source.size; i++) {
    const header = await source.read(at, 16);
    if (header.length < 8) return null;
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (size === 1) {
      size = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) size = source.size - at;
    if (size < headerSize) return null;
    if (type === 'moov') {
      if (size > MAX_HEADER_BYTES) return null;
      const content = await source.read(at + headerSize, size - headerSize);
      return content.length === size - headerSize ? content : null;
    }
    at += size;
  }
  return null;
}

/** Seconds from a (version 0|1) full box holding timescale + duration after creation/modification times. */
function timing(buffer: Buffer, box: Box): { timescale: number; duration: number } {
  const version = buffer[box.start] ?? 0;
  const at = box.start + 4 + (version === 1 ? 16 : 8);
  const timescale = buffer.readUInt32BE(at);
  const duration =
    version === 1 ? Number(buffer.readBigUInt64BE(at + 4)) : buffer.readUInt32BE(at + 4);
  return { timescale, duration };
}

const UNKNOWN_DURATIONS = new Set([0, 0xffffffff, Number(0xffffffffffffffffn)]);

function trackSize(moov: Buffer, trak: Box): { width: number; height: number } | null {
  const tkhd = findBox(moov, trak, 'tkhd');
  if (!tkhd) return null;
  const version = moov[tkhd.start] ?? 0;
  const matrixAt = tkhd.start + 4 + (version === 1 ? 32 : 20) + 16;
  const fixed = (at: number) => moov.readInt32BE(at) / 65536;
  const [a, b, c, d] = [
    fixed(matrixAt),
    fixed(matrixAt + 4),
    fixed(matrixAt + 12),
    fixed(matrixAt + 16),
  ];
  let width = Math.round(moov.readUInt32BE(matrixAt + 36) / 65536);
  let height = Math.round(moov.readUInt32BE(matrixAt + 40) / 65536);
  if (!width || !height) {
    // Some muxers leave tkhd at 0×0; the sample description has the coded size.
    const stsd = ['mdia', 'minf', 'stbl', 'stsd'].reduce<Box | null>(
      (box, type) => (box ? findBox(moov, box, type) : null),
      trak,
    );
    if (!stsd) return null;
    const entry = childBoxes(moov, stsd.start + 8, stsd.end).next().value;
    if (!entry) return null;
    width = moov.readUInt16BE(entry.start + 24);
    height = moov.readUInt16BE(entry.start + 26);
  }
  // A 90° or 270° display matrix (portrait phone video) shows the picture turned.
  const quarterTurn =
    Math.abs(a) < 0.5 && Math.abs(d) < 0.5 && Math.abs(b) > 0.5 && Math.abs(c) > 0.5;
  return quarterTurn ? { width: height, height: width } : { width, height };
}

async function readIsoMedia(source: ByteSource): Promise<VideoFacts | null> {
  const moov = await findMoov(source);
  if (!moov) return null;
  let durationSec: number | null = null;
  const mvhd = findBox(moov, null, 'mvhd');
  if (mvhd) {
    const { timescale, duration: headerDuration } = timing(moov, mvhd);
    let duration = headerDuration;
    if (UNKNOWN_DURATIONS.has(duration)) {
      // Fragmented MP4: the whole duration is in mvex/mehd.
      const mehd = findBox(moov, findBox(moov, null, 'mvex'), 'mehd');
      if (mehd) {
        const version = moov[mehd.start] ?? 0;
        duration =
          version === 1
            ? Number(moov.readBigUInt64BE(mehd.start + 4))
            : moov.readUInt32BE(mehd.start + 4);
      }
    }
    if (timescale > 0 && !UNKNOWN_DURATIONS.has(duration)) durationSec = duration / timescale;
  }
  let size: { width: number; height: number } | null = null;
  for (const trak of childBoxes(moov)) {
    if (trak.type !== 'trak') continue;
    const hdlr = findBox(moov, findBox(moov, trak, 'mdia'), 'hdlr');
    if (!hdlr || moov.toString('latin1', hdlr.start + 8, hdlr.start + 12) !== 'vide') continue;
    size = trackSize(moov, trak);
    if (size) break;
  }
  if (durationSec === null && !size) return null;
  return { durationSec, width: size?.width ?? null, height: size?.height ?? null };
}

// ---------------------------------------------------------------------------------------------
// Matroska / WebM (EBML)

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const VIDEO = 0xe0;
const PIXEL_WIDTH = 0xb0;
const PIXEL_HEIGHT = 0xba;
const CLUSTER = 0x1f43b675;

interface Element {
  id: number;
  /** Where the element's data starts. */
  start: number;
  /** Data size; null for "unknown" (live streams). */
  size: number | null;
}

/** Decodes an EBML variable-length integer: its length is told by the first byte's leading zeros. */
function readVint(
  buffer: Buffer,
  at: number,
  keepMarker: boolean,
): { value: number; length: number; unknown: boolean } | null {
  const first = buffer[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > buffer.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = buffer[at + i] ?? 0;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function parseElement(buffer: Buffer, at: number, base = 0): Element | null {
  const id = readVint(buffer, at, true);
  if (!id || id.length > 4) return null;
  const size = readVint(buffer, at + id.length, false);
  if (!size) return null;
  return {
    id: id.value,
    start: base + at + id.length + size.length,
    size: size.unknown ? null : size.value,
  };
}

function* children(buffer: Buffer, start = 0, end = buffer.length): Generator<Element> {
  let at = start;
  while (at < end) {
    const element = parseElement(buffer, at);
    if (!element || element.size === null) return;
    yield element;
    at = element.start + element.size;
  }
}

const readUint = (buffer: Buffer, e: Element) =>
  e.size ? buffer.readUIntBE(e.start, Math.min(e.size, 6)) : 0;
const readFloat = (buffer: Buffer, e: Element) =>
  e.size === 4 ? buffer.readFloatBE(e.start) : e.size === 8 ? buffer.readDoubleBE(e.start) : NaN;

function parseInfo(buffer: Buffer): number | null {
  let scale = 1_000_000;
  let duration: number | null = null;
  for (const e of children(buffer)) {
    if (e.id === TIMECODE_SCALE) scale = readUint(buffer, e);
    if (e.id === DURATION) duration = readFloat(buffer, e);
  }
  return duration !== null && Number.isFinite(duration) && duration > 0
    ? (duration * scale) / 1e9
    : null;
}

function parseTracks(buffer: Buffer): { width: number; height: number } | null {
  for (const entry of children(buffer)) {
    if (entry.id !== TRACK_ENTRY || entry.size === null) continue;
    let isVideo = false;
    let width = 0;
    let height = 0;
    for (const e of children(buffer, entry.start, entry.start + entry.size)) {
      if (e.id === TRACK_TYPE) isVideo = readUint(buffer, e) === 1;
      if (e.id === VIDEO && e.size !== null) {
        for (const v of children(buffer, e.start, e.start + e.size)) {
          if (v.id === PIXEL_WIDTH) width = readUint(buffer, v);
          if (v.id === PIXEL_HEIGHT) height = readUint(buffer, v);
        }
      }
    }
    if (isVideo && width && height) return { width, height };
  }
  return null;
}

async function readMatroska(source: ByteSource): Promise<VideoFacts | null> {
  const elementAt = async (at: number) => parseElement(await source.read(at, 12), 0, at);
  const header = await elementAt(0);
  if (!header || header.id !== EBML_HEADER || header.size === null) return null;
  const segment = await elementAt(header.start + header.size);
  if (!segment || segment.id !== SEGMENT) return null;
  const segmentEnd = segment.size === null ? source.size : segment.start + segment.size;

  let durationSec: number | null = null;
  let size: { width: number; height: number } | null = null;
  let sawInfo = false;
  let at = segment.start;
  for (let i = 0; i < 1000 && at < segmentEnd && !(sawInfo && size); i++) {
    const e = await elementAt(at);
    if (!e || e.size === null) break;
    if (e.id === INFO || e.id === TRACKS) {
      if (e.size > MAX_HEADER_BYTES) break;
      const body = await source.read(e.start, e.size);
      if (e.id === INFO) {
        sawInfo = true;
        durationSec = parseInfo(body);
      } else size = parseTracks(body);
    } else if (e.id === CLUSTER && sawInfo && size) break;
    at = e.start + e.size;
  }
  if (durationSec === null && !size) return null;
  return { durationSec, width: size?.width ?? null, height: size?.height ?? null };
}
