import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { fromPglite, PgBoss } from 'pg-boss';
import { migrationsFolder, pgliteTemplatePath } from '../lib/paths.js';

/**
 * A new embedded database starts from a template made at build time: PostgreSQL's initdb under
 * WebAssembly took 3–10 s of a first `npm start` on the 2-core machine, unpacking an initialised,
 * migrated data folder takes well under one. The template holds the schema and the
 * migrations' seed rows only — no secret, no user: those are made at first start, as before.
 * Migrations newer than the template are applied on top, as on any existing folder.
 *
 * Initialises an in-memory database, applies every migration, installs pg-boss's schema (its
 * first start otherwise creates it, a few seconds of a first `npm start`) and writes it to `path`.
 */
export async function writePgliteTemplate(path = pgliteTemplatePath()): Promise<void> {
  const pglite = await PGlite.create();
  try {
    await migrate(drizzle(pglite), { migrationsFolder: migrationsFolder() });
    // As jobs/runtime.ts makes it, minus what a running process does: no timers, no instance row.
    const boss = new PgBoss({
      db: fromPglite(pglite),
      backend: 'pglite',
      schedule: false,
      supervise: false,
      registerInstance: false,
    });
    await boss.start();
    await boss.stop({ graceful: false });
    const tar = await pglite.dumpDataDir('none');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, gzipSync(Buffer.from(await tar.arrayBuffer()), { level: 6 }));
  } finally {
    await pglite.close();
  }
}
