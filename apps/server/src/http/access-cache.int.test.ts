import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, members } from '../db/schema.js';
import { AUTH_CACHE_TTL_MS } from '../identity/session.service.js';
import { MEMBERSHIP_CACHE_TTL_MS } from '../modules/team/membership.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { addMember, createOrg, signIn, type Actor } from '../test/factories.js';

// Sessions and memberships are cached for a moment; these tests hold the promise that
// goes with it: a change made through this process counts from the next request on, and one
// made elsewhere (another API process, straight in the database) within the cache's lifetime.
let t: TestApp;
let orgId: string;
let owner: Actor;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const postsOf = (actor: Actor) => actor.call('GET', `/api/organizations/${orgId}/posts`);

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'cache.owner@example.com', 'Cached Org'));
});

afterAll(async () => {
  await t?.close();
});

describe('cached access', () => {
  it('a removed member loses access with the very next request', async () => {
    const { actor, memberId } = await addMember(t.app, owner, orgId, 'removed@example.com');
    // Read twice: the second answer comes from the cache.
    expect((await postsOf(actor)).status).toBe(200);
    expect((await postsOf(actor)).status).toBe(200);
    const removed = await owner.call('DELETE', `/api/organizations/${orgId}/members/${memberId}`);
    expect(removed.status).toBe(200);
    expect((await postsOf(actor)).status).toBe(403);
    expect((await actor.call('GET', '/api/auth/me')).body.data.member).toBeNull();
  });

  it('a narrowed role counts with the very next request', async () => {
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Connector',
      permissionIds: ['account:connect'],
    });
    const roleId = role.body.data.role.id as string;
    const { actor } = await addMember(t.app, owner, orgId, 'narrowed@example.com', { roleId });
    // A route that needs account:connect: allowed, it looks and finds nothing (404).
    const pending = `/api/organizations/${orgId}/integrations/pending/${randomUUID()}`;
    expect((await actor.call('GET', pending)).status).toBe(404);
    expect((await actor.call('GET', pending)).status).toBe(404);
    const edited = await owner.call('PUT', `/api/organizations/${orgId}/roles/${roleId}`, {
      name: 'Connector',
      permissionIds: ['analytics:export'],
    });
    expect(edited.status).toBe(200);
    expect((await actor.call('GET', pending)).status).toBe(403);
  });

  it('a logged-out access token stops working with the very next request', async () => {
    const person = await signIn(t.app, 'leaving@example.com');
    expect((await person.call('GET', '/api/auth/me')).status).toBe(200);
    expect((await person.call('GET', '/api/auth/me')).status).toBe(200);
    // The browser forgets its cookies on logout; a copy of the access token must not work either.
    const accessToken = person.jar.get('herald_at');
    expect(accessToken).toBeTruthy();
    expect((await person.call('POST', '/api/auth/logout')).status).toBe(200);
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      cookies: { herald_at: accessToken! },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('a change made outside this process counts within the cache lifetime', async () => {
    const { actor, memberId } = await addMember(t.app, owner, orgId, 'elsewhere@example.com');
    expect((await postsOf(actor)).status).toBe(200);
    // As another API process (or an operator in psql) would: no request of this process.
    await t.database.db.delete(members).where(eq(members.id, memberId));
    await sleep(MEMBERSHIP_CACHE_TTL_MS + 50);
    expect((await postsOf(actor)).status).toBe(403);

    expect((await actor.call('GET', '/api/auth/me')).status).toBe(200);
    await t.database.db
      .update(authSessions)
      .set({ revokedAt: new Date(), revokedReason: 'logout' })
      .where(eq(authSessions.userId, actor.userId));
    await sleep(AUTH_CACHE_TTL_MS + 50);
    expect((await actor.call('GET', '/api/auth/me')).status).toBe(401);
  });
});
