import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFastify } from '../app.js';
import { loadConfig } from '../config.js';

function captureLines() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('request logging', () => {
  it('writes exactly one line per request, with method, url, status and time', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
    const { lines, stream } = captureLines();
    const app = createFastify(config, { logger: { stream } });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/teapot', async (_request, reply) => reply.code(418).send({ ok: false }));
    await app.ready();
    try {
      await app.inject({ method: 'GET', url: '/ok?x=1' });
      await app.inject({ method: 'GET', url: '/teapot' });
      await app.inject({ method: 'GET', url: '/missing' });
    } finally {
      await app.close();
    }
    const requestLines = lines.filter((line) => 'reqId' in line);
    expect(requestLines.map((l) => [l.method, l.url, l.status])).toEqual([
      ['GET', '/ok?x=1', 200],
      ['GET', '/teapot', 418],
      ['GET', '/missing', 404],
    ]);
    for (const line of requestLines) {
      expect(typeof line.ms).toBe('number');
      expect(line.msg).toMatch(/^GET \/\S+ \d{3} \d+ms$/);
    }
  });

  it('is JSON unless asked for readable lines; readable only in development at a terminal', () => {
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(32),
        GOOGLE_CLIENT_ID: 'a',
        GOOGLE_CLIENT_SECRET: 'b',
        BILLING_PROVIDER: 'none',
      }).logFormat,
    ).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'fancy' })).toThrow(/LOG_FORMAT/);
  });
});
