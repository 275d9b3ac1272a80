import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface HeraldClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Herald's address, where its API answers under /api (e.g. https://herald.example.com). */
  baseUrl: string;
  /** An organization API key (Settings → API keys), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/** The typed client: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` with Herald's paths and bodies. */
export type HeraldClient = Client<paths>;

/**
 * A client for Herald's public API. Every path, parameter, body and answer is typed from the
 * OpenAPI document the server generates from its contract; the runtime is openapi-fetch (a thin
 * layer over `fetch`). Each call resolves with `{ data }` on success and `{ error }` (Herald's
 * `{status, code, message}`) otherwise, and `response` for headers and status.
 */
export function createHeraldClient({
  baseUrl,
  apiKey,
  headers,
  ...options
}: HeraldClientOptions): HeraldClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });
}
