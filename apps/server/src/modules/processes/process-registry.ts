import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pkg from '../../../package.json' with { type: 'json' };
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { identifyMediaFolder, markMediaFolder, unmarkMediaFolder } from './media-folder.js';
import { mediaPlacementFindings } from './media-placement.js';
import { settleOrphans, type WatchdogDeps } from '../publishing/watchdog.js';
import * as repo from './processes.repository.js';

export interface ProcessRegistryOptions {
  db: Db;
  config: Pick<Config, 'dataDir' | 'media' | 'processes'>;
  /** The process's job role: `all` for `herald start`. */
  kind: 'api' | 'worker' | 'all';
  log: FastifyBaseLogger;
  /** The host recorded (os.hostname() unless a test names one). */
  host?: string;
}

/**
 * This process's row in herald_processes (docs/architecture.md#processes): added at start,
 * touched every `heartbeatSeconds`, removed at a graceful stop. `onBeat` runs after each touch
 * (a worker settles there what dead processes held). The id is known before the row exists, so
 * the publisher can be built with it; nothing is claimed under it before `start`.
 */
export class ProcessRegistry {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private onBeat: (() => Promise<void>) | null = null;
  private row: repo.NewProcess | null = null;
  private readonly host: string;
  private readonly mediaDir: string | null;

  constructor(private readonly options: ProcessRegistryOptions) {
    this.host = options.host ?? hostname();
    const storage = options.config.media.storage;
    this.mediaDir = storage.driver === 'local' ? resolve(storage.dir) : null;
  }

  /**
   * Adds the row, says at once when the processes serving this database do not share their
   * media, and starts the heartbeat.
   */
  async start(onBeat?: () => Promise<void>) {
    const { db, config, kind, log } = this.options;
    const { lapseSeconds, heartbeatSeconds } = config.processes;
    const live = await repo.liveProcesses(db, lapseSeconds);
    const mediaFolderId = this.mediaDir
      ? await identifyMediaFolder(
          this.mediaDir,
          this.id,
          live.filter((p) => p.host !== this.host && p.mediaStorage === 'local'),
          heartbeatSeconds,
        )
      : null;
    const row: repo.NewProcess = {
      id: this.id,
      kind,
      host: this.host,
      pid: process.pid,
      dataDir: resolve(config.dataDir),
      mediaStorage: config.media.storage.driver,
      mediaDir: this.mediaDir,
      mediaFolderId,
      version: pkg.version,
    };
    await this.beatWith(await repo.insertProcess(db, row));
    this.row = row;
    for (const finding of mediaPlacementFindings([...live, row])) {
      if (finding.level !== 'ok') log.warn({ processId: this.id }, finding.message);
    }
    this.onBeat = onBeat ?? null;
    this.timer = setInterval(() => void this.beat(), heartbeatSeconds * 1000);
    this.timer.unref();
  }

  private async beat() {
    // A beat slower than the interval (a busy database) is not stacked with the next one.
    if (this.beating) return;
    this.beating = this.runBeat().finally(() => (this.beating = null));
    await this.beating;
  }

  private async runBeat() {
    const { db, log, config } = this.options;
    try {
      const heartbeatAt = await repo.touchProcess(db, this.id);
      if (heartbeatAt) await this.beatWith(heartbeatAt);
      else {
        // Another process took this one for dead (no heartbeat for PROCESS_LAPSE_SECONDS) and
        // settled what it held; its runs' next guarded steps find their targets moved on.
        log.warn(
          { processId: this.id, lapseSeconds: config.processes.lapseSeconds },
          'this process was taken for stopped (its heartbeat lapsed): it registers again',
        );
        if (this.row) await this.beatWith(await repo.insertProcess(db, this.row));
      }
      await this.onBeat?.();
    } catch (err) {
      log.error({ err, processId: this.id }, 'process heartbeat failed');
    }
  }

  /** The heartbeat also goes into this process's mark in its media folder (media-folder.ts). */
  private async beatWith(heartbeatAt: Date) {
    if (this.mediaDir) await markMediaFolder(this.mediaDir, this.id, heartbeatAt);
  }

  /** Stops beating and removes the row (a graceful stop: nothing is held under this id any more). */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.onBeat = null;
    this.row = null;
    await this.beating;
    await repo.deleteProcess(this.options.db, this.id);
    if (this.mediaDir) await unmarkMediaFolder(this.mediaDir, this.id).catch(() => {});
  }

  /** Stops settling others' work (a stopping process), while its heartbeat goes on. */
  quiet() {
    this.onBeat = null;
  }
}

/**
 * A worker's beat: the publications held by processes that died are settled (watchdog.ts,
 * settleOrphans), then the rows of dead processes that hold nothing any more are forgotten.
 */
export async function settleDeadProcesses(
  watchdog: WatchdogDeps,
  processId: string,
  lapseSeconds: number,
  log: FastifyBaseLogger,
) {
  const settled = await settleOrphans(watchdog, processId, lapseSeconds);
  if (settled.adopted > 0)
    log.warn(settled, 'settled the publications held by a process that died');
  for (const gone of await repo.pruneLapsedProcesses(watchdog.db, lapseSeconds))
    log.info(gone, 'a process stopped without removing its row: forgotten');
}
