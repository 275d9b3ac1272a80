import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, type Database } from './client.js';
import { createTestDatabase } from '../test/database.js';
import { usePostgres } from '../test/postgres.js';

/**
 * The pool's guard (a lost COMMIT asked about again, a client released on a lost connection)
 * wraps a client's `query` for one checkout only: once released, the client queries as pg's own
 * client does, however many transactions it ran (each used to add a layer).
 */
usePostgres();

let drop: () => Promise<void>;
let database: Database;

beforeAll(async () => {
  const created = await createTestDatabase();
  if (created.database.kind !== 'postgres') {
    await created.drop();
    throw new Error('This test needs PostgreSQL.');
  }
  drop = created.drop;
  const url = created.database.url;
  await created.database.close();
  database = await openPostgres(url, 1);
});

afterAll(async () => {
  await database?.close();
  await drop?.();
});

it('leaves no wrapper on a pooled client after its transactions', async () => {
  if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const pool: pg.Pool = database.pool;
  for (let i = 0; i < 5; i++) {
    const n = await database.db.transaction(async (tx) => {
      const rows = await tx.execute(sql`select ${i}::int as n`);
      return Number((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
    });
    expect(n).toBe(i);
  }
  const client = await pool.connect();
  // The checkout's own guard is on while it is out…
  expect(Object.hasOwn(client, 'query')).toBe(true);
  client.release();
  // …and gone once it is back: no layer left from this checkout or the five before.
  expect(Object.hasOwn(client, 'query')).toBe(false);
  const { rows } = await pool.query<{ one: number }>('select 1 as one');
  expect(rows[0]!.one).toBe(1);
});
