import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from '../lib/lazy-child-logger.js';
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

const logsInfo = (log: unknown) =>
  (log as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info');

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

  it('writes no link secret: a client approval token and a token parameter become …', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
    const { lines, stream } = captureLines();
    const app = createFastify(config, { logger: { stream } });
    app.get('/*', async () => ({ ok: true }));
    await app.ready();
    const token = 'k'.repeat(43);
    try {
      await app.inject({ method: 'GET', url: `/api/guest/approvals/${token}/media/m1` });
      await app.inject({ method: 'GET', url: `/approve/${token}` });
      await app.inject({ method: 'GET', url: `/invite/accept?token=${token}&x=1` });
    } finally {
      await app.close();
    }
    const requestLines = lines.filter((line) => 'reqId' in line);
    expect(requestLines.map((l) => l.url)).toEqual([
      '/api/guest/approvals/…/media/m1',
      '/approve/…',
      '/invite/accept?token=…&x=1',
    ]);
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it("keeps a route's log level, the request id and the redaction on every line a request writes", async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
    const { lines, stream } = captureLines();
    const app = createFastify(config, { logger: { stream } });
    app.get('/quiet', { logLevel: 'warn' }, async (request) => {
      request.log.info('not written: the route logs from warn up');
      request.log.warn({ account: { accessToken: 'secret-token' } }, 'written, token hidden');
      return { ok: logsInfo(request.log) };
    });
    app.get('/loud', async (request) => {
      request.log.child({ step: 'inner' }).info('from a child');
      return { ok: logsInfo(request.log) };
    });
    await app.ready();
    try {
      expect((await app.inject({ method: 'GET', url: '/quiet' })).json()).toEqual({ ok: false });
      expect((await app.inject({ method: 'GET', url: '/loud' })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
    const written = lines.filter((line) => 'reqId' in line);
    expect(written.map((l) => l.msg)).toEqual([
      'written, token hidden',
      'from a child',
      expect.stringMatching(/^GET \/loud 200 \d+ms$/),
    ]);
    expect(written[0]!.account).toEqual({ accessToken: '[Redacted]' });
    expect(written[1]!.step).toBe('inner');
    expect(written[1]!.reqId).toBe(written[2]!.reqId);
  });

  it('makes no child logger for a request that writes no line', () => {
    const made: unknown[] = [];
    const parent = pino({ level: 'info' }, new Writable({ write: (_c, _e, done) => done() }));
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof child>) => {
      made.push(args[0]);
      return child(...args);
    }) as typeof parent.child;
    const quiet = lazyChildLogger(parent, { reqId: 'a' }, { level: 'warn' });
    quiet.info('below the route level');
    quiet.debug('below it too');
    expect(quiet.level).toBe('warn');
    expect(made).toEqual([]);
    quiet.error('written');
    expect(made).toEqual([{ reqId: 'a' }]);
  });

  it('is JSON unless asked for readable lines; readable only in development at a terminal', () => {
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(32),
        TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
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
