import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditLog, posts, users } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

let t: TestApp;
let owner: Actor;
let orgId: string;
let other: { owner: Actor; orgId: string };
let xPlatformId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'keys.owner@example.com', 'Keyed Co'));
  other = await createOrg(t.app, 'keys.other@example.com', 'Other Keyed Co');
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const supported = await owner.call('GET', '/api/platforms/supported');
  xPlatformId = (supported.body.data.platforms as Array<{ id: string; name: string }>).find(
    (p) => p.name === 'X',
  )!.id;
}, 60_000);
afterAll(() => t.close());

type Answer = { status: number; body: any; headers: Record<string, unknown> };

/** A request made with an API key only (no cookie), as an integration makes it. */
async function withKey(
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  app = t.app,
): Promise<Answer> {
  const res = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
}

async function createKey(
  permissions: string[],
  extra: Record<string, unknown> = {},
  actor = owner,
  org = orgId,
) {
  const res = await actor.call('POST', `/api/organizations/${org}/api-keys`, {
    name: 'Zapier',
    permissions,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as { key: string; apiKey: { id: string; prefix: string } };
}

describe('creating API keys', () => {
  it('shows the key once and stores only its hash', async () => {
    const { key, apiKey } = await createKey(['post:create']);
    expect(key).toMatch(/^hrld_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(`${apiKey.prefix}_`)).toBe(true);
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key.slice(apiKey.prefix.length + 1));
    const listed = await owner.call('GET', `/api/organizations/${orgId}/api-keys`);
    expect(listed.status).toBe(200);
    const entry = listed.body.data.apiKeys.find((k: { id: string }) => k.id === apiKey.id);
    expect(entry).toMatchObject({
      name: 'Zapier',
      prefix: apiKey.prefix,
      permissions: ['post:create'],
      createdBy: { email: 'keys.owner@example.com' },
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it('refuses permissions beyond the creator’s own, with a sentence', async () => {
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Key Maker',
      permissionIds: ['org:manage', 'post:create'],
    });
    const { actor: maker } = await addMember(t.app, owner, orgId, 'key.maker@example.com', {
      roleId: role.body.data.role.id,
    });
    const res = await maker.call('POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Too much',
      permissions: ['post:create', 'post:delete'],
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'You cannot grant permissions you do not have yourself: post:delete.',
    );
    const fine = await maker.call('POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Just right',
      permissions: ['post:create'],
    });
    expect(fine.status).toBe(201);
  });

  it('refuses an expiry in the past and unknown permissions', async () => {
    const past = await owner.call('POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Old',
      permissions: ['post:create'],
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe('The expiry date must be in the future.');
    const unknown = await owner.call('POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Odd',
      permissions: ['post:fly'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Unknown permission: post:fly/);
  });

  it('records creation and revocation in the audit log', async () => {
    const { apiKey } = await createKey(['post:create']);
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/api-keys/${apiKey.id}`)).status,
    ).toBe(200);
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, apiKey.id));
    expect(entries.map((e) => e.action).sort()).toEqual(['api_key.create', 'api_key.revoke']);
    expect(entries.every((e) => e.actorEmail === 'keys.owner@example.com')).toBe(true);
  });
});

describe('Authorization: Bearer <key>', () => {
  it('works on a route its permissions allow and names the permission it lacks', async () => {
    const { key } = await createKey(['post:create']);
    const org = await withKey(key, 'GET', `/api/organizations/${orgId}`);
    expect(org.status).toBe(200);
    const list = await withKey(key, 'GET', `/api/organizations/${orgId}/posts`);
    expect(list.status).toBe(200);
    const refused = await withKey(key, 'GET', `/api/organizations/${orgId}/api-keys`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'This API key does not allow this: it needs the "Manage Organization" permission (org:manage).',
    );
  });

  it('creates a post as the key’s creator, noting the key, and honours Idempotency-Key', async () => {
    const { key, apiKey } = await createKey(['post:create']);
    const body = await multipart({
      platformIds: JSON.stringify([xPlatformId]),
      content: 'Made through the API',
      action: 'draft',
    });
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/organizations/${orgId}/post`,
        headers: {
          ...body.headers,
          authorization: `Bearer ${key}`,
          'idempotency-key': 'api-key-post-0001',
        },
        payload: body.payload,
      });
    const first = await post();
    expect(first.statusCode).toBe(201);
    const again = await post();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.post.id).toBe(first.json().data.post.id);
    const rows = await t.database.db
      .select()
      .from(posts)
      .where(eq(posts.content, 'Made through the API'));
    expect(rows).toHaveLength(1);
    // The key's Idempotency-Keys are its own: the creator's browser reusing one is a new request.
    const inBrowser = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL, 'idempotency-key': 'api-key-post-0001' },
      payload: body.payload,
    });
    expect(inBrowser.statusCode).toBe(201);
    expect(inBrowser.headers['idempotent-replayed']).toBeUndefined();
    expect(rows[0]!.createdByUserId).toBe(owner.userId);
    expect(rows[0]!.createdByApiKeyId).toBe(apiKey.id);
    const read = await withKey(key, 'GET', `/api/organizations/${orgId}/posts/${rows[0]!.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.post.content).toBe('Made through the API');
    const [used] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(used!.lastUsedAt).not.toBeNull();
  });

  it('answers 401 with a sentence for a wrong, expired or revoked key', async () => {
    const url = `/api/organizations/${orgId}`;
    const wrong = await withKey(`hrld_00000000_${'A'.repeat(43)}`, 'GET', url);
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toMatch(/This API key is not valid/);
    const garbled = await withKey('not-a-key', 'GET', url);
    expect(garbled.status).toBe(401);
    const empty = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer' } });
    expect(empty.statusCode).toBe(401);

    const expiring = await createKey(['post:create'], {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await withKey(expiring.key, 'GET', url)).status).toBe(200);
    await t.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expiring.apiKey.id));
    const expired = await withKey(expiring.key, 'GET', url);
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/This API key expired on/);

    const revoking = await createKey(['post:create']);
    await owner.call('DELETE', `/api/organizations/${orgId}/api-keys/${revoking.apiKey.id}`);
    const revoked = await withKey(revoking.key, 'GET', url);
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe(
      'This API key was revoked. Ask a manager of the organization for a new one.',
    );
  });

  it('is refused by every process as soon as it is revoked', async () => {
    const second = await createTestApp({}, { database: t.database });
    try {
      const { key, apiKey } = await createKey(['post:create']);
      const url = `/api/organizations/${orgId}/posts`;
      expect((await withKey(key, 'GET', url, undefined, {}, second.app)).status).toBe(200);
      const revoke = await owner.call(
        'DELETE',
        `/api/organizations/${orgId}/api-keys/${apiKey.id}`,
      );
      expect(revoke.status).toBe(200);
      const after = await withKey(key, 'GET', url, undefined, {}, second.app);
      expect(after.status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('never holds more than its creator holds now, and dies with their membership', async () => {
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Integrator',
      permissionIds: ['org:manage', 'post:create'],
    });
    const roleId = role.body.data.role.id as string;
    const { actor: integrator, memberId } = await addMember(
      t.app,
      owner,
      orgId,
      'key.integrator@example.com',
      { roleId },
    );
    const made = await integrator.call('POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Their key',
      permissions: ['org:manage', 'post:create'],
    });
    const key = made.body.data.key as string;
    const url = `/api/organizations/${orgId}/api-keys`;
    expect((await withKey(key, 'GET', url)).status).toBe(200);
    // Their role loses org:manage: so does their key, at the next request.
    await owner.call('PUT', `/api/organizations/${orgId}/roles/${roleId}`, {
      name: 'Integrator',
      permissionIds: ['post:create'],
    });
    expect((await withKey(key, 'GET', url)).status).toBe(403);
    expect((await withKey(key, 'GET', `/api/organizations/${orgId}/posts`)).status).toBe(200);
    // They leave the organization: the key stops working.
    await owner.call('DELETE', `/api/organizations/${orgId}/members/${memberId}`);
    const gone = await withKey(key, 'GET', `/api/organizations/${orgId}/posts`);
    expect(gone.status).toBe(401);
    expect(gone.body.message).toMatch(/no longer a member of this organization/);
  });

  it('acts for its own organization only', async () => {
    const { key } = await createKey(['post:create']);
    const res = await withKey(key, 'GET', `/api/organizations/${other.orgId}/posts`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'This API key belongs to another organization; it works only on its own.',
    );
    expect(JSON.stringify(res.body)).not.toContain('Other Keyed Co');
  });

  it('never reaches the back-office or the user’s own routes, even beside a session cookie', async () => {
    // The owner is made an operator: the key still must not carry that.
    const operator = (isAdmin: boolean) =>
      t.database.db.update(users).set({ isAdmin }).where(eq(users.id, owner.userId));
    await operator(true);
    try {
      const { key } = await createKey(['org:manage', 'post:create']);
      for (const [method, url] of [
        ['GET', '/api/admin/overview'],
        ['GET', '/api/auth/me'],
        ['PUT', `/api/users/${owner.userId}`],
      ] as const) {
        const res = await send(t.app, owner.jar, {
          method,
          url,
          headers: { authorization: `Bearer ${key}`, origin: TEST_PUBLIC_URL },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toMatch(
          /An API key works only on the routes of its organization/,
        );
      }
    } finally {
      await operator(false);
    }
  });

  it('cannot make or revoke keys, whatever its permissions', async () => {
    const { key, apiKey } = await createKey(['org:manage']);
    const made = await withKey(key, 'POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Child',
      permissions: ['org:manage'],
    });
    expect(made.status).toBe(403);
    expect(made.body.message).toMatch(/^API keys cannot do this: handing over the organization/);
    const revoked = await withKey(
      key,
      'DELETE',
      `/api/organizations/${orgId}/api-keys/${apiKey.id}`,
    );
    expect(revoked.status).toBe(403);
  });

  it('cannot hand over the organization or touch its plan and billing, whatever its permissions', async () => {
    const { key } = await createKey(['org:manage', 'subscription:manage', 'billing:edit']);
    const before = (await owner.call('GET', `/api/organizations/${orgId}`)).body.data.organization;
    const org = `/api/organizations/${orgId}`;
    const probes: Array<[string, string, unknown]> = [
      ['POST', `${org}/transfer-ownership`, { memberId: '00000000-0000-4000-8000-000000000000' }],
      ['POST', `${org}/subscription/cancel`, {}],
      ['POST', `${org}/subscription/subscribe`, { planId: '00000000-0000-4000-8000-000000000000' }],
      ['POST', `${org}/subscribe/trial`, {}],
      ['POST', `${org}/billing/portal`, {}],
      ['PUT', `${org}/billing/group`, { organizationIds: [] }],
    ];
    for (const [method, url, body] of probes) {
      const res = await withKey(key, method as 'POST' | 'PUT', url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.message).toBe(
        'API keys cannot do this: handing over the organization, its plan, its billing or its keys takes a person signed in to Herald.',
      );
    }
    const after = (await owner.call('GET', `/api/organizations/${orgId}`)).body.data.organization;
    expect(after.ownerUserId).toBe(before.ownerUserId);
    // The same key still does what keys may do.
    expect((await withKey(key, 'GET', `${org}/api-keys`)).status).toBe(200);
  });

  it('needs no origin check, and a bearer header never lends a cookie to a forged request', async () => {
    const { key } = await createKey(['org:manage', 'post:create']);
    const role = { name: 'From a script', permissionIds: ['post:create'] };
    // A key request from a server: no Origin, no browser headers.
    const made = await withKey(key, 'POST', `/api/organizations/${orgId}/roles`, role);
    expect(made.status).toBe(201);
    // Nor from another site's page (a key is never sent by a browser on its own).
    const fromTool = await withKey(
      key,
      'POST',
      `/api/organizations/${orgId}/roles`,
      { ...role, name: 'From a web tool' },
      { origin: 'https://tool.example' },
    );
    expect(fromTool.status).toBe(201);
    // A cross-site request riding on the session cookie with a made-up bearer value is answered
    // to the bearer alone (401), never to the cookie.
    const forged = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/roles`,
      headers: {
        origin: 'https://evil.example',
        authorization: 'Bearer hrld_00000000_forged',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ name: 'Forged', permissionIds: ['post:create'] }),
    });
    expect(forged.statusCode).toBe(401);
    // Without a bearer header, the cookie request from another site is refused as before.
    const crossSite = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/roles`,
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Forged', permissionIds: ['post:create'] }),
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('the per-key rate limit', () => {
  it('answers 429 with Retry-After past the allowance', async () => {
    const limited = await createTestApp({ RATE_LIMIT_API_KEY_PER_MINUTE: '3' });
    try {
      const org = await createOrg(limited.app, 'keys.limit@example.com', 'Limited Co');
      const created = await org.owner.call('POST', `/api/organizations/${org.orgId}/api-keys`, {
        name: 'Busy',
        permissions: ['post:create'],
      });
      const key = created.body.data.key as string;
      const url = `/api/organizations/${org.orgId}`;
      for (let i = 0; i < 3; i++)
        expect((await withKey(key, 'GET', url, undefined, {}, limited.app)).status).toBe(200);
      const refused = await withKey(key, 'GET', url, undefined, {}, limited.app);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/This API key has made too many requests/);
      // The person's own session is not counted against the key.
      expect((await org.owner.call('GET', url)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the API documentation', () => {
  it('describes the bearer scheme and marks organization routes with it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const create = doc.paths['/api/organizations/{orgId}/api-keys'].post;
    expect(create.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ session: [] }]);
  });
});
