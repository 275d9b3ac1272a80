// The reference PDS keeps its data in SQLite through better-sqlite3, a native addon. npm does
// not run its install script (it would download a prebuilt binary, which this project's machines
// cannot reach), so it is compiled here for the Node.js that runs the install, from the headers
// that Node.js ships beside its binary: no download either way.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let addonDir;
try {
  addonDir = dirname(require.resolve('better-sqlite3/package.json'));
} catch {
  console.log('atproto-testnet: better-sqlite3 is not installed; nothing to build.');
  process.exit(0);
}

// The Node.js that runs npm is the one the tests run on; this script itself may be started by
// another one found first on the PATH npm gives scripts.
const node = process.env.npm_node_execpath || process.execPath;

// Already built for that Node.js (same ABI): opening an in-memory database works.
const probe = spawnSync(
  node,
  ['-e', `new (require(${JSON.stringify(addonDir)}))(':memory:').close()`],
  { stdio: 'ignore' },
);
if (probe.status === 0) process.exit(0);

const nodeDir = dirname(dirname(node));
if (!existsSync(join(nodeDir, 'include', 'node', 'node.h'))) {
  console.error(
    `atproto-testnet: no Node.js headers under ${nodeDir}/include/node; better-sqlite3 cannot be built, so the Bluesky reference tests cannot start their PDS.`,
  );
  process.exit(1);
}
const npmDir = process.env.npm_execpath ? dirname(dirname(process.env.npm_execpath)) : null;
const candidates = [
  process.env.npm_config_node_gyp,
  npmDir && join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  join(nodeDir, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
].filter(Boolean);
const gyp = candidates.find((path) => existsSync(path));
if (!gyp) {
  console.error('atproto-testnet: node-gyp (shipped with npm) was not found.');
  process.exit(1);
}
console.log(`atproto-testnet: building better-sqlite3 for ${node}…`);
// A machine-wide `nodedir` (an .npmrc naming another Node.js's headers) would win over the
// argument: the variable npm would pass is set to this Node.js's too.
const build = spawnSync(node, [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`], {
  cwd: addonDir,
  stdio: 'inherit',
  env: { ...process.env, npm_config_nodedir: nodeDir },
});
process.exit(build.status ?? 1);
