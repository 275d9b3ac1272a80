// Bundles the server (with the workspace contract, whose package ships TypeScript source) into
// dist/main.js, behind a small dist/cli.js that turns on Node's compile cache first.
//
// The pure-JavaScript npm packages go into the bundle too: a start used to load ~1,650 files
// from node_modules, and resolving and reading them was half of its time. Kept
// external, and loaded from node_modules:
//   - packages loaded by import() where first used, so a start does not load them at all;
//   - packages that read files of their own at run time (WebAssembly, native code, templates,
//     static assets, their package.json) or run them in worker threads by path.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dependencies = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@herald/'));

const KEPT_EXTERNAL = {
  stripe: 'import() when billing is configured',
  '@aws-sdk/client-s3': 'import() at the first S3 call',
  '@aws-sdk/lib-storage': 'import() at the first S3 upload',
  nodemailer: 'import() at the first e-mail',
  'prom-client': 'import() when METRICS_TOKEN is set',
  sharp: 'native code; import() at the first image',
  'oidc-provider': 'import() for the development sign-in; reads its own files',
  '@electric-sql/pglite': 'loads its WebAssembly and data files from its folder',
  '@fastify/swagger': 'reads its own package.json',
  '@fastify/swagger-ui': 'serves its own static files',
  ioredis: 'reads its own package.json',
  pino: 'runs transports in worker threads by file path',
  'pino-pretty': 'a pino transport',
  pdfkit: 'import() at the first report; reads its own font data files',
  '@embedpdf/fonts-latin': "the reports' font files, read from its folder",
};
for (const name of Object.keys(KEPT_EXTERNAL)) {
  if (!dependencies.includes(name))
    throw new Error(`build.mjs keeps ${name} external: not a dependency`);
}
// pg's optional native binding is not installed; pg only tries it when asked to.
const external = [...Object.keys(KEPT_EXTERNAL), 'pg-native'];

await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/main.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  // twitter-text asks for `punycode`: in node_modules that was Node's own module quietly; from a
  // bundle outside node_modules Node warns that it is deprecated at every start. The npm package
  // of the same name and API serves instead.
  alias: { punycode: 'punycode/' },
  // Bundled CommonJS packages require Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// The embedded database's thread (src/db/pglite-worker.ts), which is started by the path next to
// the bundle: dist/pglite-worker.js; and dist/early.js, which the entry loads first to start it
// opening the database while the bundle loads (src/db/pglite-spawn.ts).
for (const [entry, out] of [
  ['../src/db/pglite-worker.ts', '../dist/pglite-worker.js'],
  ['../src/db/pglite-spawn.ts', '../dist/early.js'],
]) {
  await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    outfile: new URL(out, import.meta.url).pathname,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    logLevel: 'warning',
  });
}
// The entry: Node keeps what it compiles on disk (its compile cache), so a later start does not
// compile the bundle again; the embedded database starts opening in its thread; then the bundle.
writeFileSync(
  new URL('../dist/cli.js', import.meta.url),
  `// Built by scripts/build.mjs: the entry of the built server.
import module from 'node:module';
module.enableCompileCache?.();
const { openEmbeddedEarly } = await import('./early.js');
openEmbeddedEarly(process.argv.slice(2), process.env);
await import('./main.js');
`,
);
console.log('server built: apps/server/dist/cli.js (bundle: dist/main.js)');

// The embedded database's template (src/db/pglite-template.ts): a first start unpacks it instead
// of running initdb.
await build({
  entryPoints: [new URL('../src/db/make-pglite-template.ts', import.meta.url).pathname],
  outfile: new URL('../dist/make-pglite-template.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: dependencies,
  logLevel: 'warning',
});
const made = spawnSync(
  process.execPath,
  [new URL('../dist/make-pglite-template.js', import.meta.url).pathname],
  { stdio: 'inherit' },
);
if (made.status !== 0) process.exit(made.status ?? 1);
