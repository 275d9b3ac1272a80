import { Readable } from 'node:stream';
import type { PublishMedia } from '../../platforms/types.js';

/**
 * For adapter tests: a PublishMedia over bytes in memory, streamed in small pieces the way the
 * media store streams a file (so uploads have to re-chunk them). `opened` records every
 * `open()` with its range.
 */
export function publishMediaOf(
  bytes: Buffer,
  meta: {
    kind: 'image' | 'video';
    mimeType: string;
    fileName?: string;
    width?: number;
    height?: number;
    durationSec?: number;
  },
): PublishMedia & { opened: Array<{ start: number; end: number } | null> } {
  const opened: Array<{ start: number; end: number } | null> = [];
  return {
    kind: meta.kind,
    mimeType: meta.mimeType,
    url: `http://localhost:3000/media/${meta.fileName ?? 'file'}`,
    fileName: meta.fileName ?? `file.${meta.mimeType.split('/')[1]}`,
    size: bytes.length,
    width: meta.width ?? null,
    height: meta.height ?? null,
    durationSec: meta.durationSec ?? null,
    opened,
    async open(range) {
      opened.push(range ?? null);
      // Ranges are inclusive, as HTTP and the media store use them.
      const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      const pieces: Buffer[] = [];
      for (let i = 0; i < part.length; i += 64 * 1024) pieces.push(part.subarray(i, i + 64 * 1024));
      return Readable.from(pieces);
    },
  };
}
