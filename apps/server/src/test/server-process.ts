import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const build = spawnSync(process.execPath, [join(serverDir, 'scripts/build.mjs')], {
    cwd: serverDir,
    encoding: 'utf8',
  });
  if (build.status !== 0)
    throw new Error(`Building the server failed:\n${build.stdout}\n${build.stderr}`);
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
