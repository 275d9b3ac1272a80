import type { Db } from '../db/client.js';

/**
 * Records the text of every statement `db` sends outside a transaction (its pool's or PGlite's
 * `query`), and counts the transactions it opens (a pool checkout or PGlite's `transaction`),
 * until `stop()`: for tests that count what a request or a run asks of the database.
 */
export function recordStatements(db: Db) {
  type Client = {
    query: (...args: unknown[]) => unknown;
    executeRaw?: (...args: unknown[]) => unknown;
    connect?: (...args: unknown[]) => unknown;
    transaction?: (...args: unknown[]) => unknown;
  };
  const client = (db as unknown as { $client: Client }).$client;
  const original = {
    query: client.query,
    executeRaw: client.executeRaw,
    connect: client.connect,
    transaction: client.transaction,
  };
  const statements: string[] = [];
  let transactions = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    const [query] = args;
    statements.push(typeof query === 'string' ? query : ((query as { text?: string }).text ?? ''));
    return original.query.apply(this, args);
  };
  // PGlite's hot reads (queryRowArrays) go by `executeRaw`.
  const executeRaw = original.executeRaw;
  if (executeRaw) {
    client.executeRaw = function (this: unknown, ...args: unknown[]) {
      statements.push(String(args[0]));
      return executeRaw.apply(this, args);
    };
  }
  for (const name of ['connect', 'transaction'] as const) {
    const method = original[name];
    if (!method) continue;
    client[name] = function (this: unknown, ...args: unknown[]) {
      // The pool's own `query` checks a client out with a callback; a transaction awaits one.
      // (PGlite's `transaction` takes the transaction's callback: every call is one.)
      if (name === 'transaction' || typeof args[0] !== 'function') transactions++;
      return method.apply(this, args);
    };
  }
  return {
    statements,
    get transactions() {
      return transactions;
    },
    stop() {
      Object.assign(client, original);
      if (!original.executeRaw) delete client.executeRaw;
    },
  };
}
