import type * as dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { safeFetch } from './safe-fetch.js';

/** What the mocked DNS answers for a name; other names go to the real resolver. */
const answers = vi.hoisted(() => new Map<string, LookupAddress[]>());

vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof dns>();
  const lookup = ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    const answer = answers.get(hostname);
    if (!answer) return real.lookup(hostname, options, callback as never);
    callback(null, answer);
  }) as typeof real.lookup;
  return { ...real, default: { ...real, lookup }, lookup };
});

/**
 * The addresses a name may resolve to, in the form the resolver gives them (glibc's inet_ntop:
 * dotted only for ::ffff: and the IPv4-compatible form, hex elsewhere). The check runs in the
 * connection's own lookup, so a name pointing at any of them is refused before a connection.
 */
const RESOLVED: ReadonlyArray<[address: string, why: string]> = [
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata service'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['2002:a9fe:a9fe::1', '6to4 of the metadata service'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['fec0::1', 'site-local'],
];

describe('safeFetch checks the addresses a name resolves to', () => {
  it.each(RESOLVED)('refuses a name resolving to %s (%s)', async (address) => {
    const host = `media-${answers.size}.example`;
    answers.set(host, [{ address, family: 6 }]);
    await expect(
      safeFetch(`http://${host}/a.png`, { maxBytes: 1024, headersTimeoutMs: 2_000 }),
    ).rejects.toThrow(`points at a private or local address (${address})`);
  });

  it('refuses a name when any one of its addresses is private', async () => {
    answers.set('mixed.example', [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '64:ff9b::a00:1', family: 6 },
    ]);
    await expect(
      safeFetch('http://mixed.example/a.png', { maxBytes: 1024, headersTimeoutMs: 2_000 }),
    ).rejects.toThrow('(64:ff9b::a00:1)');
  });
});
