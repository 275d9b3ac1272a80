import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrations, notifications } from '../db/schema.js';
import { createTestApp } from '../test/app.js';
import { createOrg } from '../test/factories.js';
import { emuInject, useHarness } from '../test/network-tests.js';
import { connectThroughSandbox } from '../test/networks.js';
import { sendExpiryNotices } from './tokens-expiry-notice.job.js';
import { refreshDueTokens } from './tokens-refresh.job.js';

const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') }),
);
const DAY = 24 * 60 * 60 * 1000;

/** A LinkedIn member connected through an app without refresh tokens (most apps). */
async function connectWithoutRefresh(email: string, member: string) {
  const { owner, orgId } = await createOrg(t.app, email, `${member} Co`);
  await emuInject(t, 'linkedin', 'POST', 'scenario', {
    account: member,
    knob: 'no_refresh_token',
    on: true,
  });
  const done = await connectThroughSandbox(t.app, owner, 'linkedin', orgId, {
    account: member,
    fields: { organizations: '' },
  });
  expect(done).toContain('connected=LinkedIn');
  const row = async () =>
    (
      await t.database.db.select().from(integrations).where(eq(integrations.organizationId, orgId))
    )[0]!;
  const connected = await row();
  expect(connected.refreshTokenEnc).toBeNull();
  return { owner, orgId, row, expiresAt: connected.accessTokenExpiresAt! };
}

const deps = () => ({ db: t.database.db, cipher: t.cipher, networks: t.networks, log: t.app.log });

describe('LinkedIn accounts without a refresh token', () => {
  it('keep publishing past 45 days, until the token really expires', async () => {
    const { owner, orgId, row, expiresAt } = await connectWithoutRefresh(
      'expiry.keep@example.com',
      'Keeping Member',
    );
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * DAY);
    // Day 46 (a quarter of the token's life left) and hours before the end, when a token with a
    // refresh token would be refreshed: nothing to refresh with, and nothing wrong.
    for (const at of [new Date(Date.now() + 46 * DAY), new Date(expiresAt.getTime() - DAY / 2)]) {
      expect(await refreshDueTokens(deps(), at)).toEqual({ refreshed: 0, failed: 0 });
      expect((await row()).status).toBe('CONNECTED');
    }

    // The Refresh action says why there is nothing to do, and leaves the account working.
    const refresh = await owner.call('GET', `/api/auth/linkedin/refresh?orgId=${orgId}`);
    expect(refresh.status).toBe(409);
    expect(refresh.body.message).toMatch(/keeps working until \d{4}-\d{2}-\d{2}/);
    expect((await row()).status).toBe('CONNECTED');

    // Past the real expiry: reconnecting is needed.
    const after = new Date(expiresAt.getTime() + 60_000);
    expect(await refreshDueTokens(deps(), after)).toEqual({ refreshed: 0, failed: 1 });
    expect((await row()).status).toBe('REFRESH_FAILED');
  });

  it('remind the admins 7 days and 1 day before expiry, once each', async () => {
    const { orgId, expiresAt } = await connectWithoutRefresh(
      'expiry.notice@example.com',
      'Reminded Member',
    );
    const at = (daysLeft: number) => new Date(expiresAt.getTime() - daysLeft * DAY);
    const reminders = () =>
      t.database.db
        .select()
        .from(notifications)
        .where(
          and(eq(notifications.organizationId, orgId), eq(notifications.type, 'PLATFORM_EXPIRING')),
        );
    const sentFor = async (now: Date) => {
      await sendExpiryNotices(t.database.db, t.networks, now);
      return (await reminders()).length;
    };
    expect(await sentFor(at(8))).toBe(0);
    expect(await sentFor(at(6.9))).toBe(1);
    expect(await sentFor(at(6))).toBe(1);
    expect(await sentFor(at(2))).toBe(1);
    expect(await sentFor(at(0.9))).toBe(2);
    expect(await sentFor(at(0.5))).toBe(2);
    const sent = await reminders();
    const weekBefore = sent.find((n) => n.priority === 'MEDIUM')!;
    const dayBefore = sent.find((n) => n.priority === 'HIGH')!;
    expect(weekBefore.message).toMatch(/Reminded Member stops working on \d{4}-\d{2}-\d{2}/);
    expect(weekBefore.message).toMatch(/Connect it again in Settings before then/);
    expect(dayBefore.message).toMatch(/Reminded Member stops working tomorrow/);
  });
});
