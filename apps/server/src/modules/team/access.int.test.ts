import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORG_ROUTE_PERMISSIONS,
  PERMISSION_NAMES,
  PERMISSIONS,
  type OrgRoute,
  type RouteAccess,
} from '@herald/contract';
import { CookieJar, createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { platforms, posts, postTargets } from '../../db/schema.js';

let t: TestApp;
let orgId: string;
let orgName: string;
let owner: Actor;
let powerless: Actor;
let otherPowerless: Actor;
let probePermission: string;
let outsider: Actor;
/** API keys of the owner holding only `probePermission`, and only the other probe. */
let probeKey: string;
let otherProbeKey: string;
let ids: {
  roleId: string;
  memberId: string;
  spareRoleId: string;
  postId: string;
  targetId: string;
  platformId: string;
};

beforeAll(async () => {
  t = await createTestApp();
  orgName = 'Guarded Org';
  const org = await createOrg(t.app, 'guard.owner@example.com', orgName);
  ({ owner, orgId } = org);
  // Two members holding a single permission each, the two fewest routes need (found, not named:
  // a new route may come to need any given one); a route is probed with the one it does not need.
  const routesNeeding = (p: string) =>
    Object.values(ORG_ROUTE_PERMISSIONS).filter((r) => r.needs === p).length;
  const [probe, otherProbe] = [...PERMISSION_NAMES].sort(
    (a, b) => routesNeeding(a) - routesNeeding(b),
  );
  probePermission = probe!;
  const watcher = async (name: string, permission: string, email: string) => {
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name,
      permissionIds: [permission],
    });
    return (await addMember(t.app, owner, orgId, email, { roleId: role.body.data.role.id })).actor;
  };
  powerless = await watcher('Watcher', probe!, 'powerless@example.com');
  otherPowerless = await watcher('Other Watcher', otherProbe!, 'powerless.too@example.com');
  const spare = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
    name: 'Spare',
    permissionIds: ['post:create'],
  });
  const target = await addMember(t.app, owner, orgId, 'target@example.com', {
    roleId: org.roleId('ContentCreator'),
  });
  // A post to read, written straight to the database (the posts tests cover creating them).
  const [post] = await t.database.db
    .insert(posts)
    .values({ organizationId: orgId, status: 'draft', content: 'Guarded post' })
    .returning();
  const [platform] = await t.database.db.select().from(platforms).limit(1);
  const [postTarget] = await t.database.db
    .insert(postTargets)
    .values({ postId: post!.id, organizationId: orgId, platformId: platform!.id })
    .returning();
  ids = {
    roleId: spare.body.data.role.id,
    memberId: target.memberId,
    spareRoleId: spare.body.data.role.id,
    postId: post!.id,
    targetId: postTarget!.id,
    platformId: platform!.id,
  };
  outsider = (await createOrg(t.app, 'outsider@example.com', 'Elsewhere')).owner;
  const key = async (permission: string) =>
    (
      await owner.call('POST', `/api/organizations/${orgId}/api-keys`, {
        name: `Probe ${permission}`,
        permissions: [permission],
      })
    ).body.data.key as string;
  probeKey = await key(probe!);
  otherProbeKey = await key(otherProbe!);
});
afterAll(() => t.close());

/** A request for each row of the table, with a body that would otherwise be accepted. */
function requestFor(route: OrgRoute): {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  body?: unknown;
} {
  const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', string];
  let url = `/api${path
    .replace(':orgId', orgId)
    .replace(':roleId', ids.roleId)
    .replace(':memberId', ids.memberId)
    .replace(':platform', 'x')
    .replace(':pendingId', '00000000-0000-4000-8000-000000000000')
    .replace(':postId', ids.postId)
    .replace(':targetId', ids.targetId)
    .replace(':followUpId', '00000000-0000-4000-8000-000000000000')
    .replace(':linkId', '00000000-0000-4000-8000-000000000000')
    .replace(':platformId', ids.platformId)
    .replace(':commentId', 'probe-comment')
    .replace(':scheduleId', '00000000-0000-4000-8000-000000000000')
    .replace(':keyId', '00000000-0000-4000-8000-000000000000')
    .replace(':mediaId', '00000000-0000-4000-8000-000000000000')}`;
  // The two connect navigations name the organization in the query.
  if (path.startsWith('/auth/')) url += `?orgId=${orgId}`;
  // Ranges the calendar's empty slots, its evergreen projection and the CSV export are read for.
  const ranged: OrgRoute[] = [
    'GET /organizations/:orgId/queue/slots',
    'GET /organizations/:orgId/evergreen-collections/projection',
    'GET /organizations/:orgId/posts/export.csv',
  ];
  if (ranged.includes(route)) url += '?from=2026-01-01T00:00:00.000Z&to=2026-01-08T00:00:00.000Z';
  const bodies: Partial<Record<OrgRoute, unknown>> = {
    'POST /organizations/:orgId/roles': { name: 'Probe', permissionIds: ['post:create'] },
    'PUT /organizations/:orgId/roles/:roleId': { name: 'Spare', permissionIds: ['post:create'] },
    'PUT /organizations/:orgId/members/:memberId': { roleId: ids.spareRoleId },
    'PUT /organizations/:orgId/members/:memberId/accounts': { integrationIds: null },
    'POST /member/invite/:orgId': { email: 'probe@example.com' },
    'PUT /organizations/:orgId/posts/:postId': { content: 'Probe' },
    'POST /organizations/:orgId/posts/bulk/delete': { postIds: [ids.postId] },
    'POST /organizations/:orgId/posts/bulk/draft': { postIds: [ids.postId] },
    'POST /organizations/:orgId/posts/bulk/reschedule': { postIds: [ids.postId], shiftDays: 1 },
    'POST /organizations/:orgId/posts/bulk/queue': { postIds: [ids.postId] },
    'POST /organizations/:orgId/posts/bulk/approve': { postIds: [ids.postId] },
    'POST /organizations/:orgId/posts/bulk/reject': { postIds: [ids.postId], reason: 'Probe' },
    'POST /organizations/:orgId/posts/bulk/duplicate': { postIds: [ids.postId] },
    'POST /organizations/:orgId/approval-links': { postIds: [ids.postId] },
    'PATCH /organizations/:orgId/post/:postId/publish': { platforms: ['X'] },
    'POST /organizations/:orgId/posts/:postId/targets/:targetId/resolve': { outcome: 'retry' },
    'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/:followUpId/resolve': {
      outcome: 'retry',
    },
    'PUT /organizations/:orgId/analytics/settings': { xEnabled: false, xMonthlyReadBudget: 100 },
    'PUT /organizations/:orgId/branding': { color: '#1d4ed8' },
    'POST /organizations/:orgId/report-schedules': {
      name: 'Probe',
      cadence: 'weekly',
      recipients: ['probe@example.com'],
    },
    'PATCH /organizations/:orgId/report-schedules/:scheduleId': { name: 'Probe' },
    'PUT /organizations/:orgId/notification-preferences': {
      preferences: { INBOX: { inApp: true, email: false, digest: false } },
    },
    'POST /organizations/:orgId/subscribe/trial': {
      planId: '00000000-0000-4000-8000-000000000000',
    },
    'POST /organizations/:orgId/subscription/subscribe': {
      planId: '00000000-0000-4000-8000-000000000000',
    },
    'PUT /organizations/:orgId/billing/group': { organizationIds: [] },
    'POST /organizations/:orgId/transfer-ownership': { memberId: ids.memberId },
    'POST /organizations/:orgId/api-keys': { name: 'Probe', permissions: ['post:create'] },
  };
  return { method, url, body: bodies[route] };
}

const routes = Object.keys(ORG_ROUTE_PERMISSIONS) as OrgRoute[];
const NETWORK_READS = new Set<OrgRoute>([
  'GET /organizations/:orgId/posts/:postId/media/:platformId',
  'GET /organizations/:orgId/posts/:postId/media/:platformId/facebook',
  'GET /organizations/:orgId/posts/:postId/comments/:platformId',
  // A media library item the probe organization does not hold: found or not, never refused.
  'GET /organizations/:orgId/media/:mediaId',
]);

type Answer = { status: number; body: any; location?: string };
/** Browser navigations answer a refusal by redirecting to /settings with the sentence. */
const refusal = (res: Answer): string | null => {
  if (res.status === 403) return res.body.message;
  const error = res.location ? new URL(res.location).searchParams.get('connectError') : null;
  return res.status === 302 && error ? error : null;
};

describe('the permission table', () => {
  it('lists every organization-scoped route the server has, and nothing else', () => {
    expect([...t.orgRoutes].sort()).toEqual([...routes].sort());
  });

  for (const route of routes) {
    const needed = ORG_ROUTE_PERMISSIONS[route].needs;

    it(`${route}: 401 without a session`, async () => {
      const { method, url, body } = requestFor(route);
      const res = await send(t.app, new CookieJar(), {
        method,
        url,
        headers: { origin: TEST_PUBLIC_URL, 'content-type': 'application/json' },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      expect(res.statusCode).toBe(401);
    });

    it(`${route}: 401 with a wrong API key, whatever the cookie`, async () => {
      const { method, url, body } = requestFor(route);
      const res = await send(t.app, owner.jar, {
        method,
        url,
        headers: {
          authorization: `Bearer hrld_00000000_${'A'.repeat(43)}`,
          'content-type': 'application/json',
        },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      expect(res.statusCode).toBe(401);
    });

    it(`${route}: a member of another organization gets 403 and none of this one's data`, async () => {
      const { method, url, body } = requestFor(route);
      const res = await outsider.call(method, url, body);
      expect(refusal(res)).toBe('You are not a member of this organization.');
      const text = JSON.stringify(res);
      expect(text).not.toContain(orgName);
      expect(text).not.toContain('target@example.com');
    });

    if (needed === 'member') {
      it(`${route}: any active member may call it`, async () => {
        const { method, url, body } = requestFor(route);
        const res = await powerless.call(method, url, body);
        // Routes that read a network answer for the post's state there (not published: 400).
        if (NETWORK_READS.has(route)) {
          expect(refusal(res)).toBeNull();
          expect([401, 403]).not.toContain(res.status);
        } else {
          expect(res.status).toBe(200);
        }
      });
    } else {
      it(`${route}: a member without ${needed} gets 403 with a sentence`, async () => {
        const { method, url, body } = requestFor(route);
        const probe = needed === probePermission ? otherPowerless : powerless;
        const res = await probe.call(method, url, body);
        expect(refusal(res)).toMatch(/Your role does not allow this/);
      });

      const peopleOnly = (ORG_ROUTE_PERMISSIONS[route] as RouteAccess).peopleOnly === true;
      it(`${route}: an API key without ${needed} gets 403 ${peopleOnly ? 'saying keys never may' : 'naming it'}`, async () => {
        const { method, url, body } = requestFor(route);
        const key = needed === probePermission ? otherProbeKey : probeKey;
        const res = await t.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        const json = res.headers['content-type']?.toString().includes('json');
        const answer = {
          status: res.statusCode,
          body: json ? res.json() : null,
          location: res.headers.location as string | undefined,
        };
        // Browser navigations (connecting an account) redirect with the sentence instead.
        expect(refusal(answer)).toBe(
          peopleOnly
            ? 'API keys cannot do this: handing over the organization, its plan, its billing or its keys takes a person signed in to Herald.'
            : `This API key does not allow this: it needs the "${PERMISSIONS.find((p) => p.name === needed)!.label}" permission (${needed}).`,
        );
      });
    }
  }

  it('lets a member holding the permission through (the owner, who has all)', async () => {
    for (const route of routes.filter((r) => r.startsWith('GET'))) {
      const { method, url } = requestFor(route);
      const res = await owner.call(method, url);
      // Past the guard: the route itself answers (a redirect to the network, or 404 for no account).
      expect(refusal(res)).toBeNull();
      expect([401, 403]).not.toContain(res.status);
    }
  });

  it('refuses ids of another organization’s roles and members', async () => {
    const foreignRole = (await outsider.call('GET', '/api/member/organizations')).body.data
      .organizations[0].id;
    const outsiderRoles = (await outsider.call('GET', `/api/organizations/${foreignRole}/roles`))
      .body as Array<{ id: string; name: string }>;
    const foreignAdminRole = outsiderRoles.find((r) => r.name === 'Admin')!.id;
    const res = await owner.call('PUT', `/api/organizations/${orgId}/members/${ids.memberId}`, {
      roleId: foreignAdminRole,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Selected role is invalid');
    const del = await owner.call('DELETE', `/api/organizations/${orgId}/roles/${foreignAdminRole}`);
    expect(del.status).toBe(404);
    expect(
      (await outsider.call('GET', `/api/organizations/${foreignRole}/roles`)).body,
    ).toHaveLength(4);
  });
});
