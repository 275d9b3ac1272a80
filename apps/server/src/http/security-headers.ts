import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer. @fastify/helmet built helmet's middleware again
 * for each request (parsing the Content-Security-Policy directives each time: a sixth of a
 * health check's CPU, issue 20). Herald's headers never depend on the request, so helmet runs
 * once here, into a recorder, and each request gets the recorded headers. They go on the raw
 * response, as helmet's own middleware does, so hijacked answers (the event stream) carry them.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string) {
      headers.set(name.toLowerCase(), String(value));
    },
    removeHeader(name: string) {
      removed.add(name.toLowerCase());
    },
  };
  let failed: unknown = null;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err ?? null;
  });
  if (failed) throw failed;
  const entries = [...headers];
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of entries) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    done();
  });
}
