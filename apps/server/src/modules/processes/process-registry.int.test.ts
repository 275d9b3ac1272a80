import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { heraldProcesses } from '../../db/schema.js';
import { runDoctor } from '../../platforms/preflight/doctor-command.js';
import { testConfig } from '../../test/app.js';
import { createTestDatabase } from '../../test/database.js';
import { deploymentFindings } from './media-placement.js';
import { ProcessRegistry } from './process-registry.js';

/**
 * The processes serving one database, each in its row of herald_processes: where they keep
 * media is compared at each start and by `herald doctor`, so local folders that the processes do
 * not share are named before uploads answer 404 elsewhere and posts fail to publish.
 */

let database: Database;
let drop: () => Promise<void>;
let root: string;
const running: ProcessRegistry[] = [];

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  root = mkdtempSync(join(tmpdir(), 'herald-processes-'));
}, 120_000);

afterEach(async () => {
  for (const registry of running.splice(0)) await registry.stop();
});

afterAll(async () => {
  await drop();
  rmSync(root, { recursive: true, force: true });
});

/** A logger that keeps its lines. */
function capturingLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream) as unknown as FastifyBaseLogger, lines };
}

const configFor = (mediaDir: string) =>
  testConfig({
    HERALD_DATA_DIR: join(root, 'data'),
    MEDIA_DIR: mediaDir,
    PROCESS_HEARTBEAT_SECONDS: '1',
    PROCESS_LAPSE_SECONDS: '3',
  });

/** A process of `kind` on `host`, with its local media in `mediaDir`, registered. */
async function startProcess(host: string, mediaDir: string, kind: 'api' | 'worker' = 'api') {
  const { log, lines } = capturingLog();
  const registry = new ProcessRegistry({
    db: database.db,
    config: configFor(mediaDir),
    kind,
    log,
    host,
  });
  await registry.start();
  running.push(registry);
  const warnings = () => lines.filter((l) => l.level === 40).map((l) => l.msg);
  return { registry, warnings };
}

async function doctor() {
  let out = '';
  const config = configFor(join(root, 'unused'));
  const code = await runDoctor(
    config,
    [],
    (text) => (out += text),
    fetch,
    () => deploymentFindings(database.db, config.processes.lapseSeconds),
  );
  return { code, out };
}

describe('processes serving one database with local media', () => {
  it('says at start and in herald doctor when they keep it in separate folders', async () => {
    const a = join(root, 'api-1-media');
    const b = join(root, 'api-2-media');
    const first = await startProcess('api-1', a);
    expect(first.warnings()).toEqual([]);
    const second = await startProcess('api-2', b);

    const expected = `Media is stored in local folders that the processes serving this database do not share: api-1 (${a}), api-2 (${b}). A file uploaded through one process is missing for the others (404, and its posts fail to publish). Set MEDIA_STORAGE=s3 with one bucket for every process, or give them all one shared folder (MEDIA_DIR on a shared mount).`;
    expect(second.warnings()).toEqual([expected]);
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(out).toContain(`Processes serving the database:\n  PROBLEM  ${expected}`);
  });

  it('says nothing when the hosts share one folder, and doctor counts them', async () => {
    const shared = join(root, 'shared-media');
    await startProcess('api-1', shared);
    const worker = await startProcess('worker-1', shared, 'worker');
    expect(worker.warnings()).toEqual([]);
    const { code, out } = await doctor();
    expect(code).toBe(0);
    expect(out).toContain(
      `  ok       2 processes on 2 hosts serve this database, sharing one local media folder: api-1 (${shared}), worker-1 (${shared}).`,
    );
  });

  it('tells a folder copied to another host from one shared with it', async () => {
    const original = join(root, 'original-media');
    await startProcess('api-1', original);
    // The copy is made, then the original's process beats on while the copy's stays frozen.
    const copy = join(root, 'copied-media');
    cpSync(original, copy, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const second = await startProcess('api-2', copy);
    expect(second.warnings()).toEqual([
      expect.stringContaining(`api-1 (${original}), api-2 (${copy})`),
    ]);
  });

  it('removes its row when it stops', async () => {
    const { registry } = await startProcess('api-1', join(root, 'stop-media'));
    const ids = async () => (await database.db.select().from(heraldProcesses)).map((p) => p.id);
    expect(await ids()).toContain(registry.id);
    await registry.stop();
    expect(await ids()).not.toContain(registry.id);
  });
});
