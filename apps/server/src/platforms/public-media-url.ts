import { unreachableMediaBase } from '../lib/public-url.js';
import { NETWORK_MODULES } from './catalog.js';

export { unreachableMediaBase };

/**
 * The slugs of the networks that fetch a post's media from Herald by URL (each module's
 * `pullsMediaByUrl`, docs/networks.md#sandboxes). The others receive the bytes.
 */
export const PULLS_MEDIA_BY_URL: readonly string[] = NETWORK_MODULES.filter(
  (m) => m.pullsMediaByUrl,
).map((m) => m.slug);

/** What is wrong with the media URLs networks fetch, for the log and the back-office. */
export interface PublicMediaUrlFinding {
  /** The networks (display names) that fetch media by URL and would fail. */
  networks: string[];
  apiPublicUrl: string;
  /** Why a network on the internet cannot fetch there ("it is not https"…). */
  problem: string;
  /** One sentence saying so and what to set. */
  message: string;
}

/**
 * The finding when a network configured with real credentials pulls media by URL but the media
 * URLs (under API_PUBLIC_URL) are not public https: publishing media there would fail at the
 * network. Null when there is nothing to say. The sandboxes are exempt (they run on this server).
 * One function for every place that reports it: the start-up log, the back-office, the doctor.
 */
export function publicMediaUrlFinding(
  apiPublicUrl: string,
  networks: Iterable<{ name: string; slug: string; sandbox: boolean }>,
): PublicMediaUrlFinding | null {
  const pulling = [...networks].filter((n) => !n.sandbox && PULLS_MEDIA_BY_URL.includes(n.slug));
  if (pulling.length === 0) return null;
  const problem = unreachableMediaBase(apiPublicUrl);
  if (!problem) return null;
  const names = pulling.map((n) => n.name);
  return {
    networks: names,
    apiPublicUrl,
    problem,
    message: `${names.join(', ')} fetch${pulling.length === 1 ? 'es' : ''} post media from Herald's media URLs under ${apiPublicUrl}, but ${problem}: posts with images or videos will fail there. Set API_PUBLIC_URL to the public https address of this server's API.`,
  };
}

/** The start-up log line: the sentence of `publicMediaUrlFinding`, or null. */
export function mediaUrlWarning(
  apiPublicUrl: string,
  networks: Iterable<{ name: string; slug: string; sandbox: boolean }>,
): string | null {
  return publicMediaUrlFinding(apiPublicUrl, networks)?.message ?? null;
}
