import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { rawRequest } from '../test/fuzz/raw-http.js';

/** Errors met before any route runs (router, HTTP parser) answer with the envelope too. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const envelope = (body: string) =>
  JSON.parse(body) as { status: string; code: string; message: string };

describe('framework errors', () => {
  it('answers a malformed percent-encoding with a 400 envelope that does not echo the path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/organizations/%C0%AE%C0%AE' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 'error',
      code: 'BAD_REQUEST',
      message: 'The address is not valid: it contains a malformed percent-encoding.',
    });
    const lone = await rawRequest(port, 'GET /api/organizations/% HTTP/1.1\r\nHost: x', 5000);
    expect(lone.status).toBe(400);
    expect(envelope(lone.body)).toMatchObject({ status: 'error', code: 'BAD_REQUEST' });
  });

  it('answers a path parameter over the length limit with a short 414 envelope', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/organizations/${'a'.repeat(5000)}`,
    });
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json()).toEqual({
      status: 'error',
      code: 'BAD_REQUEST',
      message: 'The address is too long: a part of its path exceeds the length limit.',
    });
  });

  it('answers headers over the size limit with a 431 envelope', async () => {
    const res = await rawRequest(
      port,
      `GET /api/healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}`,
      5000,
    );
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(envelope(res.body)).toEqual({
      status: 'error',
      code: 'BAD_REQUEST',
      message: 'The request headers are too large. Send fewer or smaller ones.',
    });
  });

  it('answers a request that is not HTTP with a 400 envelope', async () => {
    const res = await rawRequest(port, 'HELLO THERE\r\nHost: x', 5000);
    expect(res.status).toBe(400);
    expect(envelope(res.body)).toEqual({
      status: 'error',
      code: 'BAD_REQUEST',
      message: 'The request is not valid HTTP.',
    });
  });
});
