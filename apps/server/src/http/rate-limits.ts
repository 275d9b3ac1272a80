import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { lte, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import { rateLimitCounters } from '../db/schema.js';
import { AppError } from '../lib/app-error.js';
import { type RateLimitName, recordRateLimitRefusal } from '../lib/metrics.js';
import { isGuestRoute, isKeyRoute, isOrgRoute } from './access.js';
import { changesState, hookRoutes, methodsOf, STATE_CHANGING } from './route-hooks.js';

/** A counter in its current window: the total so far and the time until the window ends. */
export interface Count {
  count: number;
  resetInMs: number;
}

/**
 * Where the counters live, shared by every API process. A window of `windowMs` starts with the
 * first `add` after the previous one ended; `add` may take a negative amount (a refund).
 */
export interface CounterStore {
  add(key: string, amount: number, windowMs: number): Promise<Count>;
  close(): Promise<void>;
}

/** Counters in the app's database (PostgreSQL or PGlite): one upserted row per key. */
export class DatabaseCounterStore implements CounterStore {
  private calls = 0;

  constructor(private readonly db: Db) {}

  async add(key: string, amount: number, windowMs: number): Promise<Count> {
    const t = rateLimitCounters;
    const [row] = await this.db
      .insert(t)
      .values({
        key,
        count: amount,
        resetAt: sql`now() + ${windowMs}::float8 * interval '1 millisecond'`,
      })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          count: sql`case when ${t.resetAt} <= now() then excluded.count else ${t.count} + excluded.count end`,
          resetAt: sql`case when ${t.resetAt} <= now() then excluded.reset_at else ${t.resetAt} end`,
        },
      })
      .returning({
        count: t.count,
        resetInMs: sql<number>`greatest(0, extract(epoch from ${t.resetAt} - now()) * 1000)::float8`,
      });
    // Now and then, forget the windows that ended (their rows are only kept for reuse).
    if (++this.calls % 500 === 0) {
      await this.db.delete(t).where(lte(t.resetAt, sql`now() - interval '1 hour'`));
    }
    return { count: Number(row!.count), resetInMs: Math.ceil(Number(row!.resetInMs)) };
  }

  async close() {}
}

/** The small part of an ioredis client this store uses. */
interface RedisClient {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
  quit(): Promise<unknown>;
}

// Starts a window when the key is new (or expired), adds, and answers [count, ms left].
const REDIS_ADD = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { count, ttl }`;

/** Counters in Redis (REDIS_URL), each key expiring with its window. */
export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'herald:rate:',
  ) {}

  static async connect(url: string): Promise<RedisCounterStore> {
    const { Redis } = await import('ioredis');
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await client.connect();
    return new RedisCounterStore(client);
  }

  async add(key: string, amount: number, windowMs: number): Promise<Count> {
    const [count, ttl] = (await this.redis.eval(
      REDIS_ADD,
      1,
      `${this.prefix}${key}`,
      Math.trunc(amount),
      Math.max(1, Math.trunc(windowMs)),
    )) as [number, number];
    return { count: Number(count), resetInMs: Number(ttl) };
  }

  async close() {
    await this.redis.quit().catch(() => {});
  }
}

/** Redis when REDIS_URL is set, the database otherwise. */
export async function createCounterStore(config: Config, database: Database) {
  return config.redisUrl
    ? RedisCounterStore.connect(config.redisUrl)
    : new DatabaseCounterStore(database.db);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const retrySeconds = (resetInMs: number) => Math.max(1, Math.ceil(resetInMs / 1000));

/** "in 42 seconds", "in 3 minutes": when the caller may try again. */
function whenAgain(seconds: number) {
  if (seconds < 90) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minutes`;
}

function formatBytes(bytes: number) {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${Number(gib.toFixed(1))} GB`;
  const mib = bytes / 1024 ** 2;
  return mib >= 1 ? `${Number(mib.toFixed(1))} MB` : `${bytes} bytes`;
}

/**
 * Answers 429 in the error envelope with Retry-After (sent here: browser routes too get JSON),
 * and counts the refusal under `limit` in the metrics.
 */
function refuse(
  reply: FastifyReply,
  limit: RateLimitName,
  resetInMs: number,
  sentence: (when: string) => string,
) {
  recordRateLimitRefusal(limit);
  const seconds = retrySeconds(resetInMs);
  return reply
    .code(429)
    .header('retry-after', String(seconds))
    .send({ status: 'error', code: 'RATE_LIMITED', message: sentence(whenAgain(seconds)) });
}

export interface RateLimitOptions {
  config: Config;
  store: CounterStore;
}

/** What an upload request reserved of its organization's hourly byte budget. */
interface UploadBudget {
  key: string;
  reserved: number;
  /** No Content-Length was declared: the files are counted as they stream (`meterUpload`). */
  streamed: boolean;
  /** Reserves while the body streams (no Content-Length): throws RATE_LIMITED past the budget. */
  reserve(bytes: number): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    uploadBudget: UploadBudget | null;
  }
}

/**
 * Rate limits, with counters in `store` so every API process shares them:
 * - per IP on sign-in and token routes (sign-in starts and callbacks, token refresh, invitation
 *   tokens, the development provider's forms and token endpoint), per route and minute;
 * - per IP on the webhook handshakes (X's CRC answers an HMAC under the app secret, Meta's echoes
 *   its challenge), per minute, with the sign-in routes' allowance: the networks send one now and
 *   then (X hourly, Meta on setup);
 * - per signed-in user on every write (POST/PUT/PATCH/DELETE), per minute;
 * - per organization on uploads (creating a post with media): requests and bytes per hour;
 * - per API key on every request made with it (reads too), per minute;
 * - per IP and per token on the routes of a guest's link (`access: 'guest'`), per minute: its
 *   page and decisions, and (ten times as many) its files.
 * Each answers 429 in the error envelope with Retry-After. Register before the routes.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  { config, store }: RateLimitOptions,
) {
  app.addHook('onClose', () => store.close());
  const limits = config.rateLimits;
  app.decorateRequest('uploadBudget', null);
  if (!limits.enabled) return;

  await app.register(fastifyRateLimit, {
    global: false,
    // The plugin keys and windows requests; the counting is `store`'s (shared by processes).
    store: class {
      incr(
        key: string,
        callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
        timeWindow: number,
      ) {
        store.add(key, 1, timeWindow).then(
          (c) => callback(null, { current: c.count, ttl: c.resetInMs }),
          (error: Error) => callback(error),
        );
      }
      child() {
        return this;
      }
    },
  });

  const base = config.apiBasePath;
  const signInRoutes = new Set([
    `GET ${base}/auth/google`,
    `GET ${base}/auth/google/callback`,
    `POST ${base}/auth/refreshToken`,
    `POST ${base}/member/accept-invite`,
    `POST ${base}/member/decline-invite`,
    `POST ${base}/dev-idp/interaction/:uid/login`,
    `POST ${base}/oidc/*`,
  ]);
  // HEAD runs the same handler (without sending its answer): limited alike.
  const handshakeRoutes = new Set([
    `GET ${base}/webhooks/:provider`,
    `HEAD ${base}/webhooks/:provider`,
  ]);
  const uploadRoutes = new Set([`POST ${base}/organizations/:orgId/post`]);
  const routeKey = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url}`;
  /** Picks the routes one of whose method and path pairs is in `keys`. */
  const among = (keys: Set<string>) => (route: RouteOptions) =>
    methodsOf(route).some((method) => keys.has(`${method} ${route.url}`));

  if (limits.signInPerMinute > 0) {
    const perIp = app.createRateLimit({
      max: limits.signInPerMinute,
      timeWindow: MINUTE,
      keyGenerator: (request) => `signin:${routeKey(request)}:${normalizeIP(request.ip)}`,
    });
    // Hooks of the routes they limit, taking callbacks (a promise per hook, and a hook
    // per request that had nothing to do, were a measurable part of a small request's time).
    hookRoutes(app, 'onRequest', among(signInRoutes), (request, reply, done) => {
      if (!signInRoutes.has(routeKey(request))) return done();
      perIp(request).then((result) => {
        if (!result.isAllowed && result.isExceeded) {
          refuse(
            reply,
            'signin',
            result.ttl,
            (when) => `Too many sign-in attempts from your network. Try again ${when}.`,
          );
          return;
        }
        done();
      }, done);
    });
  }

  if (limits.signInPerMinute > 0) {
    const perIp = app.createRateLimit({
      max: limits.signInPerMinute,
      timeWindow: MINUTE,
      keyGenerator: (request) => `handshake:${normalizeIP(request.ip)}`,
    });
    hookRoutes(app, 'onRequest', among(handshakeRoutes), (request, reply, done) => {
      if (!handshakeRoutes.has(routeKey(request))) return done();
      perIp(request).then((result) => {
        if (!result.isAllowed && result.isExceeded) {
          refuse(
            reply,
            'handshake',
            result.ttl,
            (when) =>
              `Too many webhook verification requests from your network. Try again ${when}.`,
          );
          return;
        }
        done();
      }, done);
    });
  }

  if (limits.writesPerMinute > 0) {
    const perUser = app.createRateLimit({
      max: limits.writesPerMinute,
      timeWindow: MINUTE,
      keyGenerator: (request) => `writes:${request.auth!.user.id}`,
    });
    // preHandler: after the session is known (access control runs at preValidation).
    hookRoutes(app, 'preHandler', changesState, (request, reply, done) => {
      if (!request.auth || !STATE_CHANGING.has(request.method)) return done();
      perUser(request).then((result) => {
        if (!result.isAllowed && result.isExceeded) {
          refuse(
            reply,
            'writes',
            result.ttl,
            (when) => `You are making changes too quickly. Try again ${when}.`,
          );
          return;
        }
        done();
      }, done);
    });
  }

  if (limits.apiKeyPerMinute > 0) {
    const perKey = app.createRateLimit({
      max: limits.apiKeyPerMinute,
      timeWindow: MINUTE,
      keyGenerator: (request) => `api-key:${request.auth!.apiKey!.id}`,
    });
    // preHandler: the key is known once access control (preValidation) has read it.
    const keyed = (route: RouteOptions) => isOrgRoute(route) || isKeyRoute(route);
    hookRoutes(app, 'preHandler', keyed, (request, reply, done) => {
      if (!request.auth?.apiKey) return done();
      perKey(request).then((result) => {
        if (!result.isAllowed && result.isExceeded) {
          refuse(
            reply,
            'api_key',
            result.ttl,
            (when) => `This API key has made too many requests. Try again ${when}.`,
          );
          return;
        }
        done();
      }, done);
    });
  }

  if (limits.guestPerMinute > 0) {
    // A link's files come as many requests as it has pictures and a video's ranges: they are
    // counted apart, with ten times the allowance of its page and decisions.
    const guestLimit = (kind: 'page' | 'files', by: 'ip' | 'token', max: number) =>
      app.createRateLimit({
        max,
        timeWindow: MINUTE,
        keyGenerator: (request) =>
          `guest-${kind}:${by}:${by === 'ip' ? normalizeIP(request.ip) : tokenKey(request)}`,
      });
    const page = limits.guestPerMinute;
    const limiters = {
      page: [guestLimit('page', 'ip', page), guestLimit('page', 'token', page)],
      files: [guestLimit('files', 'ip', page * 10), guestLimit('files', 'token', page * 10)],
    };
    hookRoutes(app, 'onRequest', isGuestRoute, (request, reply, done) => {
      const kind = request.routeOptions.url?.includes('/media/') ? 'files' : 'page';
      (async () => {
        for (const limiter of limiters[kind]) {
          const result = await limiter(request);
          if (!result.isAllowed && result.isExceeded) return result.ttl;
        }
        return null;
      })().then((refusedFor) => {
        if (refusedFor === null) return done();
        refuse(
          reply,
          'guest',
          refusedFor,
          (when) => `Too many requests for this approval link. Try again ${when}.`,
        );
      }, done);
    });
  }

  const uploadRequests =
    limits.uploadsPerHour > 0
      ? app.createRateLimit({
          max: limits.uploadsPerHour,
          timeWindow: HOUR,
          keyGenerator: (request) => `uploads:${orgOf(request)}`,
        })
      : null;
  const bytesLimit = limits.uploadBytesPerHour;
  hookRoutes(app, 'preHandler', among(uploadRoutes), (request, reply, done) => {
    if (!uploadRoutes.has(routeKey(request)) || reply.sent || !orgOf(request)) return done();
    // A refusal has answered: the rest of the request does not run.
    limitUpload(request, reply).then((refused) => {
      if (!refused) done();
    }, done);
  });
  /** Reserves the upload's share of the budgets; answers true when it refused the request. */
  const limitUpload = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const orgId = orgOf(request);
    if (uploadRequests) {
      const result = await uploadRequests(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('connection', 'close');
        refuse(
          reply,
          'uploads',
          result.ttl,
          (when) => `This organization has sent too many uploads this hour. Try again ${when}.`,
        );
        return true;
      }
    }
    if (bytesLimit <= 0) return false;
    const key = `upload-bytes:${orgId}`;
    const budget: UploadBudget = {
      key,
      reserved: 0,
      streamed: false,
      async reserve(bytes) {
        const count = await store.add(key, bytes, HOUR);
        if (count.count > bytesLimit) {
          await store.add(key, -bytes, HOUR);
          // A streamed upload's refusal is answered by the error handler, not by `refuse`.
          if (budget.streamed) recordRateLimitRefusal('upload_bytes');
          // Thrown from the handler when streaming: the error handler keeps this header.
          reply.header('retry-after', String(retrySeconds(count.resetInMs)));
          throw new BudgetSpent(count.resetInMs, bytesLimit);
        }
        budget.reserved += bytes;
      },
    };
    request.uploadBudget = budget;
    const declared = Number(request.headers['content-length']);
    if (!Number.isSafeInteger(declared) || declared <= 0) {
      budget.streamed = true;
      return false;
    }
    try {
      await budget.reserve(declared);
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      reply.header('connection', 'close');
      refuse(reply, 'upload_bytes', error.resetInMs, (when) => spentSentence(error.limit, when));
      return true;
    }
    return false;
  };
  // A refused upload stored nothing: give its bytes back to the budget.
  hookRoutes(app, 'onResponse', among(uploadRoutes), (request, reply, done) => {
    const budget = request.uploadBudget;
    if (!budget || budget.reserved === 0 || reply.statusCode < 400) return done();
    const reserved = budget.reserved;
    budget.reserved = 0;
    store.add(budget.key, -reserved, HOUR).then(
      () => done(),
      (error: unknown) => {
        request.log.warn({ err: error }, 'could not give back an upload reservation');
        done();
      },
    );
  });
}

/** A guest link's token as counters name it: its hash, so no counter store holds a live token. */
const tokenKey = (request: FastifyRequest) =>
  createHash('sha256')
    .update((request.params as { token?: string } | undefined)?.token ?? '')
    .digest('base64url')
    .slice(0, 22);

const orgOf = (request: FastifyRequest) =>
  (request.params as { orgId?: string } | undefined)?.orgId ?? '';

const spentSentence = (limit: number, when: string) =>
  `This organization has used its upload allowance of ${formatBytes(limit)} for this hour. Try again ${when}.`;

/** The organization's upload bytes for this hour are spent. */
class BudgetSpent extends AppError {
  constructor(
    readonly resetInMs: number,
    readonly limit: number,
  ) {
    super('RATE_LIMITED', spentSentence(limit, whenAgain(retrySeconds(resetInMs))));
  }
}

const STREAM_STEP = 8 * 1024 ** 2;

/**
 * Counts an upload's file bytes against its organization's hourly budget as they stream, for
 * requests that declared no Content-Length (those reserved it up front): reserves 8 MB at a
 * time and fails the stream with RATE_LIMITED once the budget is spent.
 */
export function meterUpload(request: FastifyRequest, file: Readable): Readable {
  if (!request.uploadBudget?.streamed) return file;
  return meteredStream(request.uploadBudget, file);
}

/**
 * Counts the bytes of a file Herald downloads for a request (media by url) against its
 * organization's hourly upload budget: they cost the disk what an upload costs. Its
 * Content-Length reserved only the JSON body, so these are counted as they stream.
 */
export function meterFetchedMedia(request: FastifyRequest, file: Readable): Readable {
  return request.uploadBudget ? meteredStream(request.uploadBudget, file) : file;
}

function meteredStream(budget: UploadBudget, file: Readable): Readable {
  async function* metered() {
    let unreserved = 0;
    for await (const chunk of file as AsyncIterable<Buffer>) {
      unreserved += chunk.length;
      if (unreserved >= STREAM_STEP) {
        await budget.reserve(unreserved);
        unreserved = 0;
      }
      yield chunk;
    }
    if (unreserved > 0) await budget.reserve(unreserved);
  }
  return Readable.from(metered(), { objectMode: false });
}
