import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionError, openPglite } from './client.js';
import { openEmbeddedEarly, takeEarlyPglite } from './pglite-spawn.js';
import { PgliteThread } from './pglite-thread.js';
import { unpackTar } from './pglite-worker.js';

// The embedded database lives in a thread of its own; through it, it must behave as PGlite did
// in this thread. Whatever DATABASE_URL says, this runs on PGlite.
let thread: PgliteThread;

beforeAll(async () => {
  thread = await PgliteThread.open({ folder: null, template: null });
  await thread.exec(`
    create table notes (id int primary key, body text not null, at timestamptz, data bytea, doc jsonb);
    insert into notes values (1, 'first', '2026-11-27 10:00:00.5+00', '\\x00ff', '{"a": [1, 2]}');`);
});

afterAll(async () => {
  await thread?.close();
});

describe('the embedded database in its own thread', () => {
  it('answers rows as objects or arrays, dates and bytes and JSON as PGlite reads them', async () => {
    const objects = await thread.query<{ id: number; at: Date; data: Uint8Array; doc: unknown }>(
      'select id, at, data, doc from notes where id = $1',
      [1],
    );
    expect(objects.rows[0]!.id).toBe(1);
    expect(objects.rows[0]!.at).toBeInstanceOf(Date);
    expect(objects.rows[0]!.at.toISOString()).toBe('2026-11-27T10:00:00.500Z');
    expect([...objects.rows[0]!.data]).toEqual([0, 255]);
    expect(objects.rows[0]!.doc).toEqual({ a: [1, 2] });
    expect(objects.fields.map((f) => f.name)).toEqual(['id', 'at', 'data', 'doc']);

    // A parser that answers the text as it is: the type crosses as text.
    const arrays = await thread.query<unknown[]>('select id, at from notes', [], {
      rowMode: 'array',
      parsers: { 1184: (value) => value },
    });
    expect(arrays.rows).toEqual([[1, '2026-11-27 10:00:00.5+00']]);

    // Parameters cross too: bytes, dates.
    await thread.query('insert into notes (id, body, at, data) values ($1, $2, $3, $4)', [
      2,
      'second',
      new Date('2026-01-02T03:04:05Z'),
      new Uint8Array([7, 8]),
    ]);
    const second = await thread.query<{ at: Date; data: Uint8Array }>(
      'select at, data from notes where id = 2',
    );
    expect(second.rows[0]!.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect([...second.rows[0]!.data]).toEqual([7, 8]);
    expect(second.affectedRows).toBe(0);
  });

  it('answers json and jsonb as PGlite parses them, in object and array rows, in a transaction, or as text when asked', async () => {
    const text = `select '{"a": [1, {"b": null}]}'::json as doc, '"word"'::jsonb as word,
      'null'::jsonb as literal, null::json as missing, '[1, 2]'::text as doc, 7 as n,
      array['{"x": 1}'::json] as list`;
    const objects = await thread.query<Record<string, unknown>>(text);
    // The later of two fields named alike is the one an object row holds: here, text.
    expect(objects.rows).toEqual([
      { doc: '[1, 2]', word: 'word', literal: null, missing: null, n: 7, list: [{ x: 1 }] },
    ]);

    const arrays = await thread.query<unknown[]>(text, [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([
      [{ a: [1, { b: null }] }, 'word', null, null, '[1, 2]', 7, [{ x: 1 }]],
    ]);

    const inTransaction = await thread.transaction((tx) =>
      tx.query<unknown[]>(text, [], { rowMode: 'array' }),
    );
    expect(inTransaction.rows).toEqual(arrays.rows);

    // A caller that reads jsonb (3802) itself gets its text; json is still parsed.
    const asText = await thread.query<unknown[]>(text, [], {
      rowMode: 'array',
      parsers: { 3802: (value) => value },
    });
    expect(asText.rows).toEqual([
      [{ a: [1, { b: null }] }, '"word"', 'null', null, '[1, 2]', 7, [{ x: 1 }]],
    ]);
  });

  it('fails a statement with the database error’s code and constraint, and goes on', async () => {
    const failed = await thread
      .query("insert into notes (id, body) values (1, 'again')")
      .catch((err: unknown) => err as Record<string, unknown>);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).toMatchObject({ code: '23505', constraint: 'notes_pkey' });
    expect(String((failed as unknown as Error).message)).toMatch(/duplicate key/);
    const { rows } = await thread.query<{ n: number }>('select count(*)::int as n from notes');
    expect(rows[0]!.n).toBe(2);
  });

  it('commits a transaction that resolves, rolls back one that throws, and holds others off meanwhile', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await thread.transaction(async (tx) => {
      await tx.query("insert into notes (id, body) values (10, 'in a transaction')");
      // From outside, the same table waits for the commit: it never sees a half-done transaction.
      outside = Promise.all([
        thread
          .query<{ n: number }>('select count(*)::int as n from notes where id = 10')
          .then((r) => order.push(`outside saw ${r.rows[0]!.n}`)),
        // A statement read in this thread (executeRaw) waits the same way.
        thread
          .executeRaw('select count(*)::int from notes where id = 10')
          .then((r) => order.push(`raw saw ${String(r.rows[0]![0])}`)),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('committing');
    });
    await outside;
    expect(order).toEqual(['committing', 'outside saw 1', 'raw saw 1']);

    const thrown = new Error('changed my mind');
    await expect(
      thread.transaction(async (tx) => {
        await tx.query("insert into notes (id, body) values (11, 'rolled back')");
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    const { rows } = await thread.query<{ n: number }>(
      'select count(*)::int as n from notes where id = 11',
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('delivers notifications to each listener until it stops listening', async () => {
    const heard: string[] = [];
    const stopA = await thread.listen('news', (payload) => heard.push(`a:${payload}`));
    const stopB = await thread.listen('news', (payload) => heard.push(`b:${payload}`));
    await thread.query("select pg_notify('news', 'one')");
    await expect.poll(() => heard.length).toBe(2);
    await stopA();
    await thread.query("select pg_notify('news', 'two')");
    await expect.poll(() => heard).toContain('b:two');
    await stopB();
    await thread.query("select pg_notify('news', 'three')");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.sort()).toEqual(['a:one', 'b:one', 'b:two']);
  });
});

describe('a statement read in this thread (executeRaw)', () => {
  it('reads values as PGlite does, timestamps as their text', async () => {
    const { fields, rows } = await thread.executeRaw(`select
        true as yes, false as no, 7::int2 as small, 42 as n, 9007199254740993::int8 as big,
        12::int8 as count, 1.5::float8 as ratio, 'héllo, wörld ✓' as words, null::text as nothing,
        '{"a": [1, 2]}'::jsonb as doc, '[{"b": null}]'::json as list,
        '2026-11-27 10:00:00.5+00'::timestamptz as at,
        'a1a2a3a4-0000-4000-8000-000000000001'::uuid as id`);
    expect(fields.map((f) => f.name)).toEqual([
      'yes',
      'no',
      'small',
      'n',
      'big',
      'count',
      'ratio',
      'words',
      'nothing',
      'doc',
      'list',
      'at',
      'id',
    ]);
    expect(rows).toEqual([
      [
        true,
        false,
        7,
        42,
        9007199254740993n,
        12,
        1.5,
        'héllo, wörld ✓',
        null,
        { a: [1, 2] },
        [{ b: null }],
        '2026-11-27 10:00:00.5+00',
        'a1a2a3a4-0000-4000-8000-000000000001',
      ],
    ]);
    // The same through PGlite's own reading, but for the timestamp left as text.
    const own = await thread.query<unknown[]>(
      'select true, 42, 12::int8, \'{"a": [1, 2]}\'::jsonb',
      [],
      { rowMode: 'array' },
    );
    expect(own.rows).toEqual([[true, 42, 12, { a: [1, 2] }]]);
  });

  it('reads many rows, and a prepared statement executed with its arguments', async () => {
    await thread.exec(
      'create table many (n int primary key, label text); ' +
        "insert into many select g, 'row ' || g from generate_series(1, 500) g;",
    );
    await thread.query('prepare many_from as select n, label from many where n >= $1 order by n');
    const { rows } = await thread.executeRaw('execute many_from(401)');
    expect(rows).toHaveLength(100);
    expect(rows[0]).toEqual([401, 'row 401']);
    expect(rows[99]).toEqual([500, 'row 500']);
    // An answer larger than PGlite's buffer arrives in several pieces (a character may be split).
    const big = await thread.executeRaw(
      "select g, repeat('é✓', 40) from generate_series(1, 20000) g",
    );
    expect(big.rows).toHaveLength(20000);
    expect(big.rows[19999]).toEqual([20000, 'é✓'.repeat(40)]);
    expect(big.rows.every((row, i) => row[0] === i + 1 && row[1] === 'é✓'.repeat(40))).toBe(true);
  });

  it('fails with the database error’s fields, and goes on', async () => {
    const failed = await thread
      .executeRaw("insert into notes (id, body) values (1, 'again')")
      .catch((err: unknown) => err as Record<string, unknown>);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).toMatchObject({
      code: '23505',
      constraint: 'notes_pkey',
      table: 'notes',
      severity: 'ERROR',
      query: "insert into notes (id, body) values (1, 'again')",
    });
    expect(String((failed as unknown as Error).message)).toMatch(/duplicate key/);
    const { rows } = await thread.executeRaw('select count(*)::int from notes where id = 1');
    expect(rows).toEqual([[1]]);
  });

  it('refuses a result it would read differently from PGlite (arrays, bytes, dates…)', async () => {
    for (const [select, name] of [
      ["array['a', 'b'] as tags", 'tags'],
      ["'\\x00ff'::bytea as data", 'data'],
      ["'2026-11-29'::date as day", 'day'],
      ['1.5::numeric as amount', 'amount'],
    ])
      await expect(thread.executeRaw(`select 1 as fine, ${select}`)).rejects.toThrow(
        `executeRaw does not read ${name}`,
      );
    const { rows } = await thread.executeRaw('select 1');
    expect(rows).toEqual([[1]]);
  });

  it('lets a notification it causes reach each listener once, whatever else happens', async () => {
    const heard: string[] = [];
    const stop = await thread.listen('raw_news', (payload) => heard.push(payload));
    const stopBroken = await thread.listen('raw_news', () => {
      throw new Error('a listener that breaks');
    });
    const { rows } = await thread.executeRaw(
      "select pg_notify('raw_news', 'from a raw statement') is null as sent",
    );
    // A listener that throws fails neither the read nor the others.
    expect(rows).toEqual([[false]]);
    await expect.poll(() => heard).toEqual(['from a raw statement']);
    // A result refused (void is not read) still hands on the notification in its answer.
    await expect(
      thread.executeRaw("select pg_notify('raw_news', 'despite the refusal')"),
    ).rejects.toThrow('executeRaw does not read pg_notify');
    await expect.poll(() => heard).toEqual(['from a raw statement', 'despite the refusal']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual(['from a raw statement', 'despite the refusal']);
    await stopBroken();
    await stop();
  });
});

describe('the embedded database’s edges', () => {
  it('runs with 32 MB of shared buffers (128 MB cost 0.6 s of every start)', async () => {
    const { rows } = await thread.query<{ shared_buffers: string }>('show shared_buffers');
    expect(rows[0]!.shared_buffers).toBe('32MB');
  });

  it('goes on listening after a listen that failed', async () => {
    await expect(thread.listen('not a channel', () => {})).rejects.toThrow(/syntax error/);
    const heard: string[] = [];
    const stop = await thread.listen('later', (payload) => heard.push(payload));
    await thread.query("select pg_notify('later', 'still heard')");
    await expect.poll(() => heard).toEqual(['still heard']);
    await stop();
  });

  it('refuses a value that cannot reach the thread, and leaves nothing waiting', async () => {
    await expect(thread.query('select $1::text', [() => 'a function'])).rejects.toThrow(
      /could not be cloned/,
    );
    const { rows } = await thread.query<{ n: number }>('select 1 as n');
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe('a closed embedded database', () => {
  it('closes once however often it is asked, and both askers hear it closed', async () => {
    const closing = await PgliteThread.open({ folder: null, template: null });
    await Promise.all([closing.close(), closing.close()]);
    expect(closing.closed).toBe(true);
    // Closed when asked: that is not a lost database.
    const timeout = new Promise((resolve) => setTimeout(() => resolve('not lost'), 100));
    expect(await Promise.race([closing.lost.then(() => 'lost'), timeout])).toBe('not lost');
  });

  it('tells the server when its thread ends unasked, and fails what follows as a lost connection', async () => {
    const crashing = await PgliteThread.open({ folder: null, template: null });
    await (crashing as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(crashing.lost).resolves.toBeInstanceOf(Error);
    const err = await crashing.query('select 1').catch((e: unknown) => e);
    expect(isConnectionError(err)).toBe(true);
  });

  it('fails what is asked of it as a lost connection (503), not a bug', async () => {
    const closing = await PgliteThread.open({ folder: null, template: null });
    await closing.close();
    expect(closing.closed).toBe(true);
    const err = await closing.query('select 1').catch((e: unknown) => e);
    expect(isConnectionError(err)).toBe(true);
  });
});

describe('opening the embedded database while the server loads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'herald-early-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const lockOf = (dataDir: string) => join(dataDir, 'herald.lock');

  it('locks the folder at once, and the start that opens the same folder takes it over', async () => {
    const dataDir = join(dir, 'same');
    openEmbeddedEarly(['start'], { HERALD_DATA_DIR: dataDir });
    expect(readFileSync(lockOf(dataDir), 'utf8')).toBe(String(process.pid));
    const database = await openPglite(dataDir);
    try {
      // Taken: nothing is left for another opener (a second PGlite on the folder would corrupt it).
      expect(takeEarlyPglite(join(dataDir, 'data'))).toBeNull();
      await database.migrate();
      const rows = await database.db.execute(sql`select 41 + 1 as n`);
      expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(42);
    } finally {
      await database.close();
    }
    expect(existsSync(lockOf(dataDir))).toBe(false);
  });

  it('stops an early start for another folder, and lets its folder go', async () => {
    const early = join(dir, 'early');
    openEmbeddedEarly(['start'], { HERALD_DATA_DIR: early });
    expect(existsSync(lockOf(early))).toBe(true);
    const database = await openPglite(join(dir, 'other'));
    await database.close();
    await expect.poll(() => existsSync(lockOf(early))).toBe(false);
  });

  it('starts nothing for another command, or with DATABASE_URL', () => {
    const dataDir = join(dir, 'unused');
    openEmbeddedEarly(['migrate'], { HERALD_DATA_DIR: dataDir });
    openEmbeddedEarly(['start'], {
      HERALD_DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://db/herald',
    });
    expect(existsSync(lockOf(dataDir))).toBe(false);
    expect(takeEarlyPglite(join(dataDir, 'data'))).toBeNull();
  });
});

describe('unpacking the template into a new data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'herald-untar-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every folder and file of a tar, with their permissions', () => {
    const source = join(dir, 'source');
    // A path longer than 100 characters is split over the header's name and prefix.
    const deep = join('base', 'd'.repeat(60), 'e'.repeat(60));
    mkdirSync(join(source, deep), { recursive: true });
    mkdirSync(join(source, 'base', '1'), { recursive: true });
    writeFileSync(join(source, 'PG_VERSION'), '17\n', { mode: 0o600 });
    writeFileSync(join(source, 'base', '1', 'big'), Buffer.alloc(70_000, 7));
    writeFileSync(join(source, deep, 'file'), 'a long path');
    execFileSync('tar', ['--format=ustar', '-cf', join(dir, 'a.tar'), '-C', source, '.']);

    const target = join(dir, 'target');
    unpackTar(readFileSync(join(dir, 'a.tar')), target);
    expect(readFileSync(join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(statSync(join(target, 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(target, 'base', '1', 'big')).equals(Buffer.alloc(70_000, 7))).toBe(
      true,
    );
    expect(readFileSync(join(target, deep, 'file'), 'utf8')).toBe('a long path');
  });

  it('writes PG_VERSION last: a folder left halfway is not taken for a database', () => {
    const entry = (name: string, type: string, body = '') => {
      const header = Buffer.alloc(512);
      header.write(name, 0);
      header.write('0000600\0', 100);
      header.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
      header.write(type, 156);
      const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
      data.write(body);
      return Buffer.concat([header, data]);
    };
    const target = join(dir, 'halfway');
    // As PGlite writes it, PG_VERSION comes before the last files; here the one after it breaks.
    const tar = Buffer.concat([entry('/PG_VERSION', '0', '17\n'), entry('/link', '2')]);
    expect(() => unpackTar(tar, target)).toThrow(/not expected/);
    expect(existsSync(join(target, 'PG_VERSION'))).toBe(false);
    unpackTar(entry('/PG_VERSION', '0', '17\n'), target);
    expect(readFileSync(join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
  });

  it('refuses an entry that would land outside the folder', () => {
    const header = Buffer.alloc(1024);
    header.write('../escaped', 0);
    header.write('0000644\0', 100);
    header.write('00000000000\0', 124);
    header.write('0', 156);
    expect(() => unpackTar(header, join(dir, 'inside'))).toThrow(/outside the folder/);
    expect(existsSync(join(dir, 'escaped'))).toBe(false);
  });
});
