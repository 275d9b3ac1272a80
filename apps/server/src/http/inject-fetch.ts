import type { FastifyInstance } from 'fastify';

export type InProcessFetch = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that answers requests under `publicPrefix` by injecting them into this Fastify
 * instance (where that prefix is mounted at `localPath`), and sends anything else over the
 * network. Used for the built-in identity provider and the network sandboxes: the server talks
 * to its own emulators without depending on its public URL resolving from inside.
 */
export function injectFetch(
  app: FastifyInstance,
  publicPrefix: string,
  localPath: string,
): InProcessFetch {
  return async (url, init = {}) => {
    if (!url.startsWith(publicPrefix)) return fetch(url, init);
    // Request normalises every body type (form data, URLSearchParams, bytes) and its content type.
    const request = new Request(url, init);
    const target = new URL(url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      // In-process answers are never compressed: the Response below would not decode them.
      if (key !== 'accept-encoding') headers[key] = value;
    });
    headers.host = target.host;
    headers['x-forwarded-proto'] = target.protocol.replace(':', '');
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as 'GET',
      url: `${localPath}${url.slice(publicPrefix.length).split('?')[0]}${target.search}`,
      headers,
      ...(body ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of [value].flat()) responseHeaders.append(key, String(v));
    }
    const noBody = res.statusCode === 204 || res.statusCode === 304 || res.rawPayload.length === 0;
    return new Response(noBody ? null : res.rawPayload, {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
}
