import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { integrations, platforms } from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';

/**
 * Access per account: a Content Creator limited to account A of the organization's accounts A
 * and B, beside an unlimited one. Every probe with B's ids is refused as another organization's
 * would be; the same call with A's goes through.
 */
let t: TestApp;
let orgId: string;
let owner: Actor;
let limited: Actor;
let unlimited: Actor;
let limitedId: string;
let adminMemberId: string;
let accountA: string;
let accountB: string;
let foreignAccount: string;

const membersUrl = () => `/api/organizations/${orgId}/members`;
const limit = (memberId: string, integrationIds: string[] | null, by = owner) =>
  by.call('PUT', `${membersUrl()}/${memberId}/accounts`, { integrationIds });

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrg(t.app, 'accounts.owner@example.com', 'Agency');
  ({ owner, orgId } = org);
  const [platform] = await t.database.db.select().from(platforms).limit(1);
  accountA = await seedConnectedAccount(t.database.db, orgId, platform!.id, 'acme');
  accountB = await seedConnectedAccount(t.database.db, orgId, platform!.id, 'globex');
  const creator = { roleId: org.roleId('ContentCreator') };
  const added = await addMember(t.app, owner, orgId, 'limited@example.com', creator);
  ({ actor: limited, memberId: limitedId } = added);
  unlimited = (await addMember(t.app, owner, orgId, 'unlimited@example.com', creator)).actor;
  adminMemberId = (
    await addMember(t.app, owner, orgId, 'second.admin@example.com', {
      roleId: org.roleId('Admin'),
    })
  ).memberId;
  const other = await createOrg(t.app, 'accounts.outsider@example.com', 'Elsewhere');
  foreignAccount = await seedConnectedAccount(t.database.db, other.orgId, platform!.id, 'initech');
  const res = await limit(limitedId, [accountA]);
  expect(res.status).toBe(200);
});
afterAll(() => t.close());

describe('limiting a member to some accounts', () => {
  it('shows each member’s accounts in the member list (null: all)', async () => {
    const res = await owner.call('GET', membersUrl());
    const byEmail = new Map<string, any>(res.body.data.members.map((m: any) => [m.email, m]));
    expect(byEmail.get('limited@example.com').accountIds).toEqual([accountA]);
    expect(byEmail.get('unlimited@example.com').accountIds).toBeNull();
  });

  it('refuses accounts of another organization, with a sentence', async () => {
    const res = await limit(limitedId, [accountA, foreignAccount]);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not connected to this organization/);
  });

  it('refuses to limit an Admin', async () => {
    const res = await limit(adminMemberId, [accountA]);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/An Admin always has access to every account/);
  });

  it('needs the permission that manages members', async () => {
    const res = await limit(limitedId, null, unlimited);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/Your role does not allow this/);
  });

  it('gives every account back with null, and limits again', async () => {
    const freed = await limit(limitedId, null);
    expect(freed.body.data.member.accountIds).toBeNull();
    const again = await limit(limitedId, [accountA]);
    expect(again.body.data.member.accountIds).toEqual([accountA]);
  });

  it('keeps a member limited to nothing when their only account is disconnected', async () => {
    const [platform] = await t.database.db.select().from(platforms).limit(1);
    const spare = await seedConnectedAccount(t.database.db, orgId, platform!.id, 'spare');
    const member = (
      await addMember(t.app, owner, orgId, 'spare.creator@example.com', {
        permissions: ['post:create'],
      })
    ).memberId;
    await limit(member, [spare]);
    await t.database.db.delete(integrations).where(eq(integrations.id, spare));
    const res = await owner.call('GET', membersUrl());
    const row = res.body.data.members.find((m: any) => m.id === member);
    expect(row.accountIds).toEqual([]);
  });
});

describe('connected accounts', () => {
  const listed = async (who: Actor) =>
    (await who.call('GET', `/api/organizations/${orgId}/integrations`)).body.data.platforms.map(
      (p: { id: string }) => p.id,
    );

  it('lists only the accounts a limited member reaches', async () => {
    expect(await listed(limited)).toEqual([accountA]);
    expect((await listed(unlimited)).sort()).toEqual([accountA, accountB].sort());
  });

  it('answers a TikTok read for another account as not connected', async () => {
    const res = await limited.call(
      'GET',
      `/api/organizations/${orgId}/integrations/${accountB}/tiktok/creator-info`,
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('This account is not connected to this organization.');
  });
});
