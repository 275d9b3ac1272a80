import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder } from '../lib/paths.js';
import { lockDataDir } from './data-dir-lock.js';
import * as schema from './schema.js';

type Schema = typeof schema;
/** The drizzle database, the same type whether PGlite or PostgreSQL is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database =
  | {
      kind: 'pglite';
      db: Db;
      pglite: PGlite;
      close(): Promise<void>;
      ping(): Promise<void>;
      migrate(): Promise<void>;
    }
  | {
      kind: 'postgres';
      db: Db;
      pool: pg.Pool;
      url: string;
      close(): Promise<void>;
      ping(): Promise<void>;
      migrate(): Promise<void>;
    };

export class DatabaseUnreachableError extends Error {}

/** Any number will do as long as every Herald process uses the same one. */
const MIGRATION_LOCK_KEY = 7_412_003_921;

/** Opens PGlite in `dataDir/data` (or in memory when `dataDir` is null, for tests). */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let release = () => {};
  let pglite: PGlite;
  if (dataDir) {
    release = lockDataDir(dataDir);
    const folder = join(resolve(dataDir), 'data');
    mkdirSync(resolve(dataDir), { recursive: true });
    try {
      pglite = await PGlite.create(folder);
    } catch (err) {
      release();
      throw err;
    }
  } else {
    pglite = await PGlite.create();
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    async ping() {
      await pglite.query('select 1');
    },
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
    },
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        release();
      }
    },
  };
}

/** Connects to PostgreSQL through a pool; fails with a sentence naming DATABASE_URL if unreachable. */
export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => {});
    const reason = err instanceof Error ? err.message : String(err);
    throw new DatabaseUnreachableError(
      `Cannot reach the database at DATABASE_URL (${redactUrl(url)}): ${reason}`,
    );
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    pool,
    url,
    async ping() {
      await pool.query('select 1');
    },
    async migrate() {
      // Several processes may start at once; one migrates while the others wait.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** True for errors that mean "the database is not reachable right now" rather than a bad query. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | undefined;
  if (!e) return false;
  const codes = new Set([
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    '57P01',
    '57P02',
    '57P03',
    '08000',
    '08003',
    '08006',
    '08001',
    '08004',
  ]);
  if (e.code && codes.has(e.code)) return true;
  if (
    e.message &&
    /Connection terminated|connection timeout|Client has encountered a connection error|PGlite is closed|Cannot use a pool after calling end|terminating connection/i.test(
      e.message,
    )
  )
    return true;
  return e.cause !== undefined && e.cause !== err ? isConnectionError(e.cause) : false;
}
