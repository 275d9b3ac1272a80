import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../lib/csv-parse.js';
import { slotInstants } from '../modules/queue/queue-times.js';
import { isPrivateAddress } from './private-address.js';
import { FetchRefused, guardedRequest, precheckUrl } from './safe-fetch.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an ip',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('precheckUrl', () => {
  it('refuses other schemes, credentials, literal private addresses and localhost', () => {
    expect(() => precheckUrl('file:///etc/passwd')).toThrow(FetchRefused);
    expect(() => precheckUrl('http://user:pw@example.com/a.png')).toThrow(/user name/);
    expect(() => precheckUrl('http://127.0.0.1:8080/a.png')).toThrow(/127\.0\.0\.1/);
    expect(() => precheckUrl('http://[::1]/a.png')).toThrow(/::1/);
    expect(() => precheckUrl('http://localhost/a.png')).toThrow(/localhost/);
    expect(precheckUrl('https://example.com/a.png').hostname).toBe('example.com');
  });

  it('the test allow-list admits exactly the host and port it names', () => {
    expect(precheckUrl('http://127.0.0.1:4000/a.png', ['127.0.0.1:4000']).port).toBe('4000');
    expect(() => precheckUrl('http://127.0.0.1:4001/a.png', ['127.0.0.1:4000'])).toThrow();
  });
});

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, line breaks in quotes, CRLF and a BOM; numbers rows', () => {
    const rows = [...parseCsv('\ufefftext,accounts\r\n"Hello, ""you""\nthere",x\r\n\r\nlast,y')];
    expect(rows.map((r) => [r.row, r.cells])).toEqual([
      [1, ['text', 'accounts']],
      [2, ['Hello, "you"\nthere', 'x']],
      [3, ['last', 'y']],
    ]);
  });
});

describe('slotInstants', () => {
  it('keeps wall time across the spring-forward change and reads a skipped time forward', () => {
    const zone = 'America/New_York';
    const monday9 = [{ weekday: 0, minute: 9 * 60 }];
    const from = Date.parse('2026-03-01T00:00:00Z');
    const to = Date.parse('2026-03-17T00:00:00Z');
    expect(slotInstants(monday9, zone, from, to).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-16T13:00:00.000Z',
    ]);
    // Sunday 02:30 does not exist on 2026-03-08 in New York: it is read as 03:30 EDT.
    const sunday230 = [{ weekday: 6, minute: 150 }];
    expect(
      slotInstants(
        sunday230,
        zone,
        Date.parse('2026-03-07T00:00:00Z'),
        Date.parse('2026-03-09T00:00:00Z'),
      ).map((ms) => new Date(ms).toISOString()),
    ).toEqual(['2026-03-08T07:30:00.000Z']);
    // The autumn change: 09:00 is 14:00 UTC again.
    expect(
      slotInstants(
        monday9,
        zone,
        Date.parse('2026-11-02T00:00:00Z'),
        Date.parse('2026-11-03T00:00:00Z'),
      ).map((ms) => new Date(ms).toISOString()),
    ).toEqual(['2026-11-02T14:00:00.000Z']);
  });
});

describe('guardedRequest', () => {
  it('refuses hosts on this machine or a private network before any request', async () => {
    await expect(guardedRequest('http://127.0.0.1:9/api/v2/instance')).rejects.toThrow(
      FetchRefused,
    );
    await expect(guardedRequest('https://localhost/api/v1/apps')).rejects.toThrow(/localhost/);
    await expect(guardedRequest('https://10.0.0.8/api/v1/apps')).rejects.toThrow(
      /private or local address/,
    );
  });

  it('answers from a server it is allowed to reach, without following redirects', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: 'http://10.0.0.8/' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '299' });
      res.end(JSON.stringify({ method: req.method }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const allowPrivate = [`127.0.0.1:${port}`];
    try {
      const res = await guardedRequest(
        `http://127.0.0.1:${port}/api/v1/statuses`,
        { method: 'POST', body: 'x' },
        { allowPrivate },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('299');
      expect(await res.json()).toEqual({ method: 'POST' });
      const moved = await guardedRequest(`http://127.0.0.1:${port}/moved`, {}, { allowPrivate });
      expect(moved.status).toBe(302);
    } finally {
      server.close();
    }
  });
});
