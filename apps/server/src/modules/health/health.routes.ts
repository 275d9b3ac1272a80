import { HealthSchema } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.js';

const PING_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface HealthDeps {
  database: Database;
  /** Whether the process is stopping (SIGTERM): it serves what is in flight, but no more. */
  isStopping?: () => boolean;
}

/**
 * `healthz`: the process is up (a stopping process still is: restarting it would cut what it is
 * finishing). `readyz`: it takes new work, so a load balancer sends it requests.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/healthz',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: { tags: ['health'], response: { 200: HealthSchema } },
    },
    async () => ({ status: 'ok' as const }),
  );

  api.get(
    '/readyz',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: { tags: ['health'], response: { 200: HealthSchema, 503: HealthSchema } },
    },
    async (_request, reply) => {
      if (deps.isStopping?.())
        return reply.status(503).send({ status: 'unavailable', checks: { stopping: 'failed' } });
      try {
        await withTimeout(deps.database.ping(), PING_TIMEOUT_MS);
        return { status: 'ok' as const, checks: { database: 'ok' as const } };
      } catch {
        return reply
          .status(503)
          .header('retry-after', '5')
          .send({ status: 'unavailable', checks: { database: 'failed' } });
      }
    },
  );
}
