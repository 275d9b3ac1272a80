import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { deferred, fail, fakeServer, ok, unauthenticated } from '@/testing/fake-server';
import { ApiError, createApiClient } from './api-client';

const REFRESH = 'POST /auth/refreshToken';

function setup(routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer(routes);
  const client = createApiClient({ baseUrl: '/api' });
  const onExpired = vi.fn();
  client.setSessionExpiredHandler(onExpired);
  return { server, client, onExpired };
}

/** First call answers 401 (expired access token), later calls succeed with `data`. */
function expiresOnce(data: unknown) {
  let calls = 0;
  return () => (++calls === 1 ? unauthenticated() : ok(data));
}

async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client: requests and errors', () => {
  it('sends cookies and JSON, and parses the answer with the contract schema', async () => {
    const { server, client } = setup({ 'POST /things': ok({ id: 't1' }) });
    const schema = z.object({ status: z.literal('success'), data: z.object({ id: z.string() }) });

    const answer = await client.post('/things', { name: 'A' }, { schema });

    expect(answer.data.id).toBe('t1');
    const init = server.requests[0]?.init;
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(server.requests[0]?.body).toEqual({ name: 'A' });
    expect(server.fetch).toHaveBeenCalledWith('/api/things', expect.anything());
  });

  it('turns the error envelope into an ApiError with status, code, message and details', async () => {
    const { client } = setup({
      'GET /posts': {
        status: 400,
        body: {
          status: 'error',
          code: 'VALIDATION_FAILED',
          message: 'Content is required.',
          details: { field: 'content' },
        },
      },
    });

    const error = await rejectionOf(client.get('/posts'));

    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Content is required.',
      details: { field: 'content' },
    });
  });

  it('explains answers without an envelope and unreachable servers', async () => {
    const { server, client } = setup({
      'GET /gateway': new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    expect(await rejectionOf(client.get('/gateway'))).toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
    });

    server.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await rejectionOf(client.get('/gateway'))).toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: 'Could not reach the server. Check your connection and try again.',
    });
  });

  it('rejects a success answer that does not match the contract', async () => {
    const { client } = setup({ 'GET /me': ok({ unexpected: true }) });
    const schema = z.object({ status: z.literal('success'), data: z.object({ id: z.string() }) });
    expect(await rejectionOf(client.get('/me', { schema }))).toMatchObject({
      code: 'INVALID_RESPONSE',
    });
  });

  it('returns undefined for an empty answer', async () => {
    const { client } = setup({ 'DELETE /things/1': { status: 204 } });
    await expect(client.delete('/things/1')).resolves.toBeUndefined();
  });
});

describe('api client: token refresh on 401', () => {
  it('refreshes once and replays the request, returning the replayed answer', async () => {
    const { server, client, onExpired } = setup({
      'GET /posts': expiresOnce({ posts: ['p1'] }),
      [REFRESH]: ok({ message: 'refreshed' }),
    });

    await expect(client.get('/posts')).resolves.toEqual({
      status: 'success',
      data: { posts: ['p1'] },
    });

    expect(server.count(REFRESH)).toBe(1);
    expect(server.count('GET /posts')).toBe(2);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('replays a create with the same Idempotency-Key, so the server creates it once', async () => {
    const { server, client } = setup({
      'POST /things': expiresOnce({ id: 't1' }),
      [REFRESH]: ok({ message: 'refreshed' }),
    });

    await client.post('/things', { name: 'A' });

    const keys = server.requests
      .filter((r) => r.method === 'POST' && r.path === '/things')
      .map((r) => new Headers(r.init?.headers).get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    await client.post('/things', { name: 'B' });
    const third = new Headers(server.requests.at(-1)?.init?.headers).get('Idempotency-Key');
    expect(third).not.toBe(keys[0]);
  });

  it('queues concurrent 401s behind a single refresh and retries each of them after it', async () => {
    const gate = deferred();
    const { server, client } = setup({
      'GET /a': expiresOnce('A'),
      'GET /b': expiresOnce('B'),
      'GET /c': expiresOnce('C'),
      [REFRESH]: async () => {
        await gate.promise;
        return ok({});
      },
    });

    const pending = Promise.all([client.get('/a'), client.get('/b'), client.get('/c')]);
    await vi.waitFor(() => {
      expect(server.count(REFRESH)).toBe(1);
      expect(server.count('GET /c')).toBe(1);
    });
    // Nothing is replayed while the refresh is still in flight.
    await Promise.resolve();
    expect(server.count('GET /a') + server.count('GET /b') + server.count('GET /c')).toBe(3);

    gate.resolve();
    const answers = await pending;

    expect(answers.map((a) => (a as { data: string }).data)).toEqual(['A', 'B', 'C']);
    expect(server.count(REFRESH)).toBe(1);
    expect(server.count('GET /a')).toBe(2);
    expect(server.count('GET /b')).toBe(2);
    expect(server.count('GET /c')).toBe(2);
  });

  it('rejects every queued request when the refresh fails, and reports the session as over once', async () => {
    const gate = deferred();
    const { server, client, onExpired } = setup({
      'GET /a': unauthenticated(),
      'GET /b': unauthenticated(),
      'GET /c': unauthenticated(),
      [REFRESH]: async () => {
        await gate.promise;
        return fail(401, 'UNAUTHENTICATED', 'Your session has ended.');
      },
    });

    const results = Promise.allSettled([client.get('/a'), client.get('/b'), client.get('/c')]);
    await vi.waitFor(() => expect(server.count('GET /c')).toBe(1));
    gate.resolve();
    const settled = await results;

    for (const result of settled) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
    }
    expect(server.count(REFRESH)).toBe(1);
    // Rejected, not replayed.
    expect(server.count('GET /a') + server.count('GET /b') + server.count('GET /c')).toBe(3);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('treats a network failure of the refresh as a failed refresh', async () => {
    const { server, client, onExpired } = setup({ 'GET /a': unauthenticated() });
    server.on(REFRESH, () => Promise.reject(new TypeError('Failed to fetch')));

    expect(await rejectionOf(client.get('/a'))).toMatchObject({ status: 401 });
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('does not loop when the replayed request answers 401 again', async () => {
    const { server, client } = setup({ 'GET /auth/me': unauthenticated(), [REFRESH]: ok({}) });

    expect(await rejectionOf(client.get('/auth/me'))).toMatchObject({ status: 401 });

    expect(server.count('GET /auth/me')).toBe(2);
    expect(server.count(REFRESH)).toBe(1);
  });

  it('never refreshes because the refresh call itself answered 401', async () => {
    const { server, client } = setup({ [REFRESH]: unauthenticated() });

    expect(await rejectionOf(client.post('/auth/refreshToken'))).toMatchObject({ status: 401 });
    expect(server.count(REFRESH)).toBe(1);
  });

  it('leaves 401s alone for calls that opt out', async () => {
    const { server, client } = setup({ 'POST /auth/logout': unauthenticated(), [REFRESH]: ok({}) });

    expect(
      await rejectionOf(client.post('/auth/logout', undefined, { skipAuthRefresh: true })),
    ).toMatchObject({ status: 401 });
    expect(server.count(REFRESH)).toBe(0);
  });

  it('replays without a second refresh when the 401 belongs to a request sent before the last refresh', async () => {
    const slow = deferred();
    let slowCalls = 0;
    const { server, client } = setup({
      'GET /fast': expiresOnce('fast'),
      // Sent with the old token; its 401 arrives after the refresh already finished.
      'GET /slow': async () => {
        if (++slowCalls === 1) {
          await slow.promise;
          return unauthenticated();
        }
        return ok('slow');
      },
      [REFRESH]: ok({}),
    });

    const slowAnswer = client.get('/slow');
    await expect(client.get('/fast')).resolves.toMatchObject({ data: 'fast' });
    slow.resolve();

    await expect(slowAnswer).resolves.toMatchObject({ data: 'slow' });
    expect(server.count(REFRESH)).toBe(1);
  });

  it('does not retry other errors', async () => {
    const { server, client } = setup({
      'GET /a': fail(403, 'FORBIDDEN', 'No access.'),
      [REFRESH]: ok({}),
    });

    expect(await rejectionOf(client.get('/a'))).toMatchObject({
      status: 403,
      message: 'No access.',
    });
    expect(server.count(REFRESH)).toBe(0);
    expect(server.count('GET /a')).toBe(1);
  });
});
