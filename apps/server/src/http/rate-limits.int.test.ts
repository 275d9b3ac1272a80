import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/client.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../test/app.js';
import { createOrg, signIn } from '../test/factories.js';
import { png } from '../test/media-fixtures.js';
import { multipart } from '../test/multipart.js';
import { connectThroughSandbox } from '../test/networks.js';
import { usePostgres } from '../test/postgres.js';
import { RedisCounterStore } from './rate-limits.js';
import { useRedis } from '../test/redis.js';

const apps: TestApp[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
  for (const cleanup of cleanups) await cleanup();
}, 60_000);

async function app(env: Record<string, string>, options: Parameters<typeof createTestApp>[1] = {}) {
  const created = await createTestApp(env, options);
  apps.push(created);
  return created;
}

const startSignIn = (t: TestApp, ip = '203.0.113.7') =>
  t.app.inject({
    method: 'GET',
    url: '/api/auth/google',
    headers: { 'x-forwarded-for': ip },
  });

function expectRateLimited(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): any;
}) {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  const body = res.json();
  expect(body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
  expect(body.message).toMatch(/Try again in \d+ (seconds?|minutes)\./);
}

describe('per IP on sign-in and token routes', () => {
  it('answers a burst with 429, Retry-After and the envelope; other addresses go on', async () => {
    const t = await app({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) expect((await startSignIn(t)).statusCode).toBe(302);
    const refused = await startSignIn(t);
    expectRateLimited(refused);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json().message).toMatch(/^Too many sign-in attempts/);
    expect((await startSignIn(t, '198.51.100.4')).statusCode).toBe(302);

    // Token refresh guesses are counted the same way, on their own route.
    const refresh = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/refreshToken',
        headers: {
          'x-forwarded-for': '203.0.113.7',
          cookie: 'herald_rt=guess',
          origin: TEST_PUBLIC_URL,
        },
      });
    for (let i = 0; i < 3; i++) expect((await refresh()).statusCode).toBe(401);
    expectRateLimited(await refresh());
  }, 60_000);

  it('does nothing when disabled', async () => {
    const t = await app({ RATE_LIMIT_SIGNIN_PER_MINUTE: '1', RATE_LIMIT_DISABLED: 'true' });
    for (let i = 0; i < 4; i++) expect((await startSignIn(t)).statusCode).toBe(302);
  }, 60_000);
});

describe('per user on writes', () => {
  it("refuses a user's writes beyond the limit while another user goes on", async () => {
    const t = await app({ RATE_LIMIT_WRITES_PER_MINUTE: '4' });
    const ann = await signIn(t.app, 'ann@example.com');
    const bob = await signIn(t.app, 'bob@example.com');
    const rename = (who: typeof ann, i: number) =>
      who.call('PUT', `/api/users/${who.userId}`, { displayName: `Name ${i}` });
    for (let i = 0; i < 4; i++) expect((await rename(ann, i)).status).toBe(200);
    const refused = await rename(ann, 5);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect(refused.body.message).toMatch(/^You are making changes too quickly\. Try again in/);
    // Reads are not writes.
    expect((await ann.call('GET', '/api/auth/me')).status).toBe(200);
    expect((await rename(bob, 1)).status).toBe(200);
  }, 60_000);
});

/**
 * An organization with X connected, on an app whose hourly upload budget is `budget(bytes of
 * image)`; `post` sends a post with that image, `stored` counts the files kept.
 */
async function uploadsWithBudget(budget: (imageBytes: number) => number) {
  const dir = await mkdtemp(join(tmpdir(), 'herald-limits-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const image = await png(320, 240);
  const t = await app({
    MEDIA_DIR: join(dir, 'store'),
    MEDIA_TEMP_DIR: join(dir, 'tmp'),
    RATE_LIMIT_UPLOAD_BYTES_PER_HOUR: String(budget(image.length)),
  });
  const supported = await t.app.inject({ method: 'GET', url: '/api/platforms/supported' });
  const x = supported.json().data.platforms.find((p: { name: string }) => p.name === 'X').id;
  const { owner, orgId } = await createOrg(t.app, 'owner@example.com');
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const post = async (
    fields: Record<string, string>,
    files = [{ name: 'a.png', type: 'image/png', data: image }],
  ) => {
    const body = await multipart(
      { platformIds: JSON.stringify([x]), action: 'draft', ...fields },
      files,
    );
    return send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
  };
  const stored = async () =>
    (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) =>
      e.isFile(),
    ).length;
  return { t, x, owner, orgId, image, post, stored };
}

/** Room for one post with the image (and its multipart framing), not two. */
const budgetOfOnePost = () => uploadsWithBudget((bytes) => bytes * 2 - 1);

describe('per organization on uploads', () => {
  it('refuses an upload beyond the hourly byte budget before storing it', async () => {
    const { post, stored } = await budgetOfOnePost();
    expect((await post({ content: 'with a picture' })).statusCode).toBe(201);
    const before = await stored();
    expect(before).toBeGreaterThan(0);
    const refused = await post({ content: 'with a picture' });
    expectRateLimited(refused);
    expect(refused.json().message).toMatch(/upload allowance of .* for this hour/);
    expect(await stored()).toBe(before);
    // The refused request gave its reservation back: a text-only post still fits.
    expect((await post({ content: 'no picture' }, [])).statusCode).toBe(201);
  }, 120_000);

  it('gives back the bytes of an upload refused for another reason', async () => {
    const { post } = await budgetOfOnePost();
    // Refused for what it says, after its bytes were reserved: the reservation is given back,
    // so the corrected post still fits the budget of one.
    const wrong = await post({ content: 'with a picture', platformIds: 'not a list' });
    expect(wrong.statusCode).toBe(400);
    expect((await post({ content: 'with a picture' })).statusCode).toBe(201);
  }, 120_000);
});

describe('per organization on uploads without Content-Length', () => {
  it('counts the bytes as they stream and refuses past the budget, storing nothing', async () => {
    const { t, x, owner, orgId, image, stored } = await uploadsWithBudget((bytes) =>
      Math.floor(bytes / 2),
    );
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const body = await multipart(
      { platformIds: JSON.stringify([x]), content: 'streamed', action: 'draft' },
      [{ name: 'a.png', type: 'image/png', data: image }],
    );
    const answer = await new Promise<{ status: number; retryAfter: string; json: any }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/api/organizations/${orgId}/post`,
            // No Content-Length: the body goes chunked.
            headers: { ...body.headers, origin: TEST_PUBLIC_URL, cookie: owner.jar.header() },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                retryAfter: String(res.headers['retry-after']),
                json: JSON.parse(text),
              }),
            );
          },
        );
        req.on('error', reject);
        req.write(body.payload.subarray(0, 1000));
        req.end(body.payload.subarray(1000));
      },
    );
    expect(answer.status).toBe(429);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.json).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect(await stored()).toBe(0);
  }, 120_000);
});

describe('counters shared by two API processes on one PostgreSQL database', () => {
  usePostgres();
  it('counts requests to either instance together', async () => {
    const env = { RATE_LIMIT_SIGNIN_PER_MINUTE: '4' };
    // Closed here: the PostgreSQL server of this block stops before the file's afterAll.
    const a = await createTestApp(env);
    try {
      if (a.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const second = await openPostgres(a.database.url, 2);
      const b = await createTestApp(env, { database: second });
      try {
        expect((await startSignIn(a)).statusCode).toBe(302);
        expect((await startSignIn(b)).statusCode).toBe(302);
        expect((await startSignIn(a)).statusCode).toBe(302);
        expect((await startSignIn(b)).statusCode).toBe(302);
        expectRateLimited(await startSignIn(a));
        expectRateLimited(await startSignIn(b));
      } finally {
        await b.close();
        await second.close();
      }
    } finally {
      await a.close();
    }
  }, 120_000);
});

describe('counters in Redis (REDIS_URL)', () => {
  const redis = useRedis();
  it('shares a window between stores and lets it expire', async () => {
    const one = await RedisCounterStore.connect(redis.url());
    const two = await RedisCounterStore.connect(redis.url());
    try {
      const key = `test:${Date.now()}:${Math.random()}`;
      expect((await one.add(key, 1, 300)).count).toBe(1);
      const second = await two.add(key, 5, 300);
      expect(second.count).toBe(6);
      expect(second.resetInMs).toBeGreaterThan(0);
      expect(second.resetInMs).toBeLessThanOrEqual(300);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect((await one.add(key, 1, 300)).count).toBe(1);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('limits sign-ins through the app', async () => {
    // Closed here, while its Redis still runs.
    const t = await createTestApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '2', REDIS_URL: redis.url() });
    try {
      const ip = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}::1`;
      expect((await startSignIn(t, ip)).statusCode).toBe(302);
      expect((await startSignIn(t, ip)).statusCode).toBe(302);
      expectRateLimited(await startSignIn(t, ip));
    } finally {
      await t.close();
    }
  }, 60_000);
});
