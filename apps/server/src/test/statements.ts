import type { Db } from '../db/client.js';

/**
 * Records the text of every statement `db` sends (its pool's or PGlite's `query`) until `stop()`:
 * for tests that count what a request or a run asks of the database.
 */
export function recordStatements(db: Db) {
  type Client = { query: (...args: unknown[]) => unknown };
  const client = (db as unknown as { $client: Client }).$client;
  const original = client.query;
  const statements: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const [query] = args;
    statements.push(typeof query === 'string' ? query : ((query as { text?: string }).text ?? ''));
    return original.apply(this, args);
  };
  return {
    statements,
    stop() {
      client.query = original;
    },
  };
}
