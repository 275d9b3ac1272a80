import { isIP } from 'node:net';

/**
 * Which IP addresses a server-side fetch of a user-given URL may connect to (safe-fetch.ts).
 *
 * An IPv6 address is read into its 128 bits, whatever its spelling (`::` compression, a trailing
 * dotted quad, a zone id, the hex form Node's URL parser writes), so that every way of writing an
 * IPv4 address inside IPv6 is judged as that IPv4 address: `[64:ff9b::127.0.0.1]` comes out of
 * `new URL()` as `[64:ff9b::7f00:1]`, and a text match on the dotted form lets it through.
 *
 * IPv6 is an allow-list: only global unicast (2000::/3) and the forms that carry an IPv4 address
 * may pass. Everything else IANA has set aside — loopback, unspecified, link-local, site-local,
 * unique-local, multicast, the discard prefix, the segment-routing block — lies outside 2000::/3
 * and is refused without a list that could miss one.
 */

interface Range {
  net: bigint;
  bits: number;
}

/** IPv4 ranges that are not on the public internet (IANA's special-purpose registry). */
const IPV4_REFUSED: readonly Range[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
].map(([net, bits]) => ({ net: ipv4Bits(net as string)!, bits: bits as number }));

const v6 = (net: string, bits: number): Range => ({ net: ipv6Bits(net)!, bits });

/** Where IPv4 addresses sit in IPv6: the address's last 32 bits (6to4 below). */
const IPV4_CARRIERS: readonly Range[] = [
  v6('::ffff:0:0', 96), // IPv4-mapped
  v6('::ffff:0:0:0', 96), // IPv4-translated (SIIT)
  v6('::', 96), // IPv4-compatible (deprecated); :: and ::1 read as 0.0.0.0 and 0.0.0.1
  v6('64:ff9b::', 96), // NAT64, the well-known prefix
];
/** 6to4: the IPv4 address of the site's router in bits 16–47. */
const SIX_TO_FOUR = v6('2002::', 16);
const GLOBAL_UNICAST = v6('2000::', 3);
/** Set aside inside global unicast. */
const IPV6_REFUSED: readonly Range[] = [
  // IETF protocol assignments. Among them Teredo (2001::/32), refused outright rather than
  // judged: its client address is hidden (XOR-ed) and the packets go through a relay and a
  // server Herald does not choose; no media host is reached only through Teredo.
  v6('2001::', 23),
  v6('2001:db8::', 32), // documentation
  v6('3fff::', 20), // documentation
];

function ipv4Bits(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255))
    return null;
  return parts.reduce((bits, p) => (bits << 8n) | BigInt(p), 0n);
}

/** The 128 bits of an IPv6 address (brackets and a zone id allowed), or null if it is not one. */
export function ipv6Bits(text: string): bigint | null {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  // The zone names the interface (fe80::1%eth0); it is not part of the address.
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  if (isIP(address) !== 6) return null;
  const groupsOf = (side: string): number[] => {
    if (side === '') return [];
    const groups: number[] = [];
    for (const part of side.split(':')) {
      if (part.includes('.')) {
        const v4 = Number(ipv4Bits(part));
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else groups.push(parseInt(part, 16));
    }
    return groups;
  };
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.reduce((bits, g) => (bits << 16n) | BigInt(g), 0n);
}

const within = (bits: bigint, width: number, range: Range) => {
  const shift = BigInt(width - range.bits);
  return bits >> shift === range.net >> shift;
};

const isPrivateIPv4 = (bits: bigint) => IPV4_REFUSED.some((r) => within(bits, 32, r));

/** The IPv4 address an IPv6 address carries, for the forms that deliver to it; else null. */
function carriedIPv4(bits: bigint): bigint | null {
  if (IPV4_CARRIERS.some((r) => within(bits, 128, r))) return bits & 0xffffffffn;
  if (within(bits, 128, SIX_TO_FOUR)) return (bits >> 80n) & 0xffffffffn;
  return null;
}

/**
 * Whether an IP address is private, loopback, link-local, reserved or otherwise not a public
 * internet host (anything that is not an IP address counts as private).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPrivateIPv4(ipv4Bits(address)!);
  const bits = ipv6Bits(address);
  if (bits === null) return true;
  const v4 = carriedIPv4(bits);
  if (v4 !== null) return isPrivateIPv4(v4);
  if (!within(bits, 128, GLOBAL_UNICAST)) return true;
  return IPV6_REFUSED.some((r) => within(bits, 128, r));
}
