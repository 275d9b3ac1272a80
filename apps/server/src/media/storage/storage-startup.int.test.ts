import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type S3TestServer, startS3Server } from '../../test/s3-server.js';
import { ensureBuiltCli, freePort, startHerald } from '../../test/server-process.js';

/**
 * `herald start` with S3 settings that cannot work stops at start with one sentence saying what
 * to fix, instead of starting and failing the first upload.
 */
let s3: S3TestServer;
let dataDir: string;
beforeAll(async () => {
  ensureBuiltCli();
  s3 = await startS3Server('herald-media');
  dataDir = await mkdtemp(join(tmpdir(), 'herald-storage-startup-'));
}, 120_000);
afterAll(async () => {
  await s3?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('refuses to start when the bucket does not exist, naming S3_BUCKET', async () => {
  const herald = startHerald('start', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    HERALD_DATA_DIR: dataDir,
    ...s3.env,
    S3_BUCKET: 'no-such-bucket',
  });
  try {
    // A start that goes through says so; then the test fails at once rather than waiting.
    const outcome = await Promise.race([
      herald.exited,
      herald.waitForLine(/Herald is running/, 90_000).then(() => 'running'),
    ]);
    expect(outcome).toEqual({ code: 1, signal: null });
    expect(herald.output().trim().split('\n')).toContain(
      `herald: The S3 bucket "no-such-bucket" does not exist at ${s3.endpoint}: create it, or set S3_BUCKET to an existing bucket.`,
    );
  } finally {
    if (herald.child.exitCode === null && herald.child.signalCode === null)
      herald.child.kill('SIGKILL');
  }
}, 120_000);
