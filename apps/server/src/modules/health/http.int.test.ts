import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  signInThroughDevProvider,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/app.js';
import { usePostgres } from '../../test/postgres.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => t.close());

describe('the error envelope', () => {
  it('answers an unknown API path with a 404 envelope naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      status: 'error',
      code: 'NOT_FOUND',
      message: 'There is no GET /api/does-not-exist in this API.',
    });
  });

  it('answers malformed JSON with 400 and a sentence', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: '{"broken": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'error', code: 'BAD_REQUEST' });
    expect(res.json().message).toMatch(/not valid JSON/);
  });

  it('answers a body over the size limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: JSON.stringify({ filler: 'x'.repeat(5000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 'error', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a query that breaks the contract with 400 and the field at fault', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/google?returnTo=https://evil.example',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toMatch(/returnTo/);
  });

  it('tags every answer with a request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('health and documentation', () => {
  it('reports the process up and the database reachable', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/healthz' })).json()).toEqual({
      status: 'ok',
    });
    const ready = await t.app.inject({ method: 'GET', url: '/api/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('serves an OpenAPI 3 document generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/me', '/api/auth/refreshToken', '/api/readyz']),
    );
    const me = doc.paths['/api/auth/me'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(me)).toContain('organizationId');
  });
});

describe('when the database goes away', () => {
  it('answers 503 from readyz and from requests that need it', async () => {
    const own = await createTestApp();
    const { jar } = await signInThroughDevProvider(own.app, 'outage@example.com');
    await own.database.close();
    const ready = await own.app.inject({ method: 'GET', url: '/api/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'failed' } });
    const me = await own.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: jar.header() },
    });
    expect(me.statusCode).toBe(503);
    expect(me.json()).toMatchObject({ status: 'error', code: 'UNAVAILABLE' });
    await own.close();
  });
});

// Cutting connections only means something on a server; PGlite lives in the process.
describe('on PostgreSQL, after the connections are cut', () => {
  const server = usePostgres();
  it('recovers without a restart', async () => {
    const own = await createTestApp();
    if (own.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: server.url() });
    await admin.connect();
    const dbName = new URL(own.database.url).pathname.slice(1);
    const cut = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
      [dbName],
    );
    await admin.end();
    expect(cut.rowCount).toBeGreaterThan(0);
    let status = 0;
    for (let i = 0; i < 5 && status !== 200; i++) {
      status = (await own.app.inject({ method: 'GET', url: '/api/readyz' })).statusCode;
    }
    expect(status).toBe(200);
    await own.close();
  });
});
