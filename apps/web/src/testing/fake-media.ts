import { vi } from 'vitest';

export interface FakeMediaInfo {
  width?: number;
  height?: number;
  /** Seconds; videos only. */
  durationSec?: number;
}

const PREFIX = 'blob:fake/';

/**
 * jsdom decodes no pictures and plays no videos, so code that measures media would wait
 * forever. This makes object URLs name their file (`blob:fake/{name}`), `createImageBitmap`
 * answer with the size listed for the file (1200×1200 by default), and a <video> given such a
 * URL fire `loadedmetadata` with the listed duration and size, or `error` when the file is not
 * listed. All stubs are undone after the test (vitest's unstubGlobals and restoreMocks).
 */
export function installFakeMedia(byName: Record<string, FakeMediaInfo> = {}) {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(
    (blob) => `${PREFIX}${encodeURIComponent(blob instanceof File ? blob.name : 'blob')}`,
  );
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async (source: unknown) => {
      const info = source instanceof File ? byName[source.name] : undefined;
      return { width: info?.width ?? 1200, height: info?.height ?? 1200, close: () => {} };
    }),
  );
  vi.spyOn(HTMLMediaElement.prototype, 'src', 'set').mockImplementation(function (
    this: HTMLMediaElement,
    url: string,
  ) {
    if (!url.startsWith(PREFIX)) return;
    const info = byName[decodeURIComponent(url.slice(PREFIX.length))];
    setTimeout(() => {
      if (!info) {
        this.onerror?.(new Event('error'));
        return;
      }
      Object.defineProperties(this, {
        duration: { value: info.durationSec ?? Number.NaN, configurable: true },
        videoWidth: { value: info.width ?? 0, configurable: true },
        videoHeight: { value: info.height ?? 0, configurable: true },
      });
      this.onloadedmetadata?.(new Event('loadedmetadata'));
    });
  });
}
