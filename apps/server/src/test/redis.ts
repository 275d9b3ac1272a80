import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * A Redis server for the enclosing test file: REDIS_TEST_URL when set, otherwise a throwaway
 * `redis-server` (Debian's redis-server package; `.ci/run` installs it) on a free port, keeping
 * nothing on disk and stopped after the file.
 */
export function useRedis(): { url(): string } {
  let url = process.env.REDIS_TEST_URL;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    if (url) return;
    const port = await freePort();
    child = spawn(
      process.env.REDIS_SERVER_PATH ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const failed = new Promise<never>((_, reject) =>
      child!.once('error', (err) =>
        reject(
          new Error(
            `These tests need redis-server (Debian: apt-get install redis-server) or REDIS_TEST_URL: ${err.message}`,
          ),
        ),
      ),
    );
    const up = (async () => {
      for (let i = 0; i < 100 && !(await reachable(port)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!(await reachable(port))) throw new Error('redis-server did not start within 5 s.');
    })();
    await Promise.race([up, failed]);
    url = `redis://127.0.0.1:${port}`;
  }, 30_000);
  afterAll(() => {
    child?.kill('SIGTERM');
  });
  return {
    url() {
      if (!url) throw new Error('useRedis(): Redis is not started yet (use it inside tests)');
      return url;
    },
  };
}
