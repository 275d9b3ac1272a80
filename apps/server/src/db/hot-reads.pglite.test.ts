import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordStatements } from '../test/statements.js';
import { openPglite, queryRowArrays, type Database } from './client.js';

// The embedded database runs a hot read as PREPARE once, then EXECUTE with literal arguments.
// Whatever DATABASE_URL says, this runs on PGlite (CI's suite otherwise runs on PostgreSQL).
let database: Database;

beforeAll(async () => {
  database = await openPglite(null);
  if (database.kind !== 'pglite') throw new Error('expected PGlite');
  await database.pglite.exec(`
    create table notes (id uuid primary key, owner text not null, body text, at timestamptz not null);
    insert into notes values
      ('6f1c1f44-0000-4000-8000-000000000001', 'ann', 'first', '2026-11-27 10:00:00.123456+00'),
      ('6f1c1f44-0000-4000-8000-000000000002', 'ann', 'second', '2026-11-27 11:00:00+00'),
      ('6f1c1f44-0000-4000-8000-000000000003', 'o''brien', 'third', '2026-11-27 12:00:00+00');`);
});

afterAll(async () => {
  await database?.close();
});

const text = 'select id, body, at from notes where owner = $1 order by at desc limit $2 offset $3';
const statements = () => {
  const recorded = recordStatements(database.db);
  return { seen: recorded.statements, restore: recorded.stop };
};

it('prepares a hot read once and executes it again with its arguments as literals', async () => {
  const watch = statements();
  try {
    const first = await queryRowArrays(database.db, 'notes_page', text, ['ann', 10, 0]);
    const second = await queryRowArrays(database.db, 'notes_page', text, ['ann', 1, 1]);
    expect(first).toEqual([
      ['6f1c1f44-0000-4000-8000-000000000002', 'second', '2026-11-27 11:00:00+00'],
      ['6f1c1f44-0000-4000-8000-000000000001', 'first', '2026-11-27 10:00:00.123456+00'],
    ]);
    expect(second).toEqual([first[1]]);
  } finally {
    watch.restore();
  }
  expect(watch.seen.filter((s) => s.startsWith('prepare notes_page'))).toHaveLength(1);
  expect(watch.seen.filter((s) => s.startsWith('execute notes_page'))).toEqual([
    "execute notes_page('ann', 10, 0)",
    "execute notes_page('ann', 1, 1)",
  ]);
});

it('sends an argument that is not safe as a literal as a bound parameter instead', async () => {
  const watch = statements();
  try {
    const rows = await queryRowArrays(database.db, 'notes_page', text, ["o'brien", 10, 0]);
    expect(rows.map((row) => row[1])).toEqual(['third']);
    const none = await queryRowArrays(database.db, 'notes_page', text, ["ann' or ''='", 10, 0]);
    expect(none).toEqual([]);
  } finally {
    watch.restore();
  }
  expect(watch.seen.some((s) => s.startsWith('execute'))).toBe(false);
});
