// Bundles the server (with the workspace contract, whose package ships TypeScript source) into
// dist/cli.js; npm dependencies stay external and load from node_modules.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@herald/'));

await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cli.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/cli.js');

// The embedded database's template (src/db/pglite-template.ts): a first start unpacks it instead
// of running initdb.
await build({
  entryPoints: [new URL('../src/db/make-pglite-template.ts', import.meta.url).pathname],
  outfile: new URL('../dist/make-pglite-template.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
});
const made = spawnSync(
  process.execPath,
  [new URL('../dist/make-pglite-template.js', import.meta.url).pathname],
  { stdio: 'inherit' },
);
if (made.status !== 0) process.exit(made.status ?? 1);
