import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_MODULES } from '../../platforms/catalog.js';
import { createTestApp, type TestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { addMember, createOrg, planId, signIn } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('producers', () => {
  it('tells the admins, and only them, about subscription changes', async () => {
    const { owner, orgId, roleId } = await createOrg(
      t.app,
      'notify.owner@example.com',
      'Notify Co',
      { trial: null },
    );
    const member = await addMember(t.app, owner, orgId, 'notify.member@example.com', {
      roleId: roleId('ContentCreator'),
    }).catch(() => null);
    // Inviting needs a plan; without one the member cannot be added yet.
    expect(member).toBeNull();
    await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
      planId: await planId(t.app, 'Basic'),
    });
    const list = (await owner.call('GET', `/api/notifications?organizationId=${orgId}`)).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      read: false,
      organizationId: orgId,
      message: 'Your 7-day free trial of Basic has started.',
    });

    const creator = await addMember(t.app, owner, orgId, 'notify.creator@example.com', {
      roleId: roleId('ContentCreator'),
    });
    await owner.call('POST', `/api/organizations/${orgId}/subscription/cancel`);
    expect(
      (await creator.actor.call('GET', `/api/notifications?organizationId=${orgId}`)).body,
    ).toEqual([]);
    const ownerTypes = (
      await owner.call('GET', `/api/notifications?organizationId=${orgId}`)
    ).body.map((n: { type: string }) => n.type);
    // Besides the two subscription changes, the owner heard that the creator joined.
    expect(ownerTypes.filter((type: string) => type === 'SUBSCRIPTION_UPDATE')).toEqual([
      'SUBSCRIPTION_UPDATE',
      'SUBSCRIPTION_UPDATE',
    ]);
    expect(ownerTypes).toHaveLength(3);
  });

  it('tells an invitee who already has an account about the invitation', async () => {
    const invitee = await signIn(t.app, 'notify.invitee@example.com');
    const { owner, orgId } = await createOrg(t.app, 'notify.inviter@example.com', 'Inviting Co');
    const { orgId: ownOrg } = {
      orgId: (await invitee.call('POST', '/api/organizations', { name: 'Invitee Own' })).body.data
        .organization.id,
    };
    await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'notify.invitee@example.com',
    });
    const list = (await invitee.call('GET', `/api/notifications?organizationId=${ownOrg}`)).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'ORGANIZATION_INVITE',
      priority: 'MEDIUM',
      organizationId: orgId,
    });
    expect(list[0].message).toContain('invited you to join Inviting Co.');
    // Nobody else hears of it.
    expect(
      (await owner.call('GET', `/api/notifications?organizationId=${orgId}`)).body.map(
        (n: { type: string }) => n.type,
      ),
    ).not.toContain('ORGANIZATION_INVITE');
  });
});

describe('reading notifications', () => {
  it('lists only the caller’s notifications of that organization, pages them, and refuses non-members', async () => {
    const a = await createOrg(t.app, 'reader.a@example.com', 'Reader A', { trial: 'Basic' });
    const b = await createOrg(t.app, 'reader.b@example.com', 'Reader B', { trial: 'Basic' });
    await a.owner.call('POST', `/api/organizations/${a.orgId}/subscription/cancel`);
    await a.owner.call('POST', `/api/organizations/${a.orgId}/subscription/subscribe`, {
      planId: await planId(t.app, 'Pro'),
    });
    const all = (await a.owner.call('GET', `/api/notifications?organizationId=${a.orgId}`)).body;
    expect(all).toHaveLength(3);
    expect(all.every((n: { organizationId: string }) => n.organizationId === a.orgId)).toBe(true);
    expect(new Date(all[0].createdAt).getTime()).toBeGreaterThanOrEqual(
      new Date(all[2].createdAt).getTime(),
    );

    const first = await a.owner.call('GET', `/api/notifications?organizationId=${a.orgId}&limit=2`);
    expect(first.body.data.notifications).toHaveLength(2);
    expect(first.body.meta).toMatchObject({ unreadCount: 3 });
    const second = await a.owner.call(
      'GET',
      `/api/notifications?organizationId=${a.orgId}&limit=2&cursor=${first.body.meta.nextCursor}`,
    );
    expect(second.body.data.notifications.map((n: { id: string }) => n.id)).toEqual([all[2].id]);
    expect(second.body.meta.nextCursor).toBeNull();

    expect((await b.owner.call('GET', `/api/notifications?organizationId=${a.orgId}`)).status).toBe(
      403,
    );
  });

  it('marks one read and unread, and all read, touching only the caller’s', async () => {
    const a = await createOrg(t.app, 'marker.a@example.com', 'Marker A', { trial: 'Basic' });
    const other = await createOrg(t.app, 'marker.b@example.com', 'Marker B', { trial: 'Basic' });
    const [n] = (await a.owner.call('GET', `/api/notifications?organizationId=${a.orgId}`)).body;
    expect(
      (await a.owner.call('PATCH', `/api/notifications/${n.id}/read`)).body.data.notification.read,
    ).toBe(true);
    expect(
      (await a.owner.call('PATCH', `/api/notifications/${n.id}/unread`)).body.data.notification
        .read,
    ).toBe(false);
    const foreign = await other.owner.call('PATCH', `/api/notifications/${n.id}/read`);
    expect(foreign.status).toBe(404);
    expect(
      (await a.owner.call('GET', `/api/notifications?organizationId=${a.orgId}`)).body[0].read,
    ).toBe(false);

    const res = await a.owner.call('PATCH', '/api/notifications/read-all', {
      organizationId: a.orgId,
    });
    expect(res.body.data.updated).toBe(1);
    expect(
      (await a.owner.call('GET', `/api/notifications?organizationId=${a.orgId}`)).body.every(
        (x: { read: boolean }) => x.read,
      ),
    ).toBe(true);
    expect(
      (
        await other.owner.call('GET', `/api/notifications?organizationId=${other.orgId}`)
      ).body.every((x: { read: boolean }) => !x.read),
    ).toBe(true);
  });
});

describe('live updates', () => {
  it('streams a new notification to the open page as Server-Sent Events', async () => {
    const own = await createTestApp();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { owner, orgId } = await createOrg(own.app, 'live@example.com', 'Live Co', {
        trial: null,
      });
      const port = (own.app.server.address() as { port: number }).port;
      const controller = new AbortController();
      const res = await fetch(
        `http://127.0.0.1:${port}/api/notifications/stream?organizationId=${orgId}`,
        {
          headers: { cookie: owner.jar.header() },
          signal: controller.signal,
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      const received = (async () => {
        let text = '';
        while (!text.includes('event: notification')) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
          if (
            text.includes('event: notification') &&
            text.includes('\n\n', text.indexOf('event: notification'))
          )
            break;
        }
        return text;
      })();
      await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
        planId: await planId(own.app, 'Basic'),
      });
      const text = await Promise.race([
        received,
        new Promise<string>((r) => setTimeout(() => r('timeout'), 5000)),
      ]);
      controller.abort();
      const data = /event: notification\ndata: (.+)\n/.exec(text)?.[1];
      expect(data).toBeDefined();
      expect(JSON.parse(data!)).toMatchObject({
        type: 'SUBSCRIPTION_UPDATE',
        organizationId: orgId,
        read: false,
      });
    } finally {
      await own.close();
    }
  });

  it('refuses the stream to a non-member', async () => {
    const { orgId } = await createOrg(t.app, 'live.private@example.com', 'Private Live');
    const stranger = await signIn(t.app, 'live.stranger@example.com');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/notifications/stream?organizationId=${orgId}`,
      headers: { cookie: stranger.jar.header(), origin: TEST_PUBLIC_URL },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('the dashboard', () => {
  it('reports the organization’s real figures', async () => {
    const { owner, orgId } = await createOrg(t.app, 'dash.owner@example.com', 'Dash Co', {
      trial: 'Basic',
    });
    await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'dash.invitee@example.com' });
    const res = await owner.call('GET', `/api/organizations/${orgId}/dashboard`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      organization: { id: orgId, name: 'Dash Co' },
      postCounts: { total: 0, upcoming: 0 },
      integrations: [],
      memberCount: 2,
      // Every network Herald speaks is active on a fresh database.
      supportedPlatformsCount: NETWORK_MODULES.length,
      subscription: { status: 'TRIALING', plan: { name: 'Basic' } },
      unreadNotifications: 1,
    });
    expect(res.body.data.plans.map((p: { name: string }) => p.name)).toContain('Basic');
    const stranger = await signIn(t.app, 'dash.stranger@example.com');
    expect((await stranger.call('GET', `/api/organizations/${orgId}/dashboard`)).status).toBe(403);
  });
});
