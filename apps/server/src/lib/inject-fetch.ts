import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';

/**
 * A fetch for openid-client that answers requests to `publicPrefix` by injecting them into this
 * Fastify instance (mounted at `localPath`), and sends anything else over the network.
 */
export function injectFetch(
  app: FastifyInstance,
  publicPrefix: string,
  localPath: string,
): CustomFetch {
  return async (url, init) => {
    if (!url.startsWith(publicPrefix)) return fetch(url, init as RequestInit);
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, key) => {
      headers[key] = value;
    });
    headers.host = target.host;
    headers['x-forwarded-proto'] = target.protocol.replace(':', '');
    const res = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${localPath}${url.slice(publicPrefix.length).split('?')[0]}${target.search}`,
      headers,
      ...(init.body !== undefined && init.body !== null ? { payload: toPayload(init.body) } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of [value].flat()) responseHeaders.append(key, String(v));
    }
    return new Response(res.rawPayload.length ? res.rawPayload : null, {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
}

function toPayload(body: unknown): string | Buffer {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new Error('Unsupported request body for an in-process call.');
}
