import { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { selfFetch } from './self-fetch.js';

const PUBLIC = 'https://herald.example.com/api';

/** An app with the routes a server's calls to itself meet, counting the connections it accepts. */
async function appUnderTest() {
  const app = Fastify({ logger: false });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  let connections = 0;
  app.server.on('connection', () => connections++);
  const transport = (raw: unknown) => (raw instanceof IncomingMessage ? 'socket' : 'injected');
  app.get('/local/echo', async (request, reply) => {
    reply.header('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
    return {
      host: request.headers.host,
      proto: request.headers['x-forwarded-proto'],
      encoding: request.headers['accept-encoding'] ?? null,
      query: request.query,
      transport: transport(request.raw),
    };
  });
  app.post('/local/form', async (request) => ({
    type: request.headers['content-type'],
    body: request.body,
  }));
  app.delete('/local/nothing', async (_request, reply) => reply.code(204).send());
  app.post('/local/reset', async (_request, reply) => reply.code(205).send());
  app.get('/local/path/*', async (request) => ({ url: request.url }));
  app.get('/outside', async () => ({ where: 'outside' }));
  app.get('/local/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { late: true };
  });
  return { app, connections: () => connections };
}

let open: FastifyInstance | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

type Json = Record<string, unknown> & { transport?: string };

async function exercise(app: FastifyInstance) {
  const call = selfFetch(app, PUBLIC, '/local');
  const echoed = await call(`${PUBLIC}/echo?x=1&y=two`, {
    headers: { 'accept-encoding': 'br, gzip' },
  });
  const form = await call(`${PUBLIC}/form`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'ann@example.com', name: 'Ann Lee' }),
  });
  const none = await call(`${PUBLIC}/nothing`, { method: 'DELETE' });
  const reset = await call(`${PUBLIC}/reset`, { method: 'POST' });
  const head = await call(`${PUBLIC}/echo`, { method: 'HEAD' });
  const odd = await call(`${PUBLIC}/path/a b/café/./x/../y?q=é 1#part`);
  return {
    echo: {
      status: echoed.status,
      cookies: echoed.headers.getSetCookie(),
      ...((await echoed.json()) as Json),
    },
    form: { status: form.status, ...((await form.json()) as Json) },
    none: { status: none.status, body: none.body },
    reset: { status: reset.status, body: reset.body },
    head: { status: head.status, type: head.headers.get('content-type'), body: head.body },
    odd: { status: odd.status, ...((await odd.json()) as Json) },
  };
}

describe('selfFetch', () => {
  it('injects while the server does not listen, and answers the same over loopback once it does', async () => {
    const { app, connections } = await appUnderTest();
    open = app;
    const injected = await exercise(app);
    expect(injected.echo.transport).toBe('injected');
    expect(connections()).toBe(0);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const looped = await exercise(app);
    expect(looped.echo.transport).toBe('socket');
    expect(connections()).toBeGreaterThan(0);

    for (const answers of [injected, looped]) {
      expect(answers.echo).toMatchObject({
        status: 200,
        // The public URL's host and scheme, as a request from outside would carry them.
        host: 'herald.example.com',
        proto: 'https',
        // Answers to itself are never compressed: the Response could not decode them.
        encoding: null,
        query: { x: '1', y: 'two' },
        cookies: ['a=1; Path=/', 'b=2; Path=/'],
      });
      expect(answers.form).toEqual({
        status: 200,
        type: 'application/x-www-form-urlencoded;charset=UTF-8',
        body: { email: 'ann@example.com', name: 'Ann Lee' },
      });
      expect(answers.none).toEqual({ status: 204, body: null });
      expect(answers.reset).toEqual({ status: 205, body: null });
      expect(answers.head).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        body: null,
      });
      // The path as a client sends it: dot segments resolved, percent-encoded, no fragment.
      expect(answers.odd).toEqual({
        status: 200,
        url: '/local/path/a%20b/caf%C3%A9/y?q=%C3%A9%201',
      });
    }
  });

  it('reaches a server listening on every address over IPv4 loopback', async () => {
    const { app, connections } = await appUnderTest();
    open = app;
    await app.listen({ port: 0, host: '::' });
    const res = await selfFetch(app, PUBLIC, '/local')(`${PUBLIC}/echo`);
    expect(((await res.json()) as Json).transport).toBe('socket');
    expect(connections()).toBe(1);
  });

  it('reaches a server listening on IPv6 only on ::1', async () => {
    const { app, connections } = await appUnderTest();
    open = app;
    await app.listen({ port: 0, host: '::', ipv6Only: true });
    const res = await selfFetch(app, PUBLIC, '/local')(`${PUBLIC}/echo`);
    expect(((await res.json()) as Json).transport).toBe('socket');
    expect(connections()).toBe(1);
  });

  it('leaves to the network a URL whose dot segments climb out of the prefix', async () => {
    const { app } = await appUnderTest();
    open = app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const call = selfFetch(app, `${origin}/inner`, '/local');
    // Fetched as the URL says (its path resolves to /outside), not mapped under /local.
    const res = await call(`${origin}/inner/../outside`);
    expect(await res.json()).toEqual({ where: 'outside' });
  });

  it('reuses its connections to the server', async () => {
    const { app, connections } = await appUnderTest();
    open = app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const call = selfFetch(app, PUBLIC, '/local');
    for (let i = 0; i < 5; i++) {
      const res = await call(`${PUBLIC}/echo?i=${i}`);
      expect(((await res.json()) as Json).query).toEqual({ i: String(i) });
    }
    expect(connections()).toBe(1);
  });

  it("gives up at the caller's deadline over loopback", async () => {
    const { app } = await appUnderTest();
    open = app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const call = selfFetch(app, PUBLIC, '/local');
    const started = Date.now();
    await expect(call(`${PUBLIC}/slow`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
