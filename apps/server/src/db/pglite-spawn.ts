import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pgliteTemplatePath } from '../lib/paths.js';
import { lockDataDir } from './data-dir-lock.js';
import type {
  ErrorFields,
  PgliteReply,
  PgliteThreadOptions,
  PgliteWorkerData,
} from './pglite-worker.js';

/** The worker's file: bundled next to the built server, TypeScript (run as it is) in src/. */
function workerFile(): URL {
  const built = new URL('./pglite-worker.js', import.meta.url);
  return existsSync(built) ? built : new URL('./pglite-worker.ts', import.meta.url);
}

/** A database error again, from its fields: code, detail, constraint… as PGlite had them. */
export function toError(fields: ErrorFields): Error {
  const { message, name, ...rest } = fields;
  const error = Object.assign(new Error(message), rest);
  if (typeof name === 'string' && name !== 'Error') error.name = name;
  return error;
}

export interface SpawnedPglite {
  folder: string | null;
  worker: Worker;
  /** Settles when the database is open, or fails with the reason it could not be. */
  opened: Promise<void>;
  /** Settles when the thread has ended, with why: heard from the start, taken over or not. */
  ended: Promise<Error>;
}

/** Starts the database's thread (pglite-worker.ts), which opens the database at once. */
export function spawnPglite(options: PgliteThreadOptions): SpawnedPglite {
  const workerData: PgliteWorkerData = { pgliteThread: options };
  const worker = new Worker(workerFile(), { workerData });
  // An error in the thread is followed by its exit; listened to from the start, neither is lost
  // (an `error` nobody listens to would end the process).
  let failure: Error | null = null;
  worker.on('error', (err) => (failure ??= err));
  const ended = new Promise<Error>((resolve) =>
    worker.once('exit', (code) =>
      resolve(failure ?? new Error(`the database thread exited (code ${code})`)),
    ),
  );
  const opened = new Promise<void>((resolve, reject) => {
    const onMessage = (reply: PgliteReply) => {
      if (!('op' in reply)) return;
      if (reply.op === 'ready') resolve();
      else if (reply.op === 'failed') reject(toError(reply.error));
      else return;
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    void ended.then(reject);
  });
  // Whoever takes it over waits on `opened`; an early start nobody takes must not be unhandled.
  opened.catch(() => {});
  return { folder: options.folder, worker, opened, ended };
}

const EARLY = Symbol.for('herald.pglite.early');
type Early = { [EARLY]?: SpawnedPglite & { unlock(): void } };

/**
 * Called by the built entry (dist/cli.js) before it loads the server's bundle: when the command
 * will open the embedded database (`herald start` without DATABASE_URL, as config.ts reads them),
 * its thread starts opening it now, while this thread loads and evaluates the bundle (the
 * two were a second and a half of a start one after the other). The folder is locked first,
 * as openPglite locks it; when it cannot be, nothing starts here and openPglite says why. The two
 * variables are read by config.ts's rules.
 */
export function openEmbeddedEarly(argv: string[], env: NodeJS.ProcessEnv) {
  const command = argv[0] ?? 'start';
  if (command !== 'start' || env.DATABASE_URL?.trim()) return;
  const dataDir = env.HERALD_DATA_DIR ?? './.herald';
  if (!dataDir) return; // an empty folder setting is a database in memory (openPglite)
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir);
  } catch {
    return;
  }
  const folder = join(resolve(dataDir), 'data');
  const spawned = spawnPglite({ folder, template: pgliteTemplatePath() });
  (globalThis as Early)[EARLY] = { ...spawned, unlock };
}

/**
 * The thread `openEmbeddedEarly` started for `folder`, taken over by the caller; null when there
 * is none (one for another folder is stopped: nothing else would).
 */
export function takeEarlyPglite(folder: string | null): SpawnedPglite | null {
  const early = (globalThis as Early)[EARLY];
  if (!early) return null;
  delete (globalThis as Early)[EARLY];
  if (early.folder === folder) return early;
  void early.worker.terminate().finally(early.unlock);
  return null;
}
