import { expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { platforms } from '../../db/schema.js';
import { useMigratedPglite } from '../../test/database.js';
import { forgetTargetNames, nameTargets } from './target-names.js';

// The embedded database runs one statement at a time: a statement outside a transaction waits for
// the transaction to end. A post answered from inside a transaction (scheduling it, say)
// names its targets there, and must not wait for a read of the names that is waiting for it.
const database = useMigratedPglite();

it('names targets inside a transaction while a read outside it waits for the transaction', async () => {
  const { db } = database();
  const [platform] = await db.select({ id: platforms.id, name: platforms.name }).from(platforms);
  const organizationId = randomUUID();
  const lists = [[{ platformId: platform!.id, integrationId: null }]];
  forgetTargetNames();
  let outside: ReturnType<typeof nameTargets<(typeof lists)[0][0]>> | undefined;
  const inside = await db.transaction(async (tx) => {
    // Started outside: its read of the names queues behind this transaction.
    outside = nameTargets(db, organizationId, lists);
    const named = nameTargets(tx, organizationId, lists);
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('the transaction waited for a read outside it')),
        5000,
      );
    });
    try {
      return await Promise.race([named, stuck]);
    } finally {
      clearTimeout(timer);
    }
  });
  expect(inside[0]![0]!.platformName).toBe(platform!.name);
  expect((await outside!)[0]![0]!.platformName).toBe(platform!.name);
});
