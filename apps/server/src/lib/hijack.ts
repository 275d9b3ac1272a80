import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers of pages and streams (set by http/security-headers.ts). */
    pageHeaders?: Readonly<Record<string, string>>;
  }
}

/** Puts the headers of `set` the reply does not have yet: a route's own choice stands. */
export function addMissingHeaders(reply: FastifyReply, set: Readonly<Record<string, string>>) {
  for (const name in set) {
    if (!reply.hasHeader(name)) reply.header(name, set[name]);
  }
}

/**
 * `reply.hijack()` for a handler that writes its answer on the raw response (an event stream,
 * the identity provider's pages): the page security headers, and the headers set on the reply so
 * far, are copied to the raw response first. Only those: cookies from `reply.setCookie` and
 * headers added in onSend hooks (x-request-id, cache-control) come from hooks that a hijacked
 * reply never runs. Returns the raw response.
 */
export function hijackWithHeaders(reply: FastifyReply): ServerResponse {
  if (reply.server.pageHeaders) addMissingHeaders(reply, reply.server.pageHeaders);
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}
