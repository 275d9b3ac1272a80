import pino from 'pino';
import { logOptions } from './lib/log-options.js';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, type BuiltApp, createFastify } from './app.js';
import { type Config } from './config.js';
import { type Database, openPglite, openPostgres } from './db/client.js';
import { HttpDrain } from './http/drain.js';
import type { JobRole } from './jobs/runtime.js';
import { runWatchdog } from './modules/publishing/watchdog.js';
import { ProcessRegistry, settleDeadProcesses } from './modules/processes/process-registry.js';
import { createRuntime, type Runtime, sandboxFetch } from './runtime.js';
import { StartupPhases } from './lib/startup-phases.js';
import type { Server } from 'node:http';
import { enableMetrics } from './lib/metrics.js';
import { listenForMetrics } from './modules/health/metrics-listener.js';
import { MetricsScrape } from './modules/health/metrics.service.js';

export async function openDatabase(config: Config): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}

export type Role = 'start' | 'api' | 'worker';

/**
 * Runs one role: `start` (API + SPA + worker in one process), `api` or `worker`. Migrations run
 * first in every role (serialised by an advisory lock on PostgreSQL).
 */
export async function runServer(config: Config, role: Role) {
  if (role !== 'start' && !config.databaseUrl) {
    throw new Error(
      `'herald ${role}' runs as a separate process and needs DATABASE_URL: the embedded database cannot be shared between processes. Use 'herald start' (npm start) for the all-in-one server.`,
    );
  }
  const phases = new StartupPhases();
  const database = await openDatabase(config);
  phases.mark('database');
  const closers: Array<() => Promise<unknown>> = [];
  let log: FastifyBaseLogger = pino(
    logOptions(config.logLevel, config.logFormat),
  ) as unknown as FastifyBaseLogger;
  if (database.kind === 'pglite') {
    // Its thread gone, the embedded database answers nothing again: stop, to be started afresh.
    void database.pglite.lost.then((reason) => {
      log.fatal({ err: reason }, 'the embedded database stopped; Herald stops with it');
      process.exit(1);
    });
  }
  /** pg-boss's start, once begun: a start that fails waits for it before stopping it. */
  let queuesStarted: Promise<void> | null = null;
  let app: FastifyInstance | null = null;
  let drain: HttpDrain | null = null;
  let runtime: Runtime;
  let metricsListener: Server | null = null;
  const jobRole: JobRole = role === 'start' ? 'all' : role;
  let registry: ProcessRegistry | null = null;
  try {
    await database.migrate();
    phases.mark('migrations');
    // A worker reaches the sandboxes (served by the API processes) over HTTP.
    app = role === 'worker' ? null : createFastify(config);
    if (app) {
      log = app.log;
      drain = new HttpDrain(app.server);
    }
    registry = new ProcessRegistry({ db: database.db, config, kind: jobRole, log });
    runtime = await createRuntime(config, database, {
      http: app ? sandboxFetch(app, config) : fetch,
      log,
      jobs: jobRole,
      processId: registry.id,
    });
    closers.push(() => runtime.close());
    phases.mark('runtime');
    if (!app && config.metrics) {
      // The API processes serve their metrics on their own port; a worker has none, so it opens
      // one for them (before its handlers start counting).
      await enableMetrics();
      const scrape = new MetricsScrape(config.metrics.token, {
        database,
        boss: runtime.boss,
        queueNames: runtime.queueNames,
      });
      const listener = await listenForMetrics(scrape, {
        port: config.metrics.port,
        host: config.host,
        path: `${config.apiBasePath}/metrics`,
        log,
      });
      closers.push(() => new Promise((resolve) => listener.close(resolve)));
      metricsListener = listener;
    }
    // A missing bucket or refused credentials stop the start with a sentence, rather than
    // failing the first upload. Checked while the rest starts; awaited before any work is done.
    const storageChecked = runtime.media.check();
    storageChecked.catch(() => {});
    // Jobs can be sent once pg-boss runs and the queues exist. Starting it is mostly the
    // database's work and building the app mostly this thread's, so they overlap.
    // Nothing runs a job yet: the handlers start once the app is built, since a job may reach a
    // sandbox through it. (Starting them after listening was tried: the first requests after
    // ready then shared the embedded database with thirteen workers' first polls and were seconds
    // slower on a loaded machine, so they start before.) The jobs stop before the app closes.
    if (app) closers.unshift(() => app!.close());
    closers.unshift(() => runtime.stopJobs());
    queuesStarted = runtime.startQueues();
    // Awaited once the app is built; until then a failure must not count as unhandled.
    queuesStarted.catch(() => {});
    let built: BuiltApp | null = null;
    if (app) {
      built = await buildApp(app, config, database, runtime, {
        serveWeb: role === 'start',
        phases,
        isStopping: () => drain?.isStopping ?? false,
      });
    }
    await queuesStarted;
    phases.mark('queues');
    await storageChecked;
    phases.mark('storage');
    // Registered before the handlers claim anything under its id; a worker settles, at each
    // heartbeat, what processes that died were holding (docs/architecture.md#processes).
    const working = jobRole !== 'api';
    const lapseSeconds = config.processes.lapseSeconds;
    const self = registry;
    await self.start(
      working ? () => settleDeadProcesses(runtime.watchdog, self.id, lapseSeconds, log) : undefined,
    );
    await runtime.startHandlers();
    phases.mark('handlers');
    if (jobRole !== 'api') {
      // Posts whose time passed while no worker ran go out now (their lateness is recorded).
      await runWatchdog(runtime.watchdog).catch((err: unknown) =>
        log.error({ err }, 'publishing catch-up failed'),
      );
    }
    phases.mark('catchUp');
    if (app) await app.listen({ port: config.port, host: config.host });
    phases.mark('listen');
    log.info(
      {
        role,
        database: database.kind,
        readyMs: phases.total(),
        phases: phases.phases,
        ...(metricsListener ? { metricsPort: config.metrics?.port } : {}),
      },
      role === 'worker'
        ? 'Herald worker is running'
        : `Herald is running: open ${config.publicUrl}`,
    );
    // What is otherwise made on first use (the development sign-in) is made now, while the first
    // page loads, so the first sign-in does not wait for it (one that comes sooner waits for this
    // same making). Making it before listening was a tenth of the embedded start.
    built?.warmUp().catch((err: unknown) => log.error({ err }, 'warming up failed'));
  } catch (err) {
    // What was started stops, pg-boss first, before its database closes under it.
    await queuesStarted?.catch(() => {});
    for (const close of closers) await close().catch(() => {});
    // After the jobs: nothing it holds may look abandoned while its handlers still run.
    await registry?.stop().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.info({ signal }, 'already stopping: finishing the work in flight');
      return;
    }
    stopping = true;
    await stopGracefully({ config, log, app, drain, runtime, registry, signal });
    metricsListener?.close();
    await database.close().catch(() => {});
    process.exit(0);
  };
  // Not `once`: a second signal (a terminal's Ctrl-C reaching `npm start` and this process)
  // must not kill the process with the default action in the middle of its grace period.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * The stop on SIGTERM/SIGINT. readyz answers 503 at once (a load balancer stops sending) while
 * healthz stays 200, and the port stays open: requests that still arrive are served, each
 * answer closing its keep-alive connection. The worker fetches no job any more. Requests,
 * uploads and jobs in flight get the grace period to finish; the server closes as soon as
 * nothing is in flight and the jobs are done (a job may reach a sandbox through this app). Then
 * the requests still running are cut (their idempotency keys freed: http/idempotency.ts) and
 * the jobs still running handed back to another worker (jobs/runtime.ts).
 */
async function stopGracefully(parts: {
  config: Config;
  log: FastifyBaseLogger;
  app: FastifyInstance | null;
  drain: HttpDrain | null;
  runtime: Runtime;
  registry: ProcessRegistry | null;
  signal: string;
}) {
  const { config, log, app, drain, runtime, registry, signal } = parts;
  // A stopping worker settles nothing of others'; its own heartbeat goes on while its jobs finish.
  registry?.quiet();
  const graceMs = config.shutdownGraceSeconds * 1000;
  drain?.start();
  log.info(
    { signal, graceSeconds: config.shutdownGraceSeconds, requests: drain?.pending ?? 0 },
    'stopping: finishing the requests and jobs in flight',
  );
  const jobsStopped = runtime
    .stopJobs({ graceful: true, timeout: graceMs })
    .catch((err: unknown) => log.error({ err }, 'error while stopping the jobs'));
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'over'>(
    (resolve) => (timer = setTimeout(resolve, graceMs, 'over')),
  );
  const finished = Promise.all([drain?.idle(), jobsStopped]).then(() => 'finished' as const);
  if ((await Promise.race([finished, graceOver])) === 'over') {
    log.warn(
      { requests: drain?.pending ?? 0 },
      'the grace period is over: cutting the requests and handing back the jobs still running',
    );
  }
  clearTimeout(timer);
  await app?.close().catch((err: unknown) => log.error({ err }, 'error while closing the server'));
  await jobsStopped;
  // Only once its jobs are done or handed back: what is still held under its id from here on (a
  // handler that did not reach a safe point) is settled by another worker at once.
  await registry
    ?.stop()
    .catch((err: unknown) => log.error({ err }, 'error while removing the process row'));
  await runtime.close().catch((err: unknown) => log.error({ err }, 'error while stopping'));
  log.info({ signal }, 'stopped');
}
