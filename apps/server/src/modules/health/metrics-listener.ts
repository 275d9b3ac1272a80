import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ErrorEnvelope } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import { isConnectionError } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { MetricsScrape } from './metrics.service.js';

/**
 * The metrics of `herald worker`, which has no HTTP server of its own: a listener on
 * METRICS_PORT that answers `GET {API_BASE_PATH}/metrics` as the API processes do (the same
 * token, the same format), so one scrape configuration fits every process; anything else is 404.
 * What the worker counts (publications, lateness, webhook lag) is only in its own process.
 */
export async function listenForMetrics(
  scrape: MetricsScrape,
  options: { port: number; host: string; path: string; log: FastifyBaseLogger },
): Promise<Server> {
  const server = createServer((request, response) => {
    answer(scrape, options, request, response).catch((err: unknown) => {
      options.log.error({ err }, 'answering a metrics scrape failed');
      if (!response.headersSent)
        sendError(response, new AppError('INTERNAL', 'The metrics could not be read.'));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

async function answer(
  scrape: MetricsScrape,
  options: { path: string; log: FastifyBaseLogger },
  request: IncomingMessage,
  response: ServerResponse,
) {
  const path = (request.url ?? '').split('?', 1)[0];
  if (path !== options.path || (request.method !== 'GET' && request.method !== 'HEAD')) {
    sendError(response, new AppError('NOT_FOUND', `Only GET ${options.path} is served here.`));
    return;
  }
  try {
    scrape.authorize(request.headers.authorization);
    const { contentType, body } = await scrape.render();
    response.writeHead(200, { ...COMMON_HEADERS, 'content-type': contentType });
    response.end(request.method === 'HEAD' ? undefined : body);
  } catch (err) {
    if (err instanceof AppError) return sendError(response, err);
    if (!isConnectionError(err)) throw err;
    options.log.warn({ err }, 'metrics scrape: the database is unreachable');
    sendError(
      response,
      new AppError('UNAVAILABLE', 'The database is unreachable; the metrics will be back with it.'),
    );
  }
}

const COMMON_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function sendError(response: ServerResponse, err: AppError) {
  const body: ErrorEnvelope = { status: 'error', code: err.code, message: err.message };
  response.writeHead(err.statusCode, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    ...(err.code === 'UNAUTHENTICATED' ? { 'www-authenticate': 'Bearer realm="metrics"' } : {}),
    ...(err.code === 'UNAVAILABLE' ? { 'retry-after': '5' } : {}),
  });
  response.end(JSON.stringify(body));
}
