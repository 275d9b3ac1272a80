import { createHash, timingSafeEqual } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { enableMetrics, type HeraldMetrics } from '../../lib/metrics.js';
import { countOverdueTargets, readQueues } from './metrics.repository.js';

/** What a scrape reads beyond the process's own counters. */
export interface ScrapeSources {
  database: Database;
  /** pg-boss, when this process runs it (its queues are read through it). */
  boss: PgBoss | null;
  /** The queues of this deployment's jobs. */
  queueNames: string[];
}

/**
 * The deployment-wide readings are taken at most this often: a scrape soon after another (two
 * Prometheus servers, a person reloading) answers the same numbers without asking the database.
 */
const READ_EVERY_MS = 5000;

/** A target not out this many minutes after it was due is overdue (the watchdog acts at 30 s). */
const OVERDUE_AFTER_MINUTES = 5;

/**
 * The scrape of one process's metrics (`/api/metrics`, and the worker's metrics port), behind
 * METRICS_TOKEN. The token is compared in constant time (as SHA-256 digests, so neither its
 * length nor its first differing byte shows in the time taken).
 */
export class MetricsScrape {
  private readonly tokenDigest: Buffer;
  private reading: { at: number; done: Promise<void> } | null = null;

  constructor(
    token: string,
    private readonly sources: ScrapeSources,
  ) {
    this.tokenDigest = digest(token);
  }

  /** Throws UNAUTHENTICATED unless `authorization` is `Bearer <METRICS_TOKEN>`. */
  authorize(authorization: string | undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    if (!match) {
      throw new AppError(
        'UNAUTHENTICATED',
        'Metrics need the token: send the header `Authorization: Bearer <METRICS_TOKEN>`.',
      );
    }
    if (!timingSafeEqual(digest(match[1]!), this.tokenDigest)) {
      throw new AppError(
        'UNAUTHENTICATED',
        "This token is not the server's METRICS_TOKEN. Send the one the server was started with.",
      );
    }
  }

  /** The metrics in Prometheus' text format, with the deployment-wide readings brought up to date. */
  async render(): Promise<{ contentType: string; body: string }> {
    const metrics = await enableMetrics();
    this.readPool(metrics);
    const now = Date.now();
    if (!this.reading || now - this.reading.at >= READ_EVERY_MS) {
      const done = this.readDatabase(metrics);
      this.reading = { at: now, done };
      // A failed reading is not kept: the next scrape tries again.
      done.catch(() => {
        if (this.reading?.done === done) this.reading = null;
      });
    }
    await this.reading.done;
    return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
  }

  /** This process's pool: live numbers, nothing to ask. */
  private readPool(metrics: HeraldMetrics) {
    const { database } = this.sources;
    if (database.kind === 'postgres') {
      const { pool } = database;
      metrics.dbConnections.set({ state: 'total' }, pool.totalCount);
      metrics.dbConnections.set({ state: 'idle' }, pool.idleCount);
      metrics.dbWaiting.set(pool.waitingCount);
    } else {
      // The embedded database is one connection in a thread that answers one request at a time:
      // idle when nothing is asked of it, and every request beyond the one it runs is waiting.
      const inFlight = database.pglite.inFlight;
      metrics.dbConnections.set({ state: 'total' }, 1);
      metrics.dbConnections.set({ state: 'idle' }, inFlight === 0 ? 1 : 0);
      metrics.dbWaiting.set(Math.max(0, inFlight - 1));
    }
  }

  private async readDatabase(metrics: HeraldMetrics) {
    const { database, boss, queueNames } = this.sources;
    const [queues, overdue] = await Promise.all([
      boss && queueNames.length > 0 ? readQueues(boss, queueNames) : null,
      countOverdueTargets(database.db, OVERDUE_AFTER_MINUTES),
    ]);
    if (queues) {
      metrics.queueJobs.reset();
      metrics.queueOldestReady.reset();
      for (const q of queues) {
        metrics.queueJobs.set({ queue: q.name, state: 'ready' }, q.ready);
        metrics.queueJobs.set({ queue: q.name, state: 'deferred' }, q.deferred);
        metrics.queueJobs.set({ queue: q.name, state: 'active' }, q.active);
        metrics.queueOldestReady.set({ queue: q.name }, q.oldestReadySeconds);
      }
    }
    metrics.overdueTargets.set(overdue);
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();
