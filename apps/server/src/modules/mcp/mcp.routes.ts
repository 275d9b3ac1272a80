import { API_KEY_PATTERN, MCP_PROTOCOL_VERSIONS } from '@herald/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireMember, requireUser } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { claimKey, recordAnswer, releaseKey } from '../idempotency/idempotency.service.js';
import {
  DEFAULT_HEADER_VERSION,
  dispatch,
  isSupportedVersion,
  META_VERSION,
  RPC,
  RpcError,
  STATELESS_VERSION,
  type Session,
} from './mcp-protocol.js';
import type { McpDeps } from './mcp-tools.js';

const tags = ['mcp'];

type Id = string | number | null;
const rpcError = (id: Id, error: RpcError) => ({
  jsonrpc: '2.0' as const,
  id,
  error: {
    code: error.code,
    message: error.message,
    ...(error.data === undefined ? {} : { data: error.data }),
  },
});

/** Query parameters a client might put a key in; a key's own shape is refused under any name. */
const KEY_PARAMS = /^(?:api[_-]?key|key|token|access[_-]?token|auth|authorization|bearer)$/i;

/**
 * A key in the URL ends up in logs, proxies and histories: refused (and said so) before anything
 * else, whether or not the Authorization header is there too.
 */
function refuseKeyInUrl(request: FastifyRequest) {
  const query = request.url.split('?')[1];
  if (!query) return;
  for (const [name, value] of new URLSearchParams(query)) {
    if (KEY_PARAMS.test(name) || API_KEY_PATTERN.test(value) || /hrld_/.test(value))
      throw new AppError(
        'BAD_REQUEST',
        'API keys go in the header "Authorization: Bearer <key>", never in the URL. Revoke this key in Settings → API keys (the URL may have been logged) and use a new one in the header.',
      );
  }
}

const accepts = (accept: string | undefined, type: string) =>
  accept === undefined ||
  accept.split(',').some((part) => {
    const media = part.split(';')[0]!.trim().toLowerCase();
    return media === type || media === '*/*' || media === `${type.split('/')[0]}/*`;
  });

/** One JSON-RPC answer: JSON, or a one-event stream for a client that takes only SSE. */
function answer(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown) {
  const accept = request.headers.accept;
  if (accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream'))
    return reply.code(status).type('application/json').send(body);
  return reply
    .code(status)
    .header('x-accel-buffering', 'no')
    .type('text/event-stream')
    .send(`event: message\ndata: ${JSON.stringify(body)}\n\n`);
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * docs/api.md#mcp-ai-agents-claude-and-others: Herald's MCP endpoint (Streamable HTTP, stateless). One POST is one JSON-RPC
 * request, answered to the API key in its Authorization header alone; the tools call the
 * services the REST routes call.
 */
export async function mcpRoutes(app: FastifyInstance, deps: McpDeps) {
  const keys: Session['keys'] = {
    claim: (scope, key, req) => claimKey(deps.db, scope, key, req),
    record: (scope, key, status, body) => recordAnswer(deps.db, scope, key, status, body),
    release: (scope, key) => releaseKey(deps.db, scope, key),
  };

  app.post(
    '/mcp',
    {
      config: { access: 'api-key' },
      // Before the key is read: a key in the URL is refused whatever else the request holds.
      onRequest: (request, _reply, done) => {
        try {
          refuseKeyInUrl(request);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
      schema: {
        tags,
        summary:
          'MCP (Model Context Protocol) endpoint for AI agents: one JSON-RPC request per POST (docs/api.md#mcp-ai-agents-claude-and-others)',
      },
    },
    async (request, reply) => {
      const accept = header(request, 'accept');
      if (!accepts(accept, 'application/json') && !accepts(accept, 'text/event-stream'))
        return reply
          .code(406)
          .send(
            rpcError(
              null,
              new RpcError(
                RPC.invalidRequest,
                'This endpoint answers application/json or text/event-stream: accept one of them.',
              ),
            ),
          );
      const message = request.body as Record<string, unknown> | unknown[] | undefined;
      if (Array.isArray(message))
        return answer(
          request,
          reply,
          400,
          rpcError(
            null,
            new RpcError(
              RPC.invalidRequest,
              'Send one JSON-RPC message per request (batches are not supported).',
            ),
          ),
        );
      if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0')
        return answer(
          request,
          reply,
          400,
          rpcError(
            null,
            new RpcError(RPC.invalidRequest, 'The body must be a JSON-RPC 2.0 message.'),
          ),
        );
      if (
        message.id !== undefined &&
        typeof message.id !== 'string' &&
        typeof message.id !== 'number'
      )
        return answer(
          request,
          reply,
          400,
          rpcError(null, new RpcError(RPC.invalidRequest, 'A request id is a string or a number.')),
        );
      const id = (message.id ?? null) as Id;
      // A notification or a response to the server: acknowledged, nothing to answer.
      if (typeof message.method !== 'string' || message.id === undefined)
        return reply.code(202).send();
      const method = message.method;
      const params = (
        message.params && typeof message.params === 'object' ? message.params : {}
      ) as Record<string, unknown>;
      try {
        const stateless = checkVersion(request, method, params);
        const session: Session = {
          deps,
          keys,
          caller: { auth: requireUser(request), member: requireMember(request), log: request.log },
        };
        const result = await dispatch(session, method, params, stateless);
        return answer(request, reply, 200, { jsonrpc: '2.0', id, result });
      } catch (error) {
        if (error instanceof RpcError)
          return answer(request, reply, error.httpStatus, rpcError(id, error));
        request.log.error({ err: error }, 'MCP request failed');
        return answer(
          request,
          reply,
          200,
          rpcError(
            id,
            new RpcError(
              RPC.internalError,
              'Herald could not complete this request. Try again later.',
            ),
          ),
        );
      }
    },
  );

  // No stream to open (every answer comes with its request) and no session to end.
  const noStream = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(
        rpcError(
          null,
          new RpcError(
            RPC.invalidRequest,
            'This MCP endpoint is stateless and opens no stream: send each request as a POST.',
          ),
        ),
      );
  app.get('/mcp', { config: { access: 'public' }, schema: { tags, hide: true } }, noStream);
  app.delete('/mcp', { config: { access: 'public' }, schema: { tags, hide: true } }, noStream);
}

/**
 * The request's protocol revision, checked as the transport requires: a 2026-07-28 request
 * names it in `_meta` (and the header must say the same); an older one in the header, which
 * `initialize` does not carry yet. Answers whether the request is of the stateless revision.
 */
function checkVersion(request: FastifyRequest, method: string, params: Record<string, unknown>) {
  const headerVersion = header(request, 'mcp-protocol-version');
  const meta = params._meta as Record<string, unknown> | undefined;
  const metaVersion = meta?.[META_VERSION];
  const mismatch = (what: string) =>
    new RpcError(RPC.invalidRequest, `HeaderMismatch: ${what}`, 400);
  const methodHeader = header(request, 'mcp-method');
  if (methodHeader !== undefined && methodHeader !== method)
    throw mismatch(`the Mcp-Method header says ${methodHeader} but the body calls ${method}.`);
  const nameHeader = header(request, 'mcp-name');
  if (nameHeader !== undefined && method === 'tools/call' && nameHeader !== params.name)
    throw mismatch(
      `the Mcp-Name header says ${nameHeader} but the body names ${String(params.name)}.`,
    );
  const unsupported = (requested: string) =>
    new RpcError(
      RPC.unsupportedVersion,
      `Unsupported protocol version ${requested}. Herald speaks ${MCP_PROTOCOL_VERSIONS.join(', ')}.`,
      400,
      { requested, supported: [...MCP_PROTOCOL_VERSIONS] },
    );
  if (metaVersion !== undefined) {
    if (typeof metaVersion !== 'string' || !isSupportedVersion(metaVersion))
      throw unsupported(String(metaVersion));
    if (headerVersion !== undefined && headerVersion !== metaVersion)
      throw mismatch(
        `the MCP-Protocol-Version header says ${headerVersion} but _meta says ${metaVersion}.`,
      );
    return metaVersion === STATELESS_VERSION;
  }
  if (method === 'initialize') return false;
  const version = headerVersion ?? DEFAULT_HEADER_VERSION;
  if (!isSupportedVersion(version)) throw unsupported(version);
  return false;
}
