import { afterAll, beforeAll } from 'vitest';
import { type PostgresServer, startEmbeddedPostgres } from './embedded-postgres.js';

// Tests that need a real PostgreSQL server (a separate worker process, connections cut by the
// server) use the one at DATABASE_URL when it is set (CI, the project's machines), otherwise a
// throwaway embedded server, so they run on a machine without PostgreSQL too.

/** The server started by `usePostgres()` for the running test file or describe block. */
let inUse: PostgresServer | undefined;

/**
 * URL of the PostgreSQL server tests create their databases on: DATABASE_URL, or the embedded
 * server `usePostgres()` started; undefined when neither (tests then use PGlite).
 */
export function testPostgresUrl(): string | undefined {
  return process.env.DATABASE_URL || inUse?.url;
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
