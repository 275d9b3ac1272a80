import { publicMediaUrlFinding } from './public-media-url.js';

export { PULLS_MEDIA_BY_URL, unreachableMediaBase } from './public-media-url.js';

/** The start-up log line: the sentence of `publicMediaUrlFinding`, or null. */
export function mediaUrlWarning(
  apiPublicUrl: string,
  networks: Iterable<{ name: string; slug: string; sandbox: boolean }>,
): string | null {
  return publicMediaUrlFinding(apiPublicUrl, networks)?.message ?? null;
}
