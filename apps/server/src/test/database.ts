import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type Database, openPglite, openPostgres } from '../db/client.js';
import { testPostgresUrl } from './postgres.js';

/**
 * A fresh, migrated database for one test file: a new PostgreSQL database when DATABASE_URL is
 * set (CI) or the file runs on an embedded server (`usePostgres()` in ./postgres.ts), an
 * in-memory PGlite otherwise. `drop()` removes it.
 */
export async function createTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const adminUrl = testPostgresUrl();
  if (!adminUrl) {
    const database = await openPglite(null);
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `herald_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 4);
  await database.migrate();
  return {
    database,
    async drop() {
      await database.close().catch(() => {});
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A migrated in-memory PGlite for the test file, whatever DATABASE_URL says (for what only the
 * embedded database does): opened before the file's tests, closed after them.
 */
export function useMigratedPglite(): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openPglite(null);
    await database.migrate();
  }, 120_000);
  afterAll(() => database?.close());
  return () => database!;
}
