// Builds what the end-to-end run serves: the server bundle (apps/server/dist) and the web app
// into a folder of its own, e2e/dist/web (e2e/playwright.config.ts points WEB_DIST_DIR at it),
// so a server started with `npm start` keeps serving apps/web/dist untouched while tests run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const webOut = join(root, 'e2e', 'dist', 'web');

for (const [workspace, extra] of [
  ['@herald/web', ['--', '--outDir', webOut, '--emptyOutDir']],
  ['@herald/server', []],
]) {
  const res = spawnSync('npm', ['run', 'build', '-w', workspace, ...extra], {
    cwd: root,
    stdio: 'inherit',
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
