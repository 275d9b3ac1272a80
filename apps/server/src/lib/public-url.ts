import { isIP } from 'node:net';

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

/**
 * Why a server on the internet (a network fetching media, docs/networks.md#media-urls) could not
 * fetch URLs under `base`, or null when it can. Shared by the start-up check and the sandboxes.
 */
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
