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
 * a health check ~20 % slower for the rest of the process's life.
 */
export function selfFetch(
  app: FastifyInstance,
  publicPrefix: string,
  localPath: string,
): InProcessFetch {
  const prefix = new URL(publicPrefix);
  // The prefix's own path ('' for a bare origin), without a closing slash.
  const prefixPath = prefix.pathname.replace(/\/$/, '');
  return async (url, init = {}) => {
    const target = new URL(url);
    const rest = target.pathname.slice(prefixPath.length);
    // Only the prefix's own origin, and what stays under its path once dot segments are resolved
    // (`https://host.evil.example` or `https://host@evil.example` are not ours).
    const ours =
      target.origin === prefix.origin &&
      target.pathname.startsWith(prefixPath) &&
      (rest === '' || rest.startsWith('/'));
    if (!ours) return fetch(url, init);
    // Request normalises every body type (form data, URLSearchParams, bytes) and its content type.
    const request = new Request(url, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      // In-process answers are never compressed: the Response below would not decode them.
      if (key !== 'accept-encoding') headers[key] = value;
    });
    headers.host = target.host;
    headers['x-forwarded-proto'] = target.protocol.replace(':', '');
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    // From the parsed URL: percent-encoded as a client would send it, without a fragment.
    const path = `${localPath}${rest}${target.search}`;
    const address = app.server.listening ? app.server.address() : null;
    if (typeof address === 'string') {
      return overLoopback(
        { socketPath: address },
        request.method,
        path,
        headers,
        body,
        init.signal,
      );
    }
    if (address) {
      const send = (host: string) =>
        overLoopback(
          { host, port: address.port },
          request.method,
          path,
          headers,
          body,
          init.signal,
        );
      try {
        return await send(loopbackOf(address));
      } catch (err) {
        const refused = (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
        if (refused && address.address === '::') return send('::1');
        throw err;
      }
    }

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
    const noBody = NO_BODY.has(res.statusCode) || res.rawPayload.length === 0;
    return new Response(noBody ? null : res.rawPayload, {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
}

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * Where a client on this machine reaches a server bound to `address`. A server on every address
 * is reached on 127.0.0.1, which answers even where IPv6 is switched off; one on '::' that only
 * takes IPv6 (bindv6only, the BSDs) refuses that, and is then reached on ::1 (`overLoopback`).
 */
function loopbackOf(address: AddressInfo): string {
  if (address.address === '0.0.0.0' || address.address === '::') return '127.0.0.1';
  return address.address;
}

function overLoopback(
  where: { socketPath: string } | { host: string; port: number },
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
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
      try {
        const status = res.statusCode ?? 502;
        const responseHeaders = new Headers();
        // Raw pairs keep repeated headers (several set-cookie) apart.
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        if (NO_BODY.has(status) || method === 'HEAD') {
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
      } catch (error) {
        // A header value the Headers class refuses, say: the caller's promise fails, not the process.
        res.resume();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.end(body);
  });
}
