import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { DEFAULT_ROLES, PERMISSIONS } from '@herald/contract';
import { organizations } from '../../db/schema.js';
import {
  createTestApp,
  signInThroughDevProvider,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/app.js';
import { addMember, createOrg, signIn } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('organizations', () => {
  it('gives a new organization the four roles of docs/product.md#roles-and-permissions with exactly their permissions', async () => {
    const { roles } = await createOrg(t.app, 'founder@example.com', 'Founders Inc');
    const byName = Object.fromEntries(
      (
        roles as unknown as Array<{
          name: string;
          permissions: Array<{ name: string }>;
          isAdmin: boolean;
        }>
      ).map((r) => [r.name, r.permissions.map((p) => p.name).sort()]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'Admin',
      'ContentCreator',
      'CustomerSupport',
      'SocialMediaManager',
    ]);
    for (const [name, permissions] of Object.entries(DEFAULT_ROLES)) {
      expect(byName[name]).toEqual([...permissions].sort());
    }
    expect(byName.Admin).toHaveLength(16);
  });

  it('makes the creator an active Admin and their current organization', async () => {
    const { owner, orgId } = await createOrg(t.app, 'creator@example.com', 'Creator Co');
    const me = (await owner.call('GET', '/api/auth/me')).body.data;
    expect(me.member).toMatchObject({
      organizationId: orgId,
      organization: { name: 'Creator Co' },
      role: { name: 'Admin' },
      status: 'ACTIVE',
    });
    expect(me.member.permissions).toHaveLength(16);
    const again = await signInThroughDevProvider(t.app, 'creator@example.com');
    expect(again.location).toBe(`${TEST_PUBLIC_URL}/auth/login-success?orgId=${orgId}`);
  });

  it('lists the permissions as a bare array with the spec labels', async () => {
    const someone = await signIn(t.app, 'perm.reader@example.com');
    const res = await someone.call('GET', '/api/permissions');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(16);
    expect(res.body).toEqual(
      PERMISSIONS.map((p) => ({ id: p.name, name: p.name, description: p.label })),
    );
  });

  it('refuses a blank or whitespace name with the spec sentence and creates nothing', async () => {
    const someone = await signIn(t.app, 'blank@example.com');
    const before = (await t.database.db.select({ n: count() }).from(organizations))[0]!.n;
    for (const name of ['', '   ', undefined]) {
      const res = await someone.call(
        'POST',
        '/api/organizations',
        name === undefined ? {} : { name },
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Organization name cannot be empty.');
    }
    expect((await t.database.db.select({ n: count() }).from(organizations))[0]!.n).toBe(before);
  });

  it('lists my organizations and switches the current one, which sign-in then returns to', async () => {
    const { owner, orgId: first } = await createOrg(t.app, 'switcher@example.com', 'First');
    const second = (await owner.call('POST', '/api/organizations', { name: 'Second' })).body.data
      .organization.id;
    let list = (await owner.call('GET', '/api/member/organizations')).body.data.organizations;
    expect(list.map((o: { name: string }) => o.name)).toEqual(['First', 'Second']);
    expect(list.find((o: { isCurrent: boolean }) => o.isCurrent).id).toBe(second);

    expect(
      (await owner.call('POST', '/api/member/current-organization', { organizationId: first }))
        .status,
    ).toBe(200);
    list = (await owner.call('GET', '/api/member/organizations')).body.data.organizations;
    expect(list.find((o: { isCurrent: boolean }) => o.isCurrent).id).toBe(first);
    expect((await owner.call('GET', '/api/auth/me')).body.data.member.organizationId).toBe(first);
    const again = await signInThroughDevProvider(t.app, 'switcher@example.com');
    expect(again.location).toContain(`orgId=${first}`);
  });

  it('lets an org admin set and clear the default time zone that every member then reads', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'zone.owner@example.com', 'Zoned');
    const { actor: creator } = await addMember(t.app, owner, orgId, 'zone.creator@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const read = async () =>
      (await creator.call('GET', `/api/organizations/${orgId}`)).body.data.organization;
    expect((await read()).defaultTimeZone).toBeNull();

    const set = await owner.call('PATCH', `/api/organizations/${orgId}`, {
      defaultTimeZone: 'Pacific/Auckland',
    });
    expect(set.status).toBe(200);
    expect(set.body.data.organization).toMatchObject({
      id: orgId,
      defaultTimeZone: 'Pacific/Auckland',
    });
    expect((await read()).defaultTimeZone).toBe('Pacific/Auckland');
    const mine = (await creator.call('GET', '/api/member/organizations')).body.data.organizations;
    expect(mine[0]).toMatchObject({ id: orgId, defaultTimeZone: 'Pacific/Auckland' });

    const cleared = await owner.call('PATCH', `/api/organizations/${orgId}`, {
      defaultTimeZone: null,
    });
    expect(cleared.body.data.organization.defaultTimeZone).toBeNull();
  });

  it('refuses an unknown zone and a member without org:manage, changing nothing', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'zone.guard@example.com', 'Guarded');
    const { actor: creator } = await addMember(t.app, owner, orgId, 'zone.member@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const bad = await owner.call('PATCH', `/api/organizations/${orgId}`, {
      defaultTimeZone: 'Mars/Olympus',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Choose a time zone from the list');
    const forbidden = await creator.call('PATCH', `/api/organizations/${orgId}`, {
      defaultTimeZone: 'Europe/Paris',
    });
    expect(forbidden.status).toBe(403);
    const org = (await owner.call('GET', `/api/organizations/${orgId}`)).body.data.organization;
    expect(org.defaultTimeZone).toBeNull();
  });

  it('refuses switching to an organization one does not belong to', async () => {
    const { orgId } = await createOrg(t.app, 'private.owner@example.com', 'Private');
    const stranger = await signIn(t.app, 'stranger@example.com');
    const res = await stranger.call('POST', '/api/member/current-organization', {
      organizationId: orgId,
    });
    expect(res.status).toBe(403);
    expect((await stranger.call('GET', '/api/auth/me')).body.data.member).toBeNull();
  });
});
