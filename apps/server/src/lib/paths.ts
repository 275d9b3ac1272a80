import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's root folder, found by walking up from this module. The code runs both
 * from `src/` (tsx, vitest) and bundled from `dist/`, at different depths.
 */
export function serverPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'drizzle', 'meta'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the server package folder (drizzle/meta).');
    dir = parent;
  }
  return dir;
}

export const migrationsFolder = () => join(serverPackageRoot(), 'drizzle');

/** The embedded database's template, made by the build (db/pglite-template.ts). */
export const pgliteTemplatePath = () => join(serverPackageRoot(), 'dist', 'pglite-template.tar.gz');
