import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { usePostgres } from '../../test/postgres.js';
import {
  ensureBuiltCli,
  freePort,
  type HeraldProcess,
  startHerald,
} from '../../test/server-process.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';

/**
 * `herald worker` has no HTTP server of its own: with METRICS_TOKEN it serves its metrics on
 * METRICS_PORT, at the path and behind the token the API processes use. A real worker process
 * (built CLI) on a throwaway PostgreSQL database.
 */

usePostgres();

const TOKEN = 'worker-metrics-token-0123456789abcdef012345';
let t: TestApp | undefined;
let dataDir: string | undefined;
let worker: HeraldProcess | undefined;
let metricsUrl: string;

beforeAll(async () => {
  ensureBuiltCli();
  dataDir = mkdtempSync(join(tmpdir(), 'herald-worker-metrics-'));
  // Makes and migrates the database the worker runs on.
  t = await createTestApp();
  if (t.database.kind !== 'postgres') throw new Error('This test runs on PostgreSQL only.');
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/api/metrics`;
  worker = startHerald('worker', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: t.database.url,
    HOST: '127.0.0.1',
    HERALD_DATA_DIR: dataDir,
    MEDIA_DIR: join(dataDir, 'media'),
    MEDIA_TEMP_DIR: join(dataDir, 'tmp'),
    METRICS_TOKEN: TOKEN,
    METRICS_PORT: String(port),
  });
  await worker.waitForLine(/Herald worker is running/, 90_000);
}, 180_000);

afterAll(async () => {
  if (worker && worker.child.exitCode === null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('herald worker with METRICS_TOKEN', () => {
  it('serves its metrics on METRICS_PORT, for the token only', async () => {
    onTestFailed(() => console.error(`herald worker output:\n${worker?.output()}`));
    expect(worker!.output()).toMatch(/"metricsPort":\d+/);

    const refused = await fetch(metricsUrl);
    expect(refused.status).toBe(401);

    const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`herald_job_queue_jobs{queue="${PUBLISH_QUEUE}",state="ready"}`);
    expect(text).toMatch(/^herald_db_pool_connections\{state="total"\} [1-9]/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });
});
