import type sharpModule from 'sharp';

let loading: Promise<typeof sharpModule> | undefined;

/**
 * sharp, loaded at the first image it handles: its native library costs start time that a server
 * receiving no upload never needs (docs/performance.md#where-api-time-goes).
 */
export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import('sharp').then((m) => m.default);
  return loading;
}
