import { describe, expect, it } from 'vitest';
import { ipv6Bits, isPrivateAddress } from './private-address.js';
import { FetchRefused, precheckUrl } from './safe-fetch.js';

/** The host as Node's URL parser writes it, brackets removed: what the guard is given. */
const hostOf = (typed: string) => new URL(`http://[${typed}]/`).hostname.replace(/^\[|\]$/g, '');

/**
 * IPv6 addresses as a user may type them in a media URL, each reaching a host that is not on the
 * public internet. Node rewrites an embedded dotted quad to hex (64:ff9b::127.0.0.1 becomes
 * 64:ff9b::7f00:1), so the guard must read the bits, not the text.
 */
const REFUSED: ReadonlyArray<[typed: string, parsed: string, why: string]> = [
  ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::169.254.169.254', '64:ff9b::a9fe:a9fe', 'NAT64 of the cloud metadata service'],
  ['64:ff9b::10.0.0.1', '64:ff9b::a00:1', 'NAT64 of a private network'],
  ['::127.0.0.1', '::7f00:1', 'IPv4-compatible loopback'],
  ['::169.254.169.254', '::a9fe:a9fe', 'IPv4-compatible metadata service'],
  ['::2', '::2', 'IPv4-compatible 0.0.0.2'],
  ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['2002:7f00:1::1', '2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a9fe:a9fe::1', '2002:a9fe:a9fe::1', '6to4 of the metadata service'],
  ['2002:c0a8:101::', '2002:c0a8:101::', '6to4 of 192.168.1.1'],
  [
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'Teredo, client 127.0.0.1',
  ],
  ['2001:0:808:808::f7f7:f7f7', '2001:0:808:808::f7f7:f7f7', 'Teredo, even of a public client'],
  ['64:ff9b:1::a00:1', '64:ff9b:1::a00:1', 'local-use NAT64'],
  ['64:ff9b:1:ffff::808:808', '64:ff9b:1:ffff::808:808', 'local-use NAT64 of a public address'],
  ['fec0::1', 'fec0::1', 'site-local'],
  ['2001:2::1', '2001:2::1', 'benchmarking'],
  ['3fff::1', '3fff::1', 'documentation (3fff::/20)'],
  ['5f00::1', '5f00::1', 'segment routing'],
  ['100:0:0:1::1', '100:0:0:1::1', 'dummy prefix'],
  ['4000::1', '4000::1', 'outside global unicast'],
];

describe('IPv6 forms of addresses that are not public', () => {
  it.each(REFUSED)('refuses [%s], which Node writes %s (%s)', (typed, parsed) => {
    expect(hostOf(typed)).toBe(parsed);
    expect(isPrivateAddress(parsed)).toBe(true);
    expect(() => precheckUrl(`http://[${typed}]/a.png`)).toThrow(FetchRefused);
    expect(() => precheckUrl(`http://[${typed}]/a.png`)).toThrow(/private or local address/);
  });

  it('judges an IPv4-mapped address written in hex by the IPv4 it carries', () => {
    // Node writes ::ffff:8.8.8.8 as ::ffff:808:808: a public host, not a private one.
    expect(hostOf('::ffff:8.8.8.8')).toBe('::ffff:808:808');
    expect(isPrivateAddress('::ffff:808:808')).toBe(false);
    expect(precheckUrl('http://[::ffff:8.8.8.8]/a.png').hostname).toBe('[::ffff:808:808]');
  });
});

describe('ipv6Bits', () => {
  it('reads compression, dotted quads, zone ids and brackets into the same 128 bits', () => {
    const loopbackMapped = (0xffffn << 32n) | 0x7f000001n;
    for (const form of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '0000:0000:0000:0000:0000:FFFF:7F00:0001',
      '[::ffff:7f00:1]',
      '::ffff:7f00:1%eth0',
    ])
      expect(ipv6Bits(form)).toBe(loopbackMapped);
    expect(ipv6Bits('::')).toBe(0n);
    expect(ipv6Bits('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe((1n << 128n) - 1n);
    expect(ipv6Bits('127.0.0.1')).toBeNull();
    expect(ipv6Bits('1::2::3')).toBeNull();
  });
});
