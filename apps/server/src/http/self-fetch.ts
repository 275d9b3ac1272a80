import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export type InProcessFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** Kept-alive connections to this process's own server (idle ones never hold the process). */
const selfAgent = new Agent({ keepAlive: true });

/**
 * A fetch that answers requests under `publicPrefix` from this Fastify instance (where that
 * prefix is mounted at `localPath`), and sends anything else over the network. Used for the
 * built-in identity provider and the network sandboxes: the server talks to its own emulators
 * without depending on its public URL resolving from inside.
 *
 * Once the server listens, such a request goes to its own address over loopback, as any client's
 * would. Until then (a test's app that is never started) it is injected. Injecting into a
 * listening server cost every later request: light-my-request's stand-ins for Node's request and
 * response pass through the same Fastify and Node functions, and after one sign-in those served
 * a health check ~20 % slower for the rest of the process's life (issue 20).
 */
export function selfFetch(
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
    const path = `${localPath}${url.slice(publicPrefix.length).split('?')[0]}${target.search}`;
    const address = app.server.listening ? app.server.address() : null;
    if (address) return overLoopback(address, request.method, path, headers, body, init.signal);

    const res = await app.inject({
      method: request.method as 'GET',
      url: path,
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

/** Where a client on this machine reaches a server bound to `address`. */
function loopbackOf(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '::1';
  return address.address;
}

function overLoopback(
  address: AddressInfo | string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
  const where =
    typeof address === 'string'
      ? { socketPath: address }
      : { host: loopbackOf(address), port: address.port };
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      ...where,
      method,
      path,
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      agent: selfAgent,
      ...(signal ? { signal } : {}),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const status = res.statusCode ?? 502;
      const responseHeaders = new Headers();
      // Raw pairs keep repeated headers (several set-cookie) apart.
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      if (status === 204 || status === 304 || method === 'HEAD') {
        res.resume();
        resolve(new Response(null, { status, headers: responseHeaders }));
        return;
      }
      resolve(
        new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, {
          status,
          headers: responseHeaders,
        }),
      );
    });
    req.end(body);
  });
}
