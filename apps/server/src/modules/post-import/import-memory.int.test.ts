import { applicableTimeZone } from '@herald/contract';
import { sql } from 'drizzle-orm';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { createMediaStore } from '../../media/media-store.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { importCsv } from './import.service.js';

/**
 * A CSV import streams (docs/queue-and-import.md#csv-import): the rows are read,
 * checked and written a batch at a time, so the memory the import holds does not grow with the
 * file. Measured as live heap (after a forced collection) above
 * the level before it when each batch is written, for a file of 200 and one of 1,000 rows.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let t: TestApp;
let owner: Actor;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'owner@import-memory.test', 'Memory Co'));
  await t.database.db.execute(
    sql`update plans set features = jsonb_set(features, '{postsPerDay}', '100000')`,
  );
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A file of `count` drafts, each with a long text and title (what a row would keep alive). */
function csvOf(count: number, tag: string) {
  const lines = ['text,accounts,title,text:x'];
  for (let i = 0; i < count; i++) {
    const text = `"${tag} ${i}: ${'words, and more words '.repeat(11)}"`;
    const own = `"${tag} ${i} for X: ${'other words, other words '.repeat(9)}"`;
    lines.push(`${text},x,"${tag} title ${i} ${'t'.repeat(150)}",${own}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Imports a file through the service, measuring the live heap (after a forced collection) as
 * each batch's transaction begins: the most the import holds above the level before it, in MB.
 */
async function peakGrowth(csv: string) {
  const db = t.database.db;
  gc();
  const idle = process.memoryUsage().heapUsed;
  let peak = idle;
  const measured = new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver);
      return (...args: Parameters<Db['transaction']>) => {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
        return target.transaction(...args);
      };
    },
  });
  const result = await importCsv(
    {
      db: measured,
      media: createMediaStore(t.config, 'memory-test-signing-key'),
      lifecycle: { scheduled: async () => {}, unscheduled: async () => {} },
      now: () => new Date(),
      mediaImport: { maxBytes: 1024 * 1024, allowPrivate: [] },
    },
    { organizationId: orgId, userId: owner.userId, canApprove: true },
    csv,
    'draft',
    applicableTimeZone(null, null),
  );
  expect(result.refused).toEqual([]);
  return { growth: (peak - idle) / 1024 ** 2, imported: result.imported };
}

describe('CSV import memory', () => {
  it('stays flat: 1,000 rows hold about what 200 rows hold', async () => {
    // Warm-up: JIT, pools, prepared statements.
    await peakGrowth(csvOf(50, 'warm'));
    const small = await peakGrowth(csvOf(200, 'small'));
    const big = await peakGrowth(csvOf(1_000, 'big'));
    expect(small.imported).toBe(200);
    expect(big.imported).toBe(1_000);
    console.log(
      `import live heap: +${small.growth.toFixed(1)} MB at 200 rows, +${big.growth.toFixed(1)} MB at 1,000 rows`,
    );
    // Five times the rows: held memory must not follow (a batch is 100 rows either way).
    expect(big.growth).toBeLessThan(small.growth + 1);
  }, 180_000);
});
