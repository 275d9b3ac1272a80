import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../lib/paths.js';
import { readPgliteTemplate, writePgliteTemplate } from './pglite-template.js';

const dir = mkdtempSync(join(tmpdir(), 'herald-template-test-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded database template', () => {
  it('is a migrated database a new data folder can start from', async () => {
    const path = join(dir, 'template.tar.gz');
    expect(readPgliteTemplate(path)).toBeNull();
    await writePgliteTemplate(path);
    const template = readPgliteTemplate(path);
    expect(template).not.toBeNull();

    const pglite = await PGlite.create(join(dir, 'data'), { loadDataDir: template! });
    try {
      const journal = JSON.parse(
        readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      const applied = await pglite.query<{ n: number }>(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      expect(applied.rows[0]!.n).toBe(journal.entries.length);
      // The migrations' seed rows are there; nothing made at first start (secrets, users) is.
      const plans = await pglite.query<{ n: number }>('select count(*)::int as n from plans');
      expect(plans.rows[0]!.n).toBeGreaterThan(0);
      for (const table of ['users', 'app_secrets']) {
        const rows = await pglite.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        expect(rows.rows[0]!.n).toBe(0);
      }
    } finally {
      await pglite.close();
    }
  }, 120_000);
});
