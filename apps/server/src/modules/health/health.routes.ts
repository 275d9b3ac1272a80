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

export async function healthRoutes(app: FastifyInstance, deps: { database: Database }) {
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
