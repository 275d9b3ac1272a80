import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer. @fastify/helmet built helmet's middleware again
 * for each request (parsing the Content-Security-Policy directives each time: a sixth of a
 * health check's CPU, issue 20). Herald's headers never depend on the request, so helmet runs
 * once here, into a recorder, and each request gets the recorded headers through Fastify, which
 * hands them to Node in one `writeHead`. (Set on the raw response, each was validated and
 * stored on its own and then merged with Fastify's: ~6 % of a health check.) An answer written
 * past Fastify takes them along with `hijackWithHeaders` (lib/hijack.ts).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value);
    },
    // Helmet removes X-Powered-By, which Fastify never sets.
    removeHeader() {},
  };
  let failed: unknown = null;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err ?? null;
  });
  if (failed) throw failed;
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
