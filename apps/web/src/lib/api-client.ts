import type { z } from 'zod';
import { ApiError, apiErrorFrom, NETWORK_MESSAGE, parseJson } from './api-error';

export { ApiError } from './api-error';

export const API_BASE = import.meta.env.VITE_API_BASE ?? '/api';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/**
 * A schema fetched with `import()` when the request starts, for the answers the first screens
 * need (session, plans): zod and the contract then load alongside the request instead of being
 * part of the first download. See lib/lazy-schemas.ts.
 */
export type SchemaLoader<S extends z.ZodType | undefined> = () => Promise<S>;

export interface RequestOptions<S extends z.ZodType | undefined = undefined> {
  method?: Method;
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  /** The contract schema of the success answer (or its loader); the answer is parsed with it. */
  schema?: S | SchemaLoader<S>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Never try a token refresh on 401 (logout, and any call where 401 is an answer). */
  skipAuthRefresh?: boolean;
}

export interface ApiClientOptions {
  baseUrl: string;
  refreshPath?: string;
}

async function readJson(response: Response): Promise<unknown> {
  return parseJson(await response.text());
}

async function toApiError(response: Response): Promise<ApiError> {
  return apiErrorFrom(response.status, await response.text());
}

/** Starts loading a lazy schema at once; a failed load surfaces when the answer is parsed. */
function loadSchema<S extends z.ZodType | undefined>(
  schema: S | SchemaLoader<S> | undefined,
): Promise<S | undefined> {
  if (typeof schema !== 'function') return Promise.resolve(schema);
  const loading = schema();
  loading.catch(() => {});
  return loading;
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Builds the HTTP client. Access tokens are short-lived httpOnly cookies, so a 401 usually
 * means "refresh first": the client calls the refresh endpoint once, makes every other
 * request that failed meanwhile wait for that same refresh, then replays each of them once.
 * If the refresh fails, all waiting requests fail with their 401 and the session-expired
 * handler runs (once) so the app can forget the user.
 */
export function createApiClient({ baseUrl, refreshPath = '/auth/refreshToken' }: ApiClientOptions) {
  let refreshInFlight: Promise<void> | null = null;
  // Bumped after every successful refresh: a 401 for a request sent before the latest
  // refresh only needs a replay, not another refresh (rotation would waste a token).
  let sessionGeneration = 0;
  let onSessionExpired: () => void = () => {};

  async function send(
    path: string,
    options: Pick<RequestOptions, 'body' | 'headers' | 'method' | 'signal'>,
  ) {
    const headers = new Headers({ Accept: 'application/json', ...options.headers });
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    try {
      return await fetch(`${baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body,
        credentials: 'include',
        signal: options.signal,
      });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE);
    }
  }

  function refreshSession(): Promise<void> {
    refreshInFlight ??= (async () => {
      try {
        const response = await send(refreshPath, { method: 'POST' });
        if (!response.ok) throw await toApiError(response);
        sessionGeneration += 1;
      } catch (error) {
        onSessionExpired();
        throw error;
      } finally {
        refreshInFlight = null;
      }
    })();
    return refreshInFlight;
  }

  async function request<S extends z.ZodType | undefined = undefined>(
    path: string,
    options: RequestOptions<S> = {},
  ): Promise<Parsed<S>> {
    const generation = sessionGeneration;
    const schemaReady = loadSchema(options.schema);
    // A create that is replayed (after a session refresh) or retried must not create twice:
    // each POST carries one Idempotency-Key for all its sends.
    if ((options.method ?? 'GET') === 'POST' && path !== refreshPath) {
      options = {
        ...options,
        headers: { 'Idempotency-Key': crypto.randomUUID(), ...options.headers },
      };
    }
    let response = await send(path, options);

    const mayRefresh = !options.skipAuthRefresh && path !== refreshPath;
    if (response.status === 401 && mayRefresh) {
      const unauthorized = await toApiError(response);
      if (generation === sessionGeneration) {
        try {
          await refreshSession();
        } catch {
          throw unauthorized;
        }
      }
      // Replayed once: a second 401 is the answer, never a reason to refresh again.
      response = await send(path, options);
    }

    if (!response.ok) throw await toApiError(response);
    const json = response.status === 204 ? undefined : await readJson(response);
    const schema = await schemaReady;
    if (!schema) return json as Parsed<S>;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(
        response.status,
        'INVALID_RESPONSE',
        'The server sent an answer this app does not understand. Please reload the page.',
        parsed.error.issues,
      );
    }
    return parsed.data as Parsed<S>;
  }

  type Options<S extends z.ZodType | undefined> = Omit<RequestOptions<S>, 'method' | 'body'>;

  return {
    request,
    get: <S extends z.ZodType | undefined = undefined>(path: string, options?: Options<S>) =>
      request<S>(path, { ...options, method: 'GET' }),
    post: <S extends z.ZodType | undefined = undefined>(
      path: string,
      body?: unknown,
      options?: Options<S>,
    ) => request<S>(path, { ...options, method: 'POST', body }),
    put: <S extends z.ZodType | undefined = undefined>(
      path: string,
      body?: unknown,
      options?: Options<S>,
    ) => request<S>(path, { ...options, method: 'PUT', body }),
    patch: <S extends z.ZodType | undefined = undefined>(
      path: string,
      body?: unknown,
      options?: Options<S>,
    ) => request<S>(path, { ...options, method: 'PATCH', body }),
    delete: <S extends z.ZodType | undefined = undefined>(path: string, options?: Options<S>) =>
      request<S>(path, { ...options, method: 'DELETE' }),
    /**
     * Rotates the session now, sharing a refresh already under way (for calls that cannot go
     * through `request`, such as an upload with progress).
     */
    refreshSession,
    /** Runs when a refresh fails; returns a function that removes the handler. */
    setSessionExpiredHandler(handler: () => void): () => void {
      onSessionExpired = handler;
      return () => {
        if (onSessionExpired === handler) onSessionExpired = () => {};
      };
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The client every feature uses. */
export const apiClient = createApiClient({ baseUrl: API_BASE });
