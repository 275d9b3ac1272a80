import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../test/app.js';
import { createOrg, signIn, type Actor } from '../test/factories.js';
import { multipart } from '../test/multipart.js';
import { connectThroughSandbox } from '../test/networks.js';

let t: TestApp;
let owner: Actor;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'retry@idempotency.test', 'Retry Co'));
}, 60_000);
afterAll(() => t?.close());

function postJson(actor: Actor, url: string, key: string, body: unknown) {
  return send(t.app, actor.jar, {
    method: 'POST',
    url,
    headers: {
      origin: TEST_PUBLIC_URL,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    payload: JSON.stringify(body),
  });
}

const createRole = (actor: Actor, key: string, body: unknown) =>
  postJson(actor, `/api/organizations/${orgId}/roles`, key, body);
const createOrganization = (actor: Actor, key: string, name: string) =>
  postJson(actor, '/api/organizations', key, { name });

async function roleNames() {
  const roles = (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{
    name: string;
  }>;
  return roles.map((r) => r.name);
}

describe('Idempotency-Key', () => {
  it('answers a retried create with the first answer and creates one record', async () => {
    const body = { name: 'Editor', permissionIds: ['post:edit'] };
    const first = await createRole(owner, 'key-0001-editor', body);
    expect(first.statusCode).toBe(201);
    const retry = await createRole(owner, 'key-0001-editor', body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await roleNames()).filter((n) => n === 'Editor')).toHaveLength(1);
  });

  it('frees the key of a request that failed, and keeps keys per person and per operation', async () => {
    const refused = await createRole(owner, 'key-0002-writer', { name: '', permissionIds: [] });
    expect(refused.statusCode).toBe(400);
    const fixed = await createRole(owner, 'key-0002-writer', {
      name: 'Writer',
      permissionIds: ['post:create'],
    });
    expect(fixed.statusCode).toBe(201);

    // The same key with other contents is refused, and the first answer stays the key's.
    const changed = await createRole(owner, 'key-0002-writer', {
      name: 'Rewriter',
      permissionIds: ['post:create'],
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().message).toMatch(/already used with a different body/);
    // The same body with its keys in another order is the same request.
    const reordered = await createRole(owner, 'key-0002-writer', {
      permissionIds: ['post:create'],
      name: 'Writer',
    });
    expect(reordered.statusCode).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect((await roleNames()).filter((n) => n === 'Rewriter')).toEqual([]);

    const elsewhere = await createOrganization(owner, 'key-0002-writer', 'Other Co');
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().message).toMatch(/already used for another request/);

    const stranger = await signIn(t.app, 'stranger@idempotency.test');
    const theirs = await createOrganization(stranger, 'key-0002-writer', 'Stranger Co');
    expect(theirs.statusCode).toBe(201);

    const bad = await createRole(owner, 'short', { name: 'Short', permissionIds: ['post:edit'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Idempotency-Key header/);
  });

  it('keeps a retried post upload to one post', async () => {
    await connectThroughSandbox(t.app, owner, 'x', orgId);
    const supported = await owner.call('GET', '/api/platforms/supported');
    const x = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
    const upload = async () => {
      const body = await multipart({
        platformIds: JSON.stringify([x]),
        content: 'Sent twice over a bad network',
        action: 'draft',
      });
      return send(t.app, owner.jar, {
        method: 'POST',
        url: `/api/organizations/${orgId}/post`,
        headers: { ...body.headers, origin: TEST_PUBLIC_URL, 'idempotency-key': 'post-key-0003' },
        payload: body.payload,
      });
    };
    const first = await upload();
    const second = await upload();
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().data.post.id).toBe(first.json().data.post.id);
    const list = await owner.call('GET', `/api/organizations/${orgId}/posts?q=twice`);
    expect(list.body.data.posts).toHaveLength(1);
  });
});
