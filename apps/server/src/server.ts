import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { SessionService } from './identity/session.service.js';
import { type Config } from './config.js';
import { type Database, openPglite, openPostgres } from './db/client.js';
import { type JobRole, startJobRuntime } from './jobs/runtime.js';
import { sessionsExpireJob } from './jobs/sessions-expire.job.js';
import { subscriptionsSweepJob } from './jobs/subscriptions-sweep.job.js';
import { tokensRefreshJob } from './jobs/tokens-refresh.job.js';
import { loadTokenKey, TokenCipher } from './lib/token-crypto.js';
import { buildNetworks, type NetworkRuntime } from './platforms/runtime.js';
import { loadSecrets } from './lib/secrets.js';
import { publishTargetJob } from './jobs/publish-target.job.js';
import { publishWatchdogJob } from './jobs/publish-watchdog.job.js';
import { createMediaStore } from './media/media-store.js';
import { PublishQueue } from './modules/publishing/publish-queue.js';
import { Publisher } from './modules/publishing/publisher.js';
import { runWatchdog } from './modules/publishing/watchdog.js';

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
  const database = await openDatabase(config);
  let log: FastifyBaseLogger = pino({ level: config.logLevel }) as unknown as FastifyBaseLogger;
  const closers: Array<() => Promise<unknown>> = [];
  try {
    await database.migrate();
    const secrets = await loadSecrets(database.db, config.sessionSecret);
    let networks: Map<string, NetworkRuntime>;
    let cipher: TokenCipher;
    let publisher: Publisher;
    let publishQueue: PublishQueue;
    if (role !== 'worker') {
      const built = await buildApp(config, database, { serveWeb: role === 'start' });
      log = built.app.log;
      ({ networks, cipher, publisher, publishQueue } = built);
      await built.app.listen({ port: config.port, host: config.host });
      closers.push(() => built.app.close());
    } else {
      // A worker reaches the sandboxes (served by the API processes) over HTTP.
      cipher = new TokenCipher(
        loadTokenKey(config.tokenEncryptionKey, config.dataDir, config.isProduction),
      );
      networks = buildNetworks(config, fetch, secrets.derive('sandbox-client'));
      publishQueue = new PublishQueue();
      publisher = new Publisher({
        db: database.db,
        networks,
        media: createMediaStore(config, secrets.derive('media-url')),
        cipher,
        queue: publishQueue,
        log,
      });
    }
    const jobRole: JobRole = role === 'start' ? 'all' : role;
    const sessions = new SessionService(database.db, secrets.sessionSecret);
    const watchdog = {
      db: database.db,
      queue: publishQueue,
      stuckAfterMs: config.publishStuckAfterSeconds * 1000,
    };
    const boss = await startJobRuntime(
      database,
      jobRole,
      [
        sessionsExpireJob(database.db, sessions, log),
        subscriptionsSweepJob(database.db, log),
        tokensRefreshJob({ db: database.db, cipher, networks, log }, database.db),
        publishTargetJob(publisher, log) as never,
        publishWatchdogJob(watchdog, log),
      ],
      log,
    );
    publishQueue.boss = boss;
    if (jobRole !== 'api') {
      // Posts whose time passed while no worker ran go out now (their lateness is recorded).
      await runWatchdog(watchdog).catch((err: unknown) =>
        log.error({ err }, 'publishing catch-up failed'),
      );
    }
    closers.unshift(() => boss.stop({ graceful: true, timeout: 10_000 }));
    log.info(
      { role, database: database.kind, url: role === 'worker' ? undefined : config.publicUrl },
      'Herald is running',
    );
  } catch (err) {
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
