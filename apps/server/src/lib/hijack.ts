import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * `reply.hijack()` for a handler that writes its answer on the raw response (an event stream,
 * the identity provider's pages): the headers set so far, the security headers among them, are
 * put on the raw response first, as Fastify would have sent them. Returns the raw response.
 */
export function hijackWithHeaders(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}
