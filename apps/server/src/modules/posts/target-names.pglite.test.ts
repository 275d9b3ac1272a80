import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { openPglite, type Database } from '../../db/client.js';
import { platforms } from '../../db/schema.js';
import { forgetTargetNames, nameTargets } from './target-names.js';

// The embedded database runs one statement at a time: a statement outside a transaction waits for
// the transaction to end. A post answered from inside a transaction (scheduling it, issue 11)
// names its targets there, and must not wait for a read of the names that is waiting for it.
let database: Database;
beforeAll(async () => {
  database = await openPglite(null);
  await database.migrate();
});
afterAll(() => database.close());

it('names targets inside a transaction while a read outside it waits for the transaction', async () => {
  const { db } = database;
  const [platform] = await db.select({ id: platforms.id, name: platforms.name }).from(platforms);
  const organizationId = randomUUID();
  const lists = [
    [
      {
        id: randomUUID(),
        platformId: platform!.id,
        integrationId: null,
        accountName: null,
        createdAt: new Date().toISOString(),
      },
    ],
  ];
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

it('sorts targets by network, then account name (the database’s C order, nulls last), creation and id', async () => {
  const { db } = database;
  const [first, second] = await db
    .select({ id: platforms.id, name: platforms.name })
    .from(platforms)
    .orderBy(asc(platforms.name))
    .limit(2);
  const at = '2026-11-28T08:00:00.5+00:00';
  const earlier = '2026-11-28T08:59:59.25+01:00'; // 07:59:59.25 UTC: earlier, though it reads later
  const target = (n: number, platformId: string, accountName: string | null, createdAt = at) => ({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    platformId,
    integrationId: null,
    accountName,
    createdAt,
  });
  const named = await nameTargets(db, randomUUID(), [
    [
      target(3, second!.id, 'a'),
      target(9, first!.id, null),
      target(8, first!.id, 'b'),
      target(7, first!.id, 'B'),
      target(6, first!.id, 'b', earlier),
      target(2, first!.id, 'b'),
    ],
  ]);
  expect(named[0]!.map((t) => `${t.platformName}:${t.accountName}:${t.id.slice(-1)}`)).toEqual([
    `${first!.name}:B:7`,
    `${first!.name}:b:6`,
    `${first!.name}:b:2`,
    `${first!.name}:b:8`,
    `${first!.name}:null:9`,
    `${second!.name}:a:3`,
  ]);
});
