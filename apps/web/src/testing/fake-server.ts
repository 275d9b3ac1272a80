import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  /** Path without the API base, e.g. "/auth/me". */
  path: string;
  /** The query string's parameters (routes are matched without them). */
  query: URLSearchParams;
  body: unknown;
  init: RequestInit | undefined;
}

export type FakeReply = { status: number; body?: unknown } | Response;
export type Handler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export const ok = (data: unknown): FakeReply => ({
  status: 200,
  body: { status: 'success', data },
});
export const fail = (status: number, code: string, message: string): FakeReply => ({
  status,
  body: { status: 'error', code, message },
});
export const unauthenticated = () => fail(401, 'UNAUTHENTICATED', 'Please sign in.');

/** A promise the test resolves when it wants: holds a fake answer "in flight". */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function toResponse(reply: FakeReply): Response {
  if (reply instanceof Response) return reply;
  if (reply.body === undefined) return new Response(null, { status: reply.status });
  return new Response(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Replaces global fetch with routes keyed "METHOD /path" (query strings ignored). Unknown
 * routes answer 404 so a forgotten route fails loudly instead of hanging.
 */
export function fakeServer(routes: Record<string, Handler | FakeReply> = {}, base = '/api') {
  const table = new Map(Object.entries(routes));
  const requests: FakeRequest[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const withoutBase = url.startsWith(base) ? url.slice(base.length) : url;
    const [path = withoutBase, search = ''] = withoutBase.split('?');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body;
    const request = { method, path, query: new URLSearchParams(search), body, init };
    requests.push(request);
    const route = table.get(`${method} ${path}`);
    if (!route) return toResponse(fail(404, 'NOT_FOUND', `No fake route for ${method} ${path}`));
    return toResponse(typeof route === 'function' ? await route(request) : route);
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    fetch: fetchMock,
    requests,
    /** Replaces or adds a route mid-test. */
    on(key: string, route: Handler | FakeReply) {
      table.set(key, route);
    },
    /** How many times "METHOD /path" was called. */
    count(key: string) {
      return requests.filter((r) => `${r.method} ${r.path}` === key).length;
    },
  };
}
