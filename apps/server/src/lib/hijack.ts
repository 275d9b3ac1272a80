import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * `reply.hijack()` for a handler that writes its answer on the raw response (an event stream,
 * the identity provider's pages): the headers set on the reply so far, the security headers among
 * them, are copied to the raw response first. Only those: cookies from `reply.setCookie` and
 * headers added in onSend hooks (x-request-id, cache-control) come from hooks that a hijacked
 * reply never runs. Returns the raw response.
 */
export function hijackWithHeaders(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}
