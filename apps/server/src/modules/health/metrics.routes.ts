import type { FastifyInstance } from 'fastify';
import type { MetricsScrape } from './metrics.service.js';

/**
 * `GET /metrics` in Prometheus' text format, for the scrape token only (metrics.service.ts).
 * Mounted only when METRICS_TOKEN is set: without it the path is as unknown as any other (404).
 */
export async function metricsRoutes(app: FastifyInstance, deps: { scrape: MetricsScrape }) {
  app.get(
    '/metrics',
    {
      config: { access: 'public' },
      // A scrape every few seconds would fill the log with one line each.
      logLevel: 'warn',
      // For operators' monitoring, not part of the API the contract describes.
      schema: { hide: true },
    },
    async (request, reply) => {
      try {
        deps.scrape.authorize(request.headers.authorization);
      } catch (err) {
        // Kept by the error handler on its 401 answer: how to authenticate (RFC 6750).
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw err;
      }
      const { contentType, body } = await deps.scrape.render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    },
  );
}
