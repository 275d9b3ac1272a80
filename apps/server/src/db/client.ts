import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { is, type SQL } from 'drizzle-orm';
import { PgTransaction, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder, pgliteTemplatePath } from '../lib/paths.js';
import { lockDataDir } from './data-dir-lock.js';
import { PgliteThread } from './pglite-thread.js';
import * as schema from './schema.js';

type Schema = typeof schema;
/** The drizzle database, the same type whether PGlite or PostgreSQL is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database =
  | {
      kind: 'pglite';
      db: Db;
      pglite: PgliteThread;
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

/** The rows of a raw statement (`db.execute`), the same shape on PostgreSQL and PGlite. */
export const rowsOf = async <T>(db: Db, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * Runs a raw statement that a hot path sends again and again. On PostgreSQL it goes under `name`
 * (node-postgres has each connection parse and plan it once); PGlite, in process, runs it as it
 * is. A Buffer value travels as bytes (for a bytea), not as text. (Outside a transaction only.)
 */
export async function runNamed(db: Db, name: string | undefined, text: string, values: unknown[]) {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof PgliteThread) await client.query(text, values);
  else await (client as pg.Pool).query({ name, text, values });
}

/**
 * `make(db)` made once per database and kept (statements built and prepared for it): the
 * returned function answers the same object for the same database every time.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}

/** Timestamps arrive as the text the database sends; the caller makes them dates, as drizzle does. */
const TIMESTAMP_TYPES = new Set([1114, 1184]);
const asText = (value: string) => value;
const timestampsAsText = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    TIMESTAMP_TYPES.has(oid) ? asText : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;
const PGLITE_TIMESTAMPS_AS_TEXT = Object.fromEntries(
  [...TIMESTAMP_TYPES].map((oid) => [oid, asText]),
);

/**
 * PGlite plans every statement it is sent afresh (its \`query\` has no named statements), and in
 * WebAssembly planning the posts page was about a third of its time. A hot read is therefore
 * PREPAREd once per database and run by EXECUTE, whose arguments PGlite cannot bind: they are
 * written as literals, which only integers and strings of an id's or a word's characters become
 * (anything else runs as a plain query).
 */
const preparedByPglite = new WeakMap<PgliteThread, Map<string, Promise<unknown>>>();
function preparedOnPglite(client: PgliteThread, name: string, text: string) {
  let prepared = preparedByPglite.get(client);
  if (!prepared) preparedByPglite.set(client, (prepared = new Map()));
  let done = prepared.get(name);
  if (!done) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a statement name: ${name}`);
    done = client.query(`prepare ${name} as ${text}`).catch((err: unknown) => {
      prepared.delete(name);
      throw err;
    });
    prepared.set(name, done);
  }
  return done;
}

/** `value` as an SQL literal when it is safe to write as one (see above), else null. */
function sqlLiteral(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && /^[A-Za-z0-9_-]*$/.test(value)) return `'${value}'`;
  return null;
}

/**
 * Runs a read that a hot path sends again and again (under `name` on PostgreSQL, as `runNamed`)
 * and answers its rows as arrays in the select list's order, timestamps as text: for a caller
 * that maps the rows itself. (Outside a transaction only.)
 */
export async function queryRowArrays(
  db: Db,
  name: string,
  text: string,
  values: unknown[],
): Promise<unknown[][]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof PgliteThread) {
    const parsers = PGLITE_TIMESTAMPS_AS_TEXT;
    const literals = values.map(sqlLiteral);
    if (literals.includes(null))
      return (await client.query<unknown[]>(text, values, { rowMode: 'array', parsers })).rows;
    await preparedOnPglite(client, name, text);
    // Read in this thread (timestamps as text), not by PGlite in the database's, the busier one.
    return (await client.executeRaw(`execute ${name}(${literals.join(', ')})`)).rows;
  }
  const result = await (client as pg.Pool).query<unknown[]>({
    name,
    text,
    values,
    rowMode: 'array',
    types: timestampsAsText,
  });
  return result.rows;
}

/** `db` when it is a transaction, else undefined (a cache's scope, lib/ttl-cache.ts). */
export const transactionOf = (db: Db): Db | undefined => (is(db, PgTransaction) ? db : undefined);

/**
 * Whether `db` is the embedded PGlite database: one connection that every query (and every
 * transaction) queues for, owned by one process (the data-directory lock).
 */
export const isEmbedded = (db: Db) => (db as { $client?: unknown }).$client instanceof PgliteThread;

/** Any number will do as long as every Herald process uses the same one. */
const MIGRATION_LOCK_KEY = 7_412_003_921;

/**
 * Opens PGlite in `dataDir/data` (or in memory when `dataDir` is null, for tests), in a thread of
 * its own (pglite-worker.ts). A new data folder starts as a copy of the build's template.
 */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let release = () => {};
  let pglite: PgliteThread;
  if (dataDir) {
    release = lockDataDir(dataDir);
    mkdirSync(resolve(dataDir), { recursive: true });
    try {
      const folder = join(resolve(dataDir), 'data');
      pglite = await PgliteThread.open({ folder, template: pgliteTemplatePath() });
    } catch (err) {
      release();
      throw err;
    }
  } else {
    pglite = await PgliteThread.open({ folder: null, template: null });
  }
  const db = drizzlePglite(pglite as never, { schema }) as unknown as Db;
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
        await pglite.close();
      } finally {
        release();
      }
    },
  };
}

type QueryFn = (...args: unknown[]) => unknown;

const queryText = (arg: unknown): string =>
  typeof arg === 'string' ? arg : ((arg as { text?: string } | null)?.text ?? '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A pool that keeps its promises through lost connections.
 *
 * - A checked-out client goes back (and out) as soon as a query fails on a lost connection.
 *   drizzle sends BEGIN before its try/finally, so a BEGIN that failed on a dead connection
 *   never released its client: after a few blips every client was leaked and every request
 *   waited forever.
 * - A COMMIT whose answer is lost with the connection may have committed. Each transaction
 *   learns its id with its BEGIN (same round trip), and when the COMMIT's answer is lost the
 *   pool asks the database, over a new connection and for up to `commitCheckMs`, what became of
 *   it: committed means the caller hears success, as the data says. Without this a stored write
 *   could be answered 503 and retried into a duplicate.
 */
class ResilientPool extends pg.Pool {
  commitCheckMs = 15_000;

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: () => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    // pool.query() uses the callback form and handles its own client.
    if (callback) return super.connect(callback);
    return super.connect().then((client) => this.guard(client));
  }

  private guard(client: pg.PoolClient): pg.PoolClient {
    const release = client.release.bind(client);
    let released = false;
    client.release = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      // The guard is for this checkout only. Left on, every later checkout wrapped the last
      // wrapper again: a client's every query (pool.query ones too) went through one more layer
      // per transaction it had ever run.
      delete (client as { query?: unknown }).query;
      release(err);
    };
    const query = client.query.bind(client) as QueryFn;
    let xid: string | null = null;
    const releaseOnLostConnection = (err: unknown) => {
      if (isConnectionError(err)) client.release(err as Error);
      throw err;
    };
    (client as { query: QueryFn }).query = (...args: unknown[]) => {
      // Only a short text can be a bare BEGIN or COMMIT: long ones are not copied to be trimmed.
      const raw = queryText(args[0]);
      const text = raw.length <= 80 ? raw.trim() : '';
      const promised = args.length <= 2 && typeof args[args.length - 1] !== 'function';
      if (promised && /^begin\b/i.test(text) && !text.includes(';')) {
        xid = null;
        return (
          query(`${text}; select pg_current_xact_id()::text as xid`) as Promise<pg.QueryResult[]>
        ).then((results) => {
          xid = (results[1]?.rows[0] as { xid?: string } | undefined)?.xid ?? null;
          return results[0];
        }, releaseOnLostConnection);
      }
      if (promised && /^commit$/i.test(text) && xid) {
        const id = xid;
        xid = null;
        return (query(...args) as Promise<pg.QueryResult>).catch(async (err: unknown) => {
          if (!isConnectionError(err)) throw err;
          client.release(err as Error);
          if ((await this.outcomeOf(id)) === 'committed') {
            return { command: 'COMMIT', rowCount: null, rows: [], fields: [], oid: 0 };
          }
          throw err;
        });
      }
      const result = query(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).catch((err: unknown) => {
          if (isConnectionError(err)) client.release(err as Error);
        });
      }
      return result;
    };
    return client;
  }

  /** What became of a transaction, asked again while the database cannot be reached. */
  private async outcomeOf(xid: string): Promise<string | null> {
    const deadline = Date.now() + this.commitCheckMs;
    for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        const { rows } = await this.query<{ status: string | null }>(
          'select pg_xact_status($1::xid8) as status',
          [xid],
        );
        const status = rows[0]?.status ?? null;
        if (status !== 'in progress') return status;
      } catch (err) {
        if (!isConnectionError(err)) return null;
      }
      if (Date.now() + wait > deadline) return null;
      await sleep(wait);
    }
  }
}

/** Connects to PostgreSQL through a pool; fails with a sentence naming DATABASE_URL if unreachable. */
export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new ResilientPool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
  });
  // A client losing its connection must not crash the process. Idle ones are reported on the
  // pool (which replaces them); a checked-out one (a transaction, a job) emits on the client
  // itself, and its pending query fails with the error, which the caller handles.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
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

/** True when a statement broke a unique index (PostgreSQL 23505), as drizzle or the driver says. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
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
    '53300',
  ]);
  if (e.code && codes.has(e.code)) return true;
  if (
    e.message &&
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|not queryable|PGlite is closed|Cannot use a pool after calling end|terminating connection|not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)/i.test(
      e.message,
    )
  )
    return true;
  return e.cause !== undefined && e.cause !== err ? isConnectionError(e.cause) : false;
}
