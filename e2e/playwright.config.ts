import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// webhooks.spec.ts's receiver listens on loopback here; the SSRF guard lets only it through.
export const webhookReceiverPort = Number(process.env.E2E_WEBHOOK_PORT ?? port + 1000);
// feeds.spec.ts's feed server listens on loopback here; likewise the only other port let through.
export const feedServerPort = Number(process.env.E2E_FEED_PORT ?? port + 1001);
// Each run starts from an empty embedded database, as a fresh install would.
const dataDir = process.env.E2E_DATA_DIR ?? join(tmpdir(), `herald-e2e-${Date.now()}`);
// The web app built for this run by scripts/build-e2e.mjs, apart from apps/web/dist (which a
// running `npm start` may be serving).
const webDist = fileURLToPath(new URL('./dist/web', import.meta.url));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  outputDir: '../test-results/e2e',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node ../apps/server/bin/herald.mjs start',
    url: `${baseURL}/api/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      HERALD_DATA_DIR: dataDir,
      WEB_DIST_DIR: webDist,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: 'operator@example.com,pocket.operator@example.com',
      MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${webhookReceiverPort},127.0.0.1:${feedServerPort}`,
    },
  },
});
