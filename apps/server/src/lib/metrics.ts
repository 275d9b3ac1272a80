import type * as PromClient from 'prom-client';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (docs/operations.md#metrics). Off until `enableMetrics` runs
 * (METRICS_TOKEN set): prom-client is then loaded, and until then every `record…` call below is
 * one null check, so a server without metrics neither loads the library nor pays for counting.
 *
 * What happens in the process (requests, publications, refusals, webhook deliveries) is counted
 * here as it happens; what is true of the whole deployment (queue depth, overdue targets) is read
 * from the database when scraped (modules/health/metrics.service.ts).
 */
export interface HeraldMetrics {
  registry: Registry;
  httpRequests: Histogram<'method' | 'route' | 'status'>;
  publications: Counter<'network' | 'outcome'>;
  publishLateness: Histogram<'network'>;
  webhookLag: Histogram<'provider'>;
  rateLimitRefusals: Counter<'limit'>;
  queueJobs: Gauge<'queue' | 'state'>;
  queueOldestReady: Gauge<'queue'>;
  overdueTargets: Gauge;
  dbConnections: Gauge<'state'>;
  dbWaiting: Gauge;
}

/** The label of requests no route matched: one value, whatever the URL was. */
export const UNMATCHED_ROUTE = 'unmatched';

let active: HeraldMetrics | null = null;
let loading: Promise<HeraldMetrics> | null = null;

/** Loads prom-client and makes the metrics, once per process; answers the same ones after. */
export function enableMetrics(): Promise<HeraldMetrics> {
  loading ??= import('prom-client').then((prom) => {
    active = makeMetrics(prom);
    return active;
  });
  return loading;
}

/** The metrics, or null while they are off. */
export const currentMetrics = () => active;

function makeMetrics(prom: typeof PromClient): HeraldMetrics {
  const registry = new prom.Registry();
  const registers = [registry];
  // Memory, CPU, event loop delay, garbage collection, open handles: read when scraped.
  prom.collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new prom.Histogram({
      name: 'herald_http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route pattern and status, and how long they took.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    publications: new prom.Counter({
      name: 'herald_publications_total',
      help: 'Publication targets that reached a final state, by network and outcome.',
      labelNames: ['network', 'outcome'],
      registers,
    }),
    publishLateness: new prom.Histogram({
      name: 'herald_publish_lateness_seconds',
      help: 'Time from when a publication was due to when the network confirmed it.',
      labelNames: ['network'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    }),
    webhookLag: new prom.Histogram({
      name: 'herald_webhook_ingestion_lag_seconds',
      help: "Time from a webhook delivery's receipt to its events stored in the inbox.",
      labelNames: ['provider'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
    rateLimitRefusals: new prom.Counter({
      name: 'herald_rate_limit_refusals_total',
      help: 'Requests refused with 429 by a rate limit, by limit.',
      labelNames: ['limit'],
      registers,
    }),
    queueJobs: new prom.Gauge({
      name: 'herald_job_queue_jobs',
      help: 'Jobs per queue: ready (waiting for a worker), deferred (not due yet) and active.',
      labelNames: ['queue', 'state'],
      registers,
    }),
    queueOldestReady: new prom.Gauge({
      name: 'herald_job_queue_oldest_ready_seconds',
      help: 'How long the oldest job ready to run has waited for a worker (0 when none waits).',
      labelNames: ['queue'],
      registers,
    }),
    overdueTargets: new prom.Gauge({
      name: 'herald_publish_targets_overdue',
      help: 'Publication targets not out yet more than 5 minutes after they were due.',
      registers,
    }),
    dbConnections: new prom.Gauge({
      name: 'herald_db_pool_connections',
      help: "Connections of this process's database pool: total and idle.",
      labelNames: ['state'],
      registers,
    }),
    dbWaiting: new prom.Gauge({
      name: 'herald_db_pool_waiting',
      help: 'Queries of this process waiting for a database connection.',
      registers,
    }),
  };
}

/**
 * One answered request. `route` is the pattern the router matched (`/api/posts/:id`), never the
 * URL, so the number of series stays that of the routes; null (no route matched) is one label.
 */
export function recordRequest(
  method: string,
  route: string | undefined,
  status: number,
  elapsedMs: number,
) {
  active?.httpRequests.observe(
    { method, route: route ?? UNMATCHED_ROUTE, status },
    elapsedMs / 1000,
  );
}

/**
 * A publication target that reached a final state (`PUBLISHED`, `FAILED`, `UNCERTAIN`), with its
 * lateness when it went out (publishedAt − dueAt, as stored on the target).
 */
export function recordPublication(network: string, outcome: string, latenessMs: number | null) {
  if (!active) return;
  const labels = { network: network.toLowerCase() };
  active.publications.inc({ ...labels, outcome: outcome.toLowerCase() });
  if (outcome === 'PUBLISHED' && latenessMs !== null)
    active.publishLateness.observe(labels, latenessMs / 1000);
}

/** A webhook delivery whose events are stored, `lagMs` after it was received. */
export function recordWebhookStored(provider: string, lagMs: number) {
  active?.webhookLag.observe({ provider }, Math.max(0, lagMs) / 1000);
}

/** The rate limits that refuse requests (http/rate-limits.ts). */
export type RateLimitName =
  'signin' | 'handshake' | 'writes' | 'uploads' | 'upload_bytes' | 'guest' | 'api_key';

/** A request refused with 429 by `limit`. */
export function recordRateLimitRefusal(limit: RateLimitName) {
  active?.rateLimitRefusals.inc({ limit });
}
