import type { PublishMedia } from '../../platforms/types.js';
import { publishMediaFromBytes } from '../../test/publish-media.js';

/** For adapter tests: a PublishMedia over bytes in memory (see test/publish-media.ts). */
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
  return publishMediaFromBytes(bytes, {
    ...meta,
    fileName: meta.fileName ?? `file.${meta.mimeType.split('/')[1]}`,
  });
}
