import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLISH_QUEUE } from '../modules/publishing/publish-queue.js';
import { createTestApp, type TestApp } from './app.js';

// The built `herald` CLI run as a separate process (a worker killed mid-publish, a server given
// SIGTERM): what production runs, started as production starts it.

const serverDir = fileURLToPath(new URL('../../', import.meta.url));
export const repoRoot = join(serverDir, '../..');
export const cliPath = join(serverDir, 'dist/cli.js');

/** When a file was last modified (0 when it does not exist). */
function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time among the files the server bundle is built from. */
function newestSourceMtime(): number {
  let newest = 0;
  const dirs = [join(serverDir, 'src'), join(repoRoot, 'packages/contract/src')];
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|json|sql)$/.test(entry)) continue;
      newest = Math.max(newest, mtimeOf(join(dir, entry)));
    }
  }
  for (const file of ['package.json', 'scripts/build.mjs']) {
    newest = Math.max(newest, mtimeOf(join(serverDir, file)));
  }
  return newest;
}

/** Builds dist/cli.js with the server's own build script when it is missing or older than src. */
export function ensureBuiltCli() {
  if (mtimeOf(cliPath) > newestSourceMtime()) return;
  // Test files run in parallel and several start the CLI: one builds while the others wait, so
  // no test runs a bundle half written by another's build.
  const lock = join(serverDir, '.cli-build.lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than any build is a crashed run's: taken over.
      if (Date.now() - mtimeOf(lock) > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`Another build held ${lock} for 10 minutes.`, { cause: err });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (mtimeOf(cliPath) > newestSourceMtime()) return;
    const build = spawnSync(process.execPath, [join(serverDir, 'scripts/build.mjs')], {
      cwd: serverDir,
      encoding: 'utf8',
    });
    if (build.status !== 0)
      throw new Error(`Building the server failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface HeraldProcess {
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves once a line of its output matches `pattern`; rejects after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Its exit: the code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `herald <command>` from the built CLI with exactly `env` (plus PATH and HOME). */
export function startHerald(command: string, env: Record<string, string>): HeraldProcess {
  const child = spawn(process.execPath, [cliPath, command], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let output = '';
  const watchers = new Set<(line: string) => void>();
  const take = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = `${output}${text}`.slice(-60_000);
    for (const line of text.split('\n')) if (line) watchers.forEach((watch) => watch(line));
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    waitForLine(pattern, timeoutMs) {
      const seen = output.split('\n').find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`No output line matched ${pattern} within ${timeoutMs} ms.`));
        }, timeoutMs);
        const watch = (line: string) => {
          if (!pattern.test(line)) return;
          clearTimeout(timer);
          watchers.delete(watch);
          resolve(line);
        };
        watchers.add(watch);
        void exited.then(({ code, signal }) => {
          if (!watchers.has(watch)) return;
          clearTimeout(timer);
          watchers.delete(watch);
          reject(new Error(`herald ${command} exited (${signal ?? code}) before ${pattern}.`));
        });
      });
    },
  };
}

/**
 * The in-process API a test's `herald` processes work with — listening on a real port, so they
 * reach its sandboxes over HTTP — and those processes, all on the same PostgreSQL database with
 * the same token key and data directory (the API stores media and seals tokens; the children
 * read them). The children never outlive the test run, even when it ends abruptly.
 */
export class HeraldProcesses {
  /** Tokens of connected accounts are sealed with this key by the API; the children open them. */
  readonly tokenKey = randomBytes(32).toString('base64');
  readonly children: HeraldProcess[] = [];
  private app: TestApp | undefined;
  private dataDir: string | undefined;

  /** SIGKILLs every child still running, without waiting for them. */
  readonly killNow = () => {
    for (const { child } of this.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };

  /**
   * Builds the CLI, makes the shared data directory (`herald-<name>-…`) and starts the API, in
   * the api job role as `herald api` runs it: scheduling only sends publish jobs.
   */
  async start(name: string): Promise<TestApp> {
    ensureBuiltCli();
    const dataDir = mkdtempSync(join(tmpdir(), `herald-${name}-`));
    this.dataDir = dataDir;
    process.once('exit', this.killNow);
    this.app = await createTestApp(
      {
        TOKEN_ENCRYPTION_KEY: this.tokenKey,
        MEDIA_DIR: join(dataDir, 'media'),
        MEDIA_TEMP_DIR: join(dataDir, 'tmp'),
      },
      { jobs: 'api', queues: [PUBLISH_QUEUE] },
    );
    await this.app.app.listen({ port: 0, host: '127.0.0.1' });
    return this.app;
  }

  /** Where the in-process API listens. */
  get apiUrl(): string {
    return `http://127.0.0.1:${(this.app!.app.server.address() as AddressInfo).port}`;
  }

  /**
   * Starts `herald <command>` on the test database, sharing the API's data directory and token
   * key, reaching the API's sandboxes at PUBLIC_URL; `env` adds to or overrides these.
   */
  spawn(command: string, env: Record<string, string> = {}): HeraldProcess {
    const database = this.app!.database;
    if (database.kind !== 'postgres')
      throw new Error('herald processes need PostgreSQL: PGlite cannot be shared between them.');
    const child = startHerald(command, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      PUBLIC_URL: this.apiUrl,
      TOKEN_ENCRYPTION_KEY: this.tokenKey,
      HERALD_DATA_DIR: this.dataDir!,
      MEDIA_DIR: join(this.dataDir!, 'media'),
      MEDIA_TEMP_DIR: join(this.dataDir!, 'tmp'),
      ...env,
    });
    this.children.push(child);
    return child;
  }

  /** Kills the children and waits for their exit, then closes the API and removes the data. */
  async stop() {
    this.killNow();
    await Promise.all(this.children.map((c) => c.exited));
    process.off('exit', this.killNow);
    await this.app?.close();
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
