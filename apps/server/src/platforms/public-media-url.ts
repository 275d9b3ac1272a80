import { isIP } from 'node:net';

/**
 * Networks that fetch a post's media from Herald by URL (docs/networks.md#sandboxes): Instagram
 * and Facebook (Graph `image_url`, `video_url`, `url`, `file_url`), Threads, and TikTok photo posts
 * (`PULL_FROM_URL`). The others receive the bytes.
 */
export const PULLS_MEDIA_BY_URL = ['instagram', 'facebook', 'threads', 'tiktok'] as const;

/** Loopback, private, link-local or unspecified IPv4/IPv6 addresses. */
function isPrivateAddress(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(h) === 4) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (isIP(h) === 6) {
    return h === '::1' || h === '::' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
  }
  return false;
}

/** Why a network on the internet could not fetch URLs under `base`, or null when it can. */
export function unreachableMediaBase(base: string): string | null {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return 'it is not a URL';
  }
  const host = url.hostname.toLowerCase();
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    !host.includes('.') ||
    isPrivateAddress(host)
  ) {
    return `${host} is not reachable from the internet`;
  }
  if (url.protocol !== 'https:') return 'it is not https';
  return null;
}

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
  const pulling = [...networks].filter(
    (n) => !n.sandbox && (PULLS_MEDIA_BY_URL as readonly string[]).includes(n.slug),
  );
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
