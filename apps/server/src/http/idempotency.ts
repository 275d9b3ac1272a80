import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { isKeyRoute } from './access.js';
import { hookRoutes, methodsOf } from './route-hooks.js';
import type { Claim } from '../modules/idempotency/idempotency.service.js';

/** What the idempotency hooks need from storage (the composition root wires the repository). */
export interface IdempotencyStore {
  claim(userId: string, key: string, request: string): Promise<Claim>;
  record(userId: string, key: string, statusCode: number, response: unknown): Promise<void>;
  release(userId: string, key: string): Promise<void>;
}

const KEY = /^[\x21-\x7e]{8,200}$/;
/**
 * When the server closes, how long the requests it cut get to answer (a cut upload fails and
 * frees its key itself) before the keys still held are freed for them.
 */
const CUT_REQUESTS_SETTLE_MS = 2000;

/**
 * The JSON with its object keys in order, so two bodies that mean the same (keys written in
 * another order) have one fingerprint.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The SHA-256 of a request's JSON body as the client sent it, taken before validation: a schema's
 * defaults and transforms must not make a true retry look like another request. A multipart
 * upload is streamed to its handler later, so it has none.
 */
const bodyDigests = new WeakMap<FastifyRequest, string>();

function digestBody(request: FastifyRequest) {
  const json = /^application\/(?:[\w.+-]+\+)?json\b/i.test(request.headers['content-type'] ?? '');
  if (!json || request.body === undefined) return;
  bodyDigests.set(request, createHash('sha256').update(canonicalJson(request.body)).digest('hex'));
}

/**
 * What a key is taken for: the route, and the body's digest when it has one, so the same key sent
 * again with other contents is refused rather than answered with the first request's result.
 */
function operationOf(request: FastifyRequest): { route: string; operation: string } {
  const route = `${request.method} ${request.url.split('?')[0]}`;
  const digest = bodyDigests.get(request);
  return { route, operation: digest ? `${route} body:${digest}` : route };
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { userId: string; key: string };
  }
}

/**
 * `Idempotency-Key` on POST requests of a signed-in user: the first request with a key runs and
 * its successful answer is kept for a day; a retry with the same key (and the same JSON body) gets
 * that answer again (`Idempotent-Replayed: true`) instead of creating a second record. A retry while the first is
 * still running gets 409; a first request that failed frees its key, and so does one the server
 * cut when it closed (a restart), so its retry runs instead of meeting 409 until the key lapses.
 */
export function registerIdempotency(app: FastifyInstance, store: IdempotencyStore) {
  /** Requests holding a key they have not recorded or freed yet. */
  const held = new Set<FastifyRequest>();
  let allSettled: (() => void) | null = null;
  /** Claims the key for this request; true when it answered (a replay) instead. */
  const claimKey = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    header: string | string[],
  ): Promise<boolean> => {
    const key = Array.isArray(header) ? header[0]! : header;
    if (!KEY.test(key)) {
      throw new AppError(
        'VALIDATION_FAILED',
        'The Idempotency-Key header must be 8 to 200 visible ASCII characters, such as a UUID.',
      );
    }
    const { route, operation } = operationOf(request);
    const claim = await store.claim(userId, key, operation);
    if (claim.kind !== 'claimed' && claim.request !== operation) {
      const sameRoute = claim.request === route || claim.request.startsWith(`${route} body:`);
      throw new AppError(
        'CONFLICT',
        sameRoute
          ? 'This Idempotency-Key was already used with a different body. Send the same body again to get the first answer, or use a new key for a new request.'
          : 'This Idempotency-Key was already used for another request. Use a new key for each new request.',
      );
    }
    if (claim.kind === 'running') {
      throw new AppError(
        'CONFLICT',
        'A request with this Idempotency-Key is still being processed. Try again in a moment.',
      );
    }
    if (claim.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      // The body of a replayed upload is not read: close the connection after the answer.
      if (/^multipart\//i.test(request.headers['content-type'] ?? ''))
        reply.header('connection', 'close');
      reply.code(claim.statusCode).send(claim.response);
      return true;
    }
    request.idempotency = { userId, key };
    held.add(request);
    return false;
  };
  // Callback hooks: requests without a key (nearly all) pass without a promise. The
  // claim is a hook of the POST routes only; the record stays a hook of every answer, ahead of
  // compression (registered last), so it keeps the plain JSON.
  // Not on the MCP endpoint: its one URL carries many operations, so it takes a key per tool
  // call instead (modules/mcp), where a replay answers that call and no other.
  const posts = (route: RouteOptions) => methodsOf(route).includes('POST') && !isKeyRoute(route);
  hookRoutes(app, 'preValidation', posts, (request, _reply, done) => {
    if (request.method === 'POST' && request.headers['idempotency-key'] !== undefined)
      digestBody(request);
    done();
  });
  hookRoutes(app, 'preHandler', posts, (request, reply, done) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.auth) return done();
    // A key's requests keep their own keys: not shared with its creator's browser or other keys.
    const scope = request.auth.apiKey ? `api-key:${request.auth.apiKey.id}` : request.auth.user.id;
    claimKey(request, reply, scope, header).then((answered) => {
      if (!answered) done();
    }, done);
  });

  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const taken = request.idempotency!;
    request.idempotency = undefined;
    held.delete(request);
    if (held.size === 0) allSettled?.();
    try {
      if (reply.statusCode < 300 && typeof payload === 'string') {
        await store.record(taken.userId, taken.key, reply.statusCode, JSON.parse(payload));
      } else {
        await store.release(taken.userId, taken.key);
      }
    } catch (err) {
      // The answer still goes out; an unrecorded key only means a retry runs again.
      request.log.warn({ err }, 'could not record an idempotency key');
    }
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.idempotency) return done(null, payload);
    void settle(request, reply, payload).then(() => done(null, payload));
  });

  // The server is closed (its connections too) before these hooks run and the database after
  // them. A request still holding a key then was cut: its client saw no answer and will retry.
  // What completes in the meantime records or frees its key as usual; the rest are freed here
  // (whatever such a request may still write, its client was never told it succeeded).
  app.addHook('onClose', async () => {
    if (held.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (allSettled = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, CUT_REQUESTS_SETTLE_MS))),
      ]);
      clearTimeout(timer);
    }
    for (const request of [...held]) {
      const taken = request.idempotency;
      held.delete(request);
      request.idempotency = undefined;
      if (!taken) continue;
      await store
        .release(taken.userId, taken.key)
        .catch((err: unknown) => app.log.warn({ err }, 'could not free an idempotency key'));
    }
  });
}
