import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../lib/paths.js';
import { PgliteThread } from './pglite-thread.js';
import { writePgliteTemplate } from './pglite-template.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'herald-template-test-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded database template', () => {
  it('is a migrated database a new data folder can start from', async () => {
    const path = join(dir, 'template.tar.gz');
    expect(existsSync(path)).toBe(false);
    await writePgliteTemplate(path);
    expect(existsSync(path)).toBe(true);

    // As a first start opens it: the database's thread unpacks the template into the new folder.
    const pglite = await PgliteThread.open({ folder: join(dir, 'data'), template: path });
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
      // pg-boss's schema is installed, at the version this pg-boss wants, with no process in it.
      const installed = await pglite.query<{ version: number }>(
        'select version::int as version from pgboss.version',
      );
      const bossPackage = JSON.parse(
        readFileSync(join(dirname(require.resolve('pg-boss')), '..', 'package.json'), 'utf8'),
      ) as { pgboss: { schema: number } };
      expect(installed.rows[0]!.version).toBe(bossPackage.pgboss.schema);
      const instances = await pglite.query<{ n: number }>(
        'select count(*)::int as n from pgboss.instance',
      );
      expect(instances.rows[0]!.n).toBe(0);
    } finally {
      await pglite.close();
    }
  }, 120_000);
});
