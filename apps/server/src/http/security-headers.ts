import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { addMissingHeaders } from '../lib/hijack.js';

/** The headers an answer of either kind carries. */
export interface SecurityHeaderSets {
  /** For pages, files, redirects and streams: helmet's whole set. */
  page: Readonly<Record<string, string>>;
  /** For JSON answers: the few that mean something to data (OWASP's REST Security Cheat Sheet). */
  json: Readonly<Record<string, string>>;
}

/** A JSON media type (application/json, application/problem+json…), parameters allowed. */
export const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Helmet's headers, worked out once: they never depend on the request. (@fastify/helmet built
 * helmet's middleware again for each request, parsing the Content-Security-Policy directives
 * each time: a sixth of a health check's CPU.)
 *
 * A JSON answer is never a document: a browser neither renders it nor loads anything for it, so
 * the headers about rendering (referrer policy, opener and agent cluster, DNS prefetch, the
 * legacy XSS filter, Flash and IE download rules) do nothing there. It carries the ones that do:
 * no sniffing it as something else, no framing it, no reading it cross-origin without CORS,
 * HTTPS only where the site is on HTTPS, a policy under which, were it opened as a page, it could
 * load nothing, and no caching (it is per person and per moment). Each header costs the server
 * and every client parsing it (~1 µs a header on this machine): a JSON answer carries
 * five of them (six on HTTPS) instead of eleven (twelve) and the cache-control.
 */
export function securityHeaderSets(options: HelmetOptions): SecurityHeaderSets {
  const page: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      page[name.toLowerCase()] = String(value);
    },
    // Helmet removes X-Powered-By, which Fastify never sets.
    removeHeader() {},
  };
  let failed: unknown = null;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err ?? null;
  });
  if (failed) throw failed;
  const json: Record<string, string> = {
    // API answers are per person and per moment: no shared or browser cache keeps them.
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  for (const name of ['cross-origin-resource-policy', 'strict-transport-security']) {
    if (page[name] !== undefined) json[name] = page[name];
  }
  return { page, json };
}

/**
 * Security headers on every answer, chosen by what it is once it is known (onSend): JSON answers
 * take the JSON set, everything else the page set. They reach Node with Fastify's own headers in
 * one `writeHead` (set one by one on the raw response, each was validated and stored on its own:
 * ~6 % of a health check). An answer written past Fastify takes the page set along with
 * `hijackWithHeaders` (lib/hijack.ts), which finds it on the instance (`pageHeaders`).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const sets = securityHeaderSets(options);
  app.decorate('pageHeaders', sets.page);
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    addMissingHeaders(
      reply,
      typeof type === 'string' && JSON_TYPE.test(type) ? sets.json : sets.page,
    );
    done(null, payload);
  });
}
