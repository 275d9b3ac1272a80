// `npm start`: builds whatever is missing or older than its sources, then runs the all-in-one
// server (API + web app + job worker; embedded PostgreSQL unless DATABASE_URL is set).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function buildIfStale(workspace, output, sources) {
  const built = newestMtime(join(root, output));
  const source = Math.max(...sources.map((s) => newestMtime(join(root, s))));
  if (built > 0 && built >= source) return;
  console.log(`Building ${workspace}…`);
  const res = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

buildIfStale('@herald/web', 'apps/web/dist/index.html', [
  'apps/web/src',
  'apps/web/index.html',
  'packages/contract/src',
]);
buildIfStale('@herald/server', 'apps/server/dist/cli.js', [
  'apps/server/src',
  'packages/contract/src',
]);

const server = spawn(
  process.execPath,
  [join(root, 'apps/server/bin/herald.mjs'), 'start', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
// A stop (docker stop, systemd, Ctrl-C) reaches the server, which finishes what is in flight
// and exits; this process leaves with it instead of leaving it behind.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
