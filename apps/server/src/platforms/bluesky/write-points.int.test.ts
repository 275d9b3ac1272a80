import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountWritePauses, accountWritePoints, integrations } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { createWritePoints } from '../../modules/publishing/write-points.js';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { emuInject, useHarness } from '../../test/network-tests.js';
import { testMedia } from '../../test/publish-media.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishRequest, StoredAccount } from '../types.js';
import { BLUESKY_WRITE_POINTS } from './limits.js';

/**
 * Bluesky's per-account write points (docs/networks.md#bluesky-limits): Herald counts them in the
 * database, holds back a write that would go over, and obeys the PDS's 429 and its reset time.
 */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 13).toString('base64') }),
);

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'bluesky', method, path, payload)).json();

const request = (text: string, media: PublishRequest['media'] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${text}`,
});

async function connect(email: string, identifier: string): Promise<StoredAccount> {
  const { owner, orgId } = await createOrg(t.app, email);
  const res = await owner.call(
    'POST',
    `/api/organizations/${orgId}/integrations/bluesky/app-password`,
    { identifier, appPassword: 'abcd-efgh-ijkl-mnop' },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return toStoredAccount(t.cipher, row!);
}

const postsOf = async (account: StoredAccount) =>
  (await emu('GET', `posts?did=${encodeURIComponent(account.externalId)}`)).posts as unknown[];

const HOUR = 3600_000;

describe('the write-point ledger', () => {
  it('takes points while both windows have room and says when the first write fits again', async () => {
    let now = new Date('2026-03-01T10:00:00Z');
    const ledger = createWritePoints(t.database.db, () => now);
    const windows = BLUESKY_WRITE_POINTS.windows;
    // 1,666 posts fill 4,998 of the hour's 5,000 points.
    await t.database.db.insert(accountWritePoints).values({
      network: 'bluesky',
      account: 'did:plc:ledger',
      points: 4_998,
      at: now,
    });
    now = new Date(now.getTime() + 10 * 60_000);
    expect(await ledger.room('bluesky', 'did:plc:ledger', 3, windows)).toEqual({
      ok: false,
      retryAt: new Date('2026-03-01T11:00:00Z'),
    });
    expect(await ledger.take('bluesky', 'did:plc:ledger', 1, windows)).toEqual({ ok: true });
    const over = await ledger.take('bluesky', 'did:plc:ledger', 3, windows);
    expect(over).toEqual({ ok: false, retryAt: new Date('2026-03-01T11:00:00Z') });
    // Another account's points are its own.
    expect(await ledger.take('bluesky', 'did:plc:other', 3, windows)).toEqual({ ok: true });

    // Once the big write has left the hour, there is room again.
    now = new Date('2026-03-01T11:00:01Z');
    expect(await ledger.take('bluesky', 'did:plc:ledger', 3, windows)).toEqual({ ok: true });

    // The day's 35,000 points hold across hours.
    for (let hour = 1; hour <= 6; hour++)
      await t.database.db.insert(accountWritePoints).values({
        network: 'bluesky',
        account: 'did:plc:day',
        points: 5_000,
        at: new Date(now.getTime() - hour * HOUR),
      });
    expect(await ledger.take('bluesky', 'did:plc:day', 3, windows)).toEqual({ ok: true });
    // 30,003 of 35,000: a 5,000-point hour would go over until the oldest hour leaves the day.
    const day = await ledger.take('bluesky', 'did:plc:day', 4_998, windows);
    expect(day).toEqual({ ok: false, retryAt: new Date(now.getTime() + 18 * HOUR) });
  });

  it('keeps a pause the network named until it ends, never shortening it', async () => {
    let now = new Date('2026-03-02T10:00:00Z');
    const ledger = createWritePoints(t.database.db, () => now);
    const windows = BLUESKY_WRITE_POINTS.windows;
    await ledger.pause('bluesky', 'did:plc:paused', new Date('2026-03-02T10:30:00Z'));
    await ledger.pause('bluesky', 'did:plc:paused', new Date('2026-03-02T10:05:00Z'));
    expect(await ledger.take('bluesky', 'did:plc:paused', 3, windows)).toEqual({
      ok: false,
      retryAt: new Date('2026-03-02T10:30:00Z'),
    });
    now = new Date('2026-03-02T10:30:01Z');
    expect(await ledger.take('bluesky', 'did:plc:paused', 3, windows)).toEqual({ ok: true });
  });
});

describe('Bluesky publishing within the write points', () => {
  it('counts each post and reply it writes, per DID, in the database', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    const ann = await connect('bsky.points.one@example.com', 'ann.bsky.sandbox');
    const post = await publishInOneGo(adapter.publishing!, ann, request('Counted'));
    await adapter.publishing!.followUp!(ann, {
      kind: 'part',
      postId: post.externalId,
      replyTo: post.externalId,
      text: 'and a second part',
    });
    const rows = await t.database.db
      .select()
      .from(accountWritePoints)
      .where(
        and(
          eq(accountWritePoints.network, 'bluesky'),
          eq(accountWritePoints.account, ann.externalId),
        ),
      );
    expect(rows.map((r) => r.points)).toEqual([3, 3]);
  });

  it('holds back a post that would go over, before any file is uploaded, with the time it fits', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    const bob = await connect('bsky.points.two@example.com', 'bob.bsky.sandbox');
    await t.database.db.insert(accountWritePoints).values({
      network: 'bluesky',
      account: bob.externalId,
      points: 4_998,
      at: new Date(Date.now() - 20 * 60_000),
    });
    const held = await publishInOneGo(
      adapter.publishing!,
      bob,
      request('Too many', [testMedia('image')]),
    ).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(PlatformError);
    expect((held as PlatformError).kind).toBe('rate_limited');
    expect((held as PlatformError).message).toMatch(
      /^This Bluesky account has used the writes Bluesky allows it for now/,
    );
    // About 40 minutes: when the old writes leave the hour.
    const wait = (held as PlatformError).details.retryAfterSeconds!;
    expect(wait).toBeGreaterThan(39 * 60);
    expect(wait).toBeLessThanOrEqual(40 * 60);
    expect(await postsOf(bob)).toEqual([]);
  });

  it('obeys the PDS’s 429 and its reset time in every process, sending nothing until then', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    const cat = await connect('bsky.points.three@example.com', 'cat.bsky.sandbox');
    // Another app spent the hour's points: Herald's own count did not see them.
    await emu('POST', 'spend-write-points', { did: cat.externalId, points: 4_999 });
    const tripped = await publishInOneGo(adapter.publishing!, cat, request('Tripped')).catch(
      (e: unknown) => e,
    );
    expect((tripped as PlatformError).kind).toBe('rate_limited');
    expect((tripped as PlatformError).details.retryAfterSeconds).toBeGreaterThan(3500);
    const [pause] = await t.database.db
      .select()
      .from(accountWritePauses)
      .where(eq(accountWritePauses.account, cat.externalId));
    expect(pause!.until.getTime()).toBeGreaterThan(Date.now() + 3500_000);

    // The next write waits for the reset without calling the PDS (which would count it).
    const spentBefore = (await emu('POST', 'spend-write-points', { did: cat.externalId })).spent;
    const waiting = await publishInOneGo(adapter.publishing!, cat, request('Waiting')).catch(
      (e: unknown) => e,
    );
    expect((waiting as PlatformError).kind).toBe('rate_limited');
    expect((waiting as PlatformError).details.retryAfterSeconds).toBeGreaterThan(3500);
    expect((await emu('POST', 'spend-write-points', { did: cat.externalId })).spent).toBe(
      spentBefore,
    );
    expect(await postsOf(cat)).toEqual([]);
  });
});
