import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';

/** Input that once reached PostgreSQL and came back as a 500 now gets a 400 with a sentence. */
let t: TestApp;
let owner: Actor;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'nul@bad-input.test', 'Bad Input Co'));
}, 60_000);
afterAll(() => t?.close());

const NUL = '\u0000';

/** A multipart post create with only text fields. */
async function createPost(fields: Record<string, string>) {
  const body = await multipart(fields);
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

function expectRefusal(res: { status: number; body: any }, message: RegExp) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED' });
  expect(res.body.message).toMatch(message);
}

describe('NUL characters', () => {
  it('are refused in JSON bodies, query strings and paths, and nothing is stored', async () => {
    expectRefusal(
      await owner.call('POST', '/api/organizations', { name: `Evil${NUL}Corp` }),
      /NUL character/,
    );
    expectRefusal(
      await owner.call('POST', `/api/organizations/${orgId}/roles`, {
        name: 'Role',
        description: `desc${NUL}`,
        permissionIds: [],
      }),
      /NUL character/,
    );
    expectRefusal(
      await owner.call('GET', `/api/organizations/${orgId}/posts?q=a%00b`),
      /NUL character/,
    );
    expectRefusal(
      await owner.call('GET', `/api/organizations/${orgId}/members?search=%00`),
      /NUL character/,
    );
    const roles = (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{
      name: string;
    }>;
    expect(roles.map((r) => r.name)).not.toContain('Role');
  });

  it('are refused in the fields of a multipart post', async () => {
    expectRefusal(await createPost({ platformIds: '[]', content: `hello${NUL}` }), /NUL character/);
  });
});

describe('dates out of range', () => {
  it('are refused with the range named', async () => {
    expectRefusal(
      await owner.call(
        'GET',
        `/api/organizations/${orgId}/posts?from=${encodeURIComponent('+275760-09-13T00:00:00.000Z')}`,
      ),
      /between the years 1000 and 9999/,
    );
    expectRefusal(
      await createPost({
        platformIds: '["00000000-0000-4000-8000-000000000000"]',
        content: 'later',
        scheduledAt: '+275760-09-13T00:00:00.000Z',
      }),
      /between the years 1000 and 9999/,
    );
  });
});

describe('caching', () => {
  it('marks signed-in JSON answers no-store', async () => {
    const res = await send(t.app, owner.jar, { method: 'GET', url: '/api/auth/me' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = await send(t.app, owner.jar, {
      method: 'GET',
      url: `/api/organizations/${orgId}/roles`,
    });
    expect(list.headers['cache-control']).toBe('no-store');
  });
});
