import pino from 'pino';
import { logOptions } from './lib/log-options.js';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, type BuiltApp, createFastify } from './app.js';
import { type Config } from './config.js';
import { type Database, openPglite, openPostgres } from './db/client.js';
import type { JobRole } from './jobs/runtime.js';
import { runWatchdog } from './modules/publishing/watchdog.js';
import { createRuntime, sandboxFetch } from './runtime.js';
import { StartupPhases } from './lib/startup-phases.js';

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
  try {
    await database.migrate();
    phases.mark('migrations');
    const jobRole: JobRole = role === 'start' ? 'all' : role;
    // A worker reaches the sandboxes (served by the API processes) over HTTP.
    const app = role === 'worker' ? null : createFastify(config);
    if (app) log = app.log;
    const runtime = await createRuntime(config, database, {
      http: app ? sandboxFetch(app, config) : fetch,
      log,
      jobs: jobRole,
    });
    closers.push(() => runtime.close());
    phases.mark('runtime');
    // Jobs can be sent once pg-boss runs and the queues exist. Starting it is mostly the
    // database's work and building the app mostly this thread's, so they overlap (issue 20).
    // Nothing runs a job yet: the handlers start once the app is built, since a job may reach a
    // sandbox through it. (Starting them after listening was tried: the first requests after
    // ready then shared the embedded database with thirteen workers' first polls and were seconds
    // slower on a loaded machine, so they start before.) The jobs stop before the app closes.
    if (app) closers.unshift(() => app.close());
    closers.unshift(() => runtime.stopJobs());
    queuesStarted = runtime.startQueues();
    // Awaited once the app is built; until then a failure must not count as unhandled.
    queuesStarted.catch(() => {});
    let built: BuiltApp | null = null;
    if (app) {
      built = await buildApp(app, config, database, runtime, {
        serveWeb: role === 'start',
        phases,
      });
    }
    await queuesStarted;
    phases.mark('queues');
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
      { role, database: database.kind, readyMs: phases.total(), phases: phases.phases },
      role === 'worker'
        ? 'Herald worker is running'
        : `Herald is running: open ${config.publicUrl}`,
    );
    // What is otherwise made on first use (the development sign-in) is made now, while the first
    // page loads, so the first sign-in does not wait for it (one that comes sooner waits for this
    // same making). Making it before listening was a tenth of the embedded start (issue 20).
    built?.warmUp().catch((err: unknown) => log.error({ err }, 'warming up failed'));
  } catch (err) {
    // What was started stops, pg-boss first, before its database closes under it.
    await queuesStarted?.catch(() => {});
    for (const close of closers) await close().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    for (const close of closers)
      await close().catch((err: unknown) => log.error({ err }, 'error while stopping'));
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
