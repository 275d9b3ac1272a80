import type { FastifyInstance } from 'fastify';

export interface HostRedirectOptions {
  /** Where the SPA lives (PUBLIC_URL's origin). */
  publicUrl: string;
  /** Where the API lives (API_PUBLIC_URL); the sign-in start route is sent there. */
  apiPublicUrl: string;
  apiBasePath: string;
  /** Whether this process serves the SPA's pages (else only the sign-in start is a page). */
  pages: boolean;
}

/**
 * Sends page requests that arrive by another host name (127.0.0.1 while PUBLIC_URL says
 * localhost) to the same path on the public URL: cookies belong to a host name, so a sign-in
 * started on one host and finished on the other finds no pending state. Only GET/HEAD pages and
 * the sign-in start route; API calls, sandboxes and health checks answer on any host. Ports are
 * not compared: cookies do not depend on them.
 */
export function registerHostRedirect(app: FastifyInstance, options: HostRedirectOptions) {
  const base = options.apiBasePath;
  const signInStart = `${base}/auth/google`;
  const pageHost = new URL(options.publicUrl).hostname;
  const api = new URL(options.apiPublicUrl);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    const path = request.url.split('?')[0]!;
    const isApi = base === '' ? path !== '/' : path === base || path.startsWith(`${base}/`);
    let target: { origin: string; hostname: string };
    if (path === signInStart) target = api;
    else if (options.pages && !isApi) target = { origin: options.publicUrl, hostname: pageHost };
    else return done();
    const hostname = request.hostname.toLowerCase();
    if (!hostname || hostname === target.hostname) return done();
    // Answered here: the request goes no further (done is not called).
    reply.redirect(`${target.origin}${request.url}`, 302);
  });
}
