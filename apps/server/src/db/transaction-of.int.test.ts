import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.js';
import { transactionOf, type Database } from './client.js';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(() => drop());

it('tells a transaction from the database (the per-request caches share loads by it)', async () => {
  expect(transactionOf(database.db)).toBeUndefined();
  const seen = await database.db.transaction(async (tx) => transactionOf(tx));
  expect(seen).toBeDefined();
  expect(seen).not.toBe(database.db);
});
