// `npm test`: every test — vitest (unit + integration, on PostgreSQL when DATABASE_URL is set,
// PGlite otherwise) and the Playwright end-to-end suite against the built all-in-one server.
// Ends with one summary line, "total: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test-results', 'summary');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ??
  1;

const vitestJson = join(out, 'vitest.json');
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);

// Builds into a folder of its own: a running `npm start` keeps serving apps/web/dist.
let e2eStatus = run(process.execPath, ['scripts/build-e2e.mjs']);
const playwrightJson = join(out, 'playwright.json');
if (e2eStatus === 0) {
  e2eStatus = run(
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    },
  );
}

const counts = { passed: 0, failed: 0, skipped: 0 };
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  counts.passed += v.numPassedTests;
  counts.failed += v.numFailedTests;
  counts.skipped += v.numPendingTests + v.numTodoTests;
}
if (existsSync(playwrightJson)) {
  const s = JSON.parse(readFileSync(playwrightJson, 'utf8')).stats;
  counts.passed += s.expected + s.flaky;
  counts.failed += s.unexpected;
  counts.skipped += s.skipped;
}
// A suite that crashed before reporting counts as a failure even with no numbers.
if (vitestStatus !== 0 && counts.failed === 0) counts.failed = 1;
if (e2eStatus !== 0 && counts.failed === 0) counts.failed = 1;
console.log(`\ntotal: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(vitestStatus !== 0 || e2eStatus !== 0 ? 1 : 0);
