import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import {
  inboxConversations,
  integrations,
  notifications,
  platforms,
  posts as postsTable,
  postTargets,
} from '../../db/schema.js';
import {
  announceInbox,
  insertNotificationsFor,
} from '../notifications/notifications.repository.js';
import { listeningUrl, openStream } from '../../test/event-stream.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';

/**
 * Access per account: a client manager limited to account A of the organization's accounts A
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
let xPlatformId: string;

const membersUrl = () => `/api/organizations/${orgId}/members`;
const limit = (memberId: string, integrationIds: string[] | null, by = owner) =>
  by.call('PUT', `${membersUrl()}/${memberId}/accounts`, { integrationIds });

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrg(t.app, 'accounts.owner@example.com', 'Agency');
  ({ owner, orgId } = org);
  const [platform] = await t.database.db.select().from(platforms).where(eq(platforms.name, 'X'));
  xPlatformId = platform!.id;
  accountA = await seedConnectedAccount(t.database.db, orgId, platform!.id, 'acme');
  accountB = await seedConnectedAccount(t.database.db, orgId, platform!.id, 'globex');
  for (const [id, username] of [
    [accountA, 'acme'],
    [accountB, 'globex'],
  ] as const)
    await t.database.db.update(integrations).set({ username }).where(eq(integrations.id, id));
  // A client manager: posts and their approval, inbox and analytics, as an agency gives someone per client.
  const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
    name: 'Client Manager',
    permissionIds: [
      'post:create',
      'post:edit',
      'post:delete',
      'post:approve',
      'dm:view',
      'dm:send',
      'analytics:view',
      'analytics:export',
    ],
  });
  const creator = { roleId: role.body.data.role.id as string };
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

  it('lists only the accounts a limited member reaches, and tells them which', async () => {
    expect(await listed(limited)).toEqual([accountA]);
    expect((await limited.call('GET', '/api/auth/me')).body.data.member.accountIds).toEqual([
      accountA,
    ]);
    expect((await unlimited.call('GET', '/api/auth/me')).body.data.member.accountIds).toBeNull();
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

  it('gives a limited member the account they connect, and no one else’s', async () => {
    // An organization of its own: the account connected here must not show in the others' figures.
    const studio = await createOrg(t.app, 'studio.owner@example.com', 'Studio');
    const mine = await seedConnectedAccount(t.database.db, studio.orgId, xPlatformId, 'studio');
    const role = await studio.owner.call('POST', `/api/organizations/${studio.orgId}/roles`, {
      name: 'Account Connector',
      permissionIds: ['account:connect', 'post:create'],
    });
    const member = (email: string) =>
      addMember(t.app, studio.owner, studio.orgId, email, { roleId: role.body.data.role.id });
    const connector = await member('connector@example.com');
    const bystander = await member('bystander@example.com');
    for (const m of [connector, bystander]) {
      const res = await studio.owner.call(
        'PUT',
        `/api/organizations/${studio.orgId}/members/${m.memberId}/accounts`,
        { integrationIds: [mine] },
      );
      expect(res.status).toBe(200);
    }
    const done = await connectThroughSandbox(t.app, connector.actor, 'x', studio.orgId, {
      account: 'connector_brand',
    });
    expect(new URL(done).searchParams.get('connected')).toBe('X');
    const [row] = await t.database.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(
        and(
          eq(integrations.organizationId, studio.orgId),
          eq(integrations.username, 'connector_brand'),
        ),
      );
    const reach = async (who: Actor) =>
      (await who.call('GET', `/api/organizations/${studio.orgId}/integrations`)).body.data.platforms
        .map((p: { id: string }) => p.id)
        .sort();
    expect(await reach(connector.actor)).toEqual([mine, row!.id].sort());
    expect(await reach(bystander.actor)).toEqual([mine]);
  });
});

const postsUrl = () => `/api/organizations/${orgId}/posts`;
async function submit(
  actor: Actor,
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
) {
  const body = await multipart(fields, []);
  const res = await send(t.app, actor.jar, {
    method,
    url,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
const draftTo = async (accounts: string[], content: string, actor = owner) => {
  const res = await submit(actor, 'POST', `/api/organizations/${orgId}/post`, {
    integrationIds: JSON.stringify(accounts),
    content,
  });
  expect(res.status).toBe(201);
  return res.body.data.post.id as string;
};

describe('posts', () => {
  let onA: string;
  let onB: string;
  let onBoth: string;
  beforeAll(async () => {
    onA = await draftTo([accountA], 'For Acme');
    onB = await draftTo([accountB], 'For Globex');
    onBoth = await draftTo([accountA, accountB], 'For both');
  });

  it('creates a post on an account the member reaches', async () => {
    const id = await draftTo([accountA], 'Mine', limited);
    const res = await limited.call('GET', `${postsUrl()}/${id}`);
    expect(res.body.data.post.accounts.map((a: { id: string }) => a.id)).toEqual([accountA]);
  });

  it('refuses a post naming another account, naming it', async () => {
    for (const accounts of [[accountB], [accountA, accountB]]) {
      const res = await submit(limited, 'POST', `/api/organizations/${orgId}/post`, {
        integrationIds: JSON.stringify(accounts),
        content: 'Not mine',
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("You don't have access to @globex on X. Ask an Admin.");
    }
  });

  it('takes a network named by its id to mean the member’s own account on it', async () => {
    const res = await submit(limited, 'POST', `/api/organizations/${orgId}/post`, {
      platformIds: JSON.stringify([xPlatformId]),
      content: 'By network',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.post.accounts.map((a: { id: string }) => a.id)).toEqual([accountA]);
  });

  it('lists only posts with an account the member reaches, showing only those accounts', async () => {
    const res = await limited.call('GET', `${postsUrl()}?pageSize=100`);
    const listed = new Map<string, any>(res.body.data.posts.map((p: any) => [p.id, p]));
    expect(listed.has(onA)).toBe(true);
    expect(listed.has(onB)).toBe(false);
    expect(listed.get(onBoth).accounts.map((a: { id: string }) => a.id)).toEqual([accountA]);
    expect(JSON.stringify(res.body)).not.toContain('globex');
    const all = await unlimited.call('GET', `${postsUrl()}?pageSize=100`);
    expect(all.body.data.posts.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining([onA, onB, onBoth]),
    );
  });

  it('answers another account’s post as not found, on every post route', async () => {
    const probes: Array<[string, string, unknown?]> = [
      ['GET', `${postsUrl()}/${onB}`],
      ['PUT', `${postsUrl()}/${onB}`, { content: 'Changed' }],
      ['DELETE', `${postsUrl()}/${onB}`],
      ['POST', `${postsUrl()}/${onB}/queue`],
      ['POST', `${postsUrl()}/${onB}/duplicate`],
      ['GET', `${postsUrl()}/${onB}/internal-comments`],
      ['POST', `${postsUrl()}/bulk/delete`, { postIds: [onA, onB] }],
      ['POST', `${postsUrl()}/bulk/draft`, { postIds: [onB] }],
      ['POST', `${postsUrl()}/bulk/duplicate`, { postIds: [onB] }],
      ['POST', `${postsUrl()}/bulk/reschedule`, { postIds: [onB], shiftDays: 1 }],
      ['POST', `${postsUrl()}/bulk/approve`, { postIds: [onB] }],
      ['PATCH', `/api/organizations/${orgId}/post/${onB}/publish`, { platforms: ['X'] }],
      ['POST', `/api/organizations/${orgId}/approval-links`, { postIds: [onB] }],
      ['GET', `${postsUrl()}/${onB}/approvals`],
    ];
    for (const [method, url, body] of probes) {
      const res = await limited.call(method as 'GET', url, body);
      expect([method, url, res.status]).toEqual([method, url, 404]);
      expect(res.body.message).toBe('This post does not exist in this organization.');
    }
    expect((await owner.call('GET', `${postsUrl()}/${onB}`)).status).toBe(200);
  });

  it('shows a post shared with another account but lets the member change none of it', async () => {
    const read = await limited.call('GET', `${postsUrl()}/${onBoth}`);
    expect(read.status).toBe(200);
    expect(read.body.data.post.platformPosts.map((p: any) => p.integrationId)).toEqual([accountA]);
    const refusals = [
      await limited.call('PUT', `${postsUrl()}/${onBoth}`, { content: 'Changed' }),
      await limited.call('DELETE', `${postsUrl()}/${onBoth}`),
      await limited.call('POST', `${postsUrl()}/bulk/delete`, { postIds: [onBoth] }),
      await limited.call('PATCH', `/api/organizations/${orgId}/post/${onBoth}/publish`, {
        platforms: ['X'],
      }),
      await limited.call('POST', `${postsUrl()}/${onBoth}/queue`),
      await submit(limited, 'PUT', `/api/organizations/${orgId}/post/${onBoth}`, {
        integrationIds: JSON.stringify([accountA]),
        content: 'Only mine now',
      }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("You don't have access to @globex on X. Ask an Admin.");
    }
  });

  it('lets the member edit and delete a post of their own accounts, but not add another', async () => {
    const edited = await limited.call('PUT', `${postsUrl()}/${onA}`, { content: 'Edited' });
    expect(edited.status).toBe(200);
    const widened = await submit(limited, 'PUT', `/api/organizations/${orgId}/post/${onA}`, {
      integrationIds: JSON.stringify([accountA, accountB]),
      content: 'Both',
    });
    expect(widened.status).toBe(403);
    expect(widened.body.message).toBe("You don't have access to @globex on X. Ask an Admin.");
    const mine = await draftTo([accountA], 'To delete', limited);
    expect((await limited.call('DELETE', `${postsUrl()}/${mine}`)).status).toBe(200);
  });
});

describe('post lists beside the library', () => {
  let onB: string;
  let onBoth: string;
  beforeAll(async () => {
    onB = await draftTo([accountB], 'Globex only, exported');
    onBoth = await draftTo([accountA, accountB], 'Both, exported');
  });

  it('exports only the posts and accounts the member reaches', async () => {
    const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;
    const mine = await send(t.app, limited.jar, {
      method: 'GET',
      url: `${postsUrl()}/export.csv?${range}`,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.body).not.toContain(onB);
    expect(mine.body).toContain(onBoth);
    expect(mine.body).toContain('@acme');
    expect(mine.body).not.toContain('@globex');
    const all = await send(t.app, unlimited.jar, {
      method: 'GET',
      url: `${postsUrl()}/export.csv?${range}`,
    });
    expect(all.body).toContain(onB);
    expect(all.body).toContain('@globex');
  });

  it('refuses an import row naming another account, with the row’s reason', async () => {
    const csv = ['text,accounts', 'Mine,x:@acme', 'Theirs,x:@globex', 'By network,x'].join('\n');
    const res = await limited.call('POST', `${postsUrl()}/import/dry-run`, { csv, mode: 'draft' });
    expect(res.status).toBe(200);
    const rows = res.body.data.rows as Array<{ ok: boolean; messages: string[] }>;
    expect(rows.map((r) => r.ok)).toEqual([true, false, true]);
    expect(rows[1]!.messages).toEqual([
      "accounts: you don't have access to @globex on X. Ask an Admin.",
    ]);
    const owners = await owner.call('POST', `${postsUrl()}/import/dry-run`, { csv, mode: 'draft' });
    // Two accounts on X: the owner must name one.
    expect(owners.body.data.rows.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
  });

  it('shows only waiting posts of the member’s accounts in the approval queue', async () => {
    await t.database.db
      .update(postsTable)
      .set({ status: 'pending_approval' })
      .where(inArray(postsTable.id, [onB, onBoth]));
    const res = await limited.call('GET', `/api/organizations/${orgId}/approvals`);
    expect(res.status).toBe(200);
    expect(res.body.data.posts.map((p: { id: string }) => p.id)).toEqual([onBoth]);
    expect(res.body.data.count).toBe(1);
    expect(JSON.stringify(res.body)).not.toContain('globex');
    const all = await owner.call('GET', `/api/organizations/${orgId}/approvals`);
    expect(all.body.data.count).toBe(2);
    expect(
      (await limited.call('POST', `/api/organizations/${orgId}/approvals/${onB}/approve`, {}))
        .status,
    ).toBe(404);
  });
});

describe('queue and dashboard', () => {
  it('shows only the member’s accounts in the queue and refuses another’s next slot', async () => {
    const queue = await limited.call('GET', `/api/organizations/${orgId}/queue`);
    expect(queue.status).toBe(200);
    expect(queue.body.data.accounts.map((a: { integrationId: string }) => a.integrationId)).toEqual(
      [accountA],
    );
    const next = await limited.call(
      'GET',
      `/api/organizations/${orgId}/queue/next?integrationIds=${accountB}`,
    );
    expect(next.status).toBe(404);
    expect(next.body.message).toBe(
      'One of the chosen accounts is not connected to this organization.',
    );
  });

  it('counts and shows only the member’s accounts and posts on the dashboard', async () => {
    const mine = await limited.call('GET', `/api/organizations/${orgId}/dashboard`);
    const all = await owner.call('GET', `/api/organizations/${orgId}/dashboard`);
    expect(mine.body.data.integrations.map((i: { id: string }) => i.id)).toEqual([accountA]);
    expect(mine.body.data.postCounts.total).toBeLessThan(all.body.data.postCounts.total);
    expect(JSON.stringify(mine.body)).not.toContain('globex');
  });
});

describe('inbox', () => {
  let convA: string;
  let convB: string;
  const inboxUrl = () => `/api/organizations/${orgId}/inbox`;
  beforeAll(async () => {
    const conversation = (integrationId: string, title: string) => ({
      organizationId: orgId,
      integrationId,
      platform: 'X',
      kind: 'dm' as const,
      threadExternalId: title,
      title,
      lastMessageAt: new Date(),
      unread: true,
    });
    const rows = await t.database.db
      .insert(inboxConversations)
      .values([conversation(accountA, 'Acme customer'), conversation(accountB, 'Globex customer')])
      .returning({ id: inboxConversations.id });
    [convA, convB] = rows.map((r) => r.id) as [string, string];
  });

  it('lists, counts and describes only the member’s accounts', async () => {
    const list = await limited.call('GET', `${inboxUrl()}/conversations`);
    expect(list.status).toBe(200);
    expect(list.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([convA]);
    const summary = await limited.call('GET', `${inboxUrl()}/summary`);
    expect(summary.body.data.unreadCount).toBe(1);
    expect(
      summary.body.data.accounts.map((a: { integrationId: string }) => a.integrationId),
    ).toEqual([accountA]);
    const all = await unlimited.call('GET', `${inboxUrl()}/conversations`);
    expect(all.body.data.conversations.map((c: { id: string }) => c.id).sort()).toEqual(
      [convA, convB].sort(),
    );
  });

  it('answers another account’s conversation as not found, on every conversation route', async () => {
    const c = `${inboxUrl()}/conversations/${convB}`;
    const probes: Array<[string, string, unknown?]> = [
      ['GET', c],
      ['PATCH', c, { status: 'done' }],
      ['DELETE', c],
      ['POST', `${c}/messages`, { text: 'Hello', clientKey: 'probe-key-1' }],
      ['POST', `${c}/notes`, { text: 'A note' }],
      ['POST', `${c}/typing`, { typing: true }],
      ['POST', `${c}/block`, {}],
    ];
    for (const [method, url, body] of probes) {
      const res = await limited.call(method as 'GET', url, body);
      expect([method, url, res.status]).toEqual([method, url, 404]);
      expect(res.body.message).toBe('This conversation does not exist in this organization.');
    }
    expect((await limited.call('GET', `${inboxUrl()}/conversations/${convA}`)).status).toBe(200);
  });

  it('streams the member only the events of their accounts’ conversations', async () => {
    const stream = await openStream(await listeningUrl(t.app), limited.jar.header(), orgId);
    expect(stream.status).toBe(200);
    const change = (conversationId: string) =>
      announceInbox(t.database.db, {
        event: 'inbox',
        data: { organizationId: orgId, conversationId, change: 'message' },
      });
    await change(convB);
    await change(convA);
    // Events go out in order: once A's is here, B's would have been too.
    await stream.next((e) => e.event === 'inbox' && e.data.includes(convA));
    expect(stream.events.filter((e) => e.data.includes(convB))).toEqual([]);
    stream.abort();
  });
});

describe('comments on posts', () => {
  let shared: string;
  beforeAll(async () => {
    // Out on Globex only so far: what a member of Acme may not read.
    shared = await draftTo([accountA, accountB], 'Out on Globex');
    await t.database.db
      .update(postsTable)
      .set({ status: 'partially_published' })
      .where(eq(postsTable.id, shared));
    await t.database.db
      .update(postTargets)
      .set({ status: 'PUBLISHED', externalId: 'globex-post' })
      .where(and(eq(postTargets.postId, shared), eq(postTargets.integrationId, accountB)));
  });

  it('reads no comments, embed or permalink of another account’s target', async () => {
    const base = `${postsUrl()}/${shared}`;
    const comments = await limited.call(
      'GET',
      `${base}/comments/${xPlatformId}?integrationId=${accountB}`,
    );
    expect(comments.status).toBe(404);
    expect(comments.body.message).toBe('This post does not go out from that account.');
    // The embed is of the member's own target, not yet out; the owner's is Globex's.
    const own = await limited.call('GET', `${base}/media/${xPlatformId}`);
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('This post is not published on X yet.');
    expect(JSON.stringify(own.body)).not.toContain('globex-post');
    const owners = await owner.call('GET', `${base}/media/${xPlatformId}`);
    expect(owners.body.data.data.externalId).toBe('globex-post');
  });

  it('shows the figures of the member’s own targets only', async () => {
    const metrics = (actor: Actor) => actor.call('GET', `${postsUrl()}/${shared}/metrics`);
    const owners = await metrics(owner);
    expect(owners.body.data.targets.map((x: { integrationId: string }) => x.integrationId)).toEqual(
      [accountB],
    );
    const mine = await metrics(limited);
    expect(mine.status).toBe(200);
    expect(mine.body.data.targets).toEqual([]);
  });

  it('replies, edits and deletes comments as no other account', async () => {
    const comment = `/api/organization/${orgId}/platform/${xPlatformId}/comment/c-1`;
    const refusals = [
      await limited.call('POST', `${comment}/replies`, {
        message: 'Thanks!',
        postId: shared,
        integrationId: accountB,
      }),
      await limited.call('PUT', comment, { message: 'Edited', integrationId: accountB }),
      await limited.call('DELETE', `${comment}?integrationId=${accountB}`),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(
        /^(This post does not go out from that account\.|This organization has no connected account on that platform\.)$/,
      );
    }
  });
});

describe('analytics', () => {
  const today = new Date().toISOString().slice(0, 10);
  const analytics = (actor: Actor, path: string, extra = '') =>
    actor.call(
      'GET',
      `/api/organizations/${orgId}/analytics/${path}?from=${today}&to=${today}${extra}`,
    );

  it('describes only the member’s accounts', async () => {
    const mine = await analytics(limited, 'overview');
    expect(mine.status).toBe(200);
    const ids = (mine.body.data.accounts as Array<{ integrationId: string }>).map(
      (a) => a.integrationId,
    );
    expect(ids).toEqual([accountA]);
    const all = await analytics(owner, 'overview');
    expect(
      (all.body.data.accounts as Array<{ integrationId: string }>)
        .map((a) => a.integrationId)
        .sort(),
    ).toEqual([accountA, accountB].sort());
  });

  it('refuses a filter or an export naming another account', async () => {
    for (const path of ['overview', 'best-times', 'export.csv', 'accounts.csv']) {
      const res = await analytics(limited, path, `&integrationIds=${accountB}`);
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.body.message).toBe(
        "You don't have access to the analytics of one of the chosen accounts. Ask an Admin.",
      );
    }
    const report = await limited.call(
      'GET',
      `/api/organizations/${orgId}/reports/pdf?from=${today}&to=${today}&integrationIds=${accountB}`,
    );
    expect(report.status).toBe(403);
    expect(report.body.message).toBe(
      "You don't have access to the analytics of one of the chosen accounts. Ask an Admin.",
    );
    expect((await analytics(limited, 'best-times', `&integrationIds=${accountA}`)).status).toBe(
      200,
    );
  });
});

describe('notifications', () => {
  it('tells a limited member of posts of their accounts only', async () => {
    const onA = await draftTo([accountA], 'Notified about Acme');
    const onB = await draftTo([accountB], 'Notified about Globex');
    for (const postId of [onA, onB])
      await insertNotificationsFor(
        t.database.db,
        orgId,
        { admins: false, userIds: [owner.userId, limited.userId, unlimited.userId] },
        { type: 'POST_FAILED', priority: 'HIGH', message: `Failed ${postId}`, postId },
      );
    const recipients = async (postId: string) =>
      (
        await t.database.db
          .select({ userId: notifications.userId })
          .from(notifications)
          .where(eq(notifications.postId, postId))
      )
        .map((r) => r.userId)
        .sort();
    expect(await recipients(onA)).toEqual([owner.userId, limited.userId, unlimited.userId].sort());
    expect(await recipients(onB)).toEqual([owner.userId, unlimited.userId].sort());
  });
});

describe('report emails', () => {
  it('schedules a limited member’s reports on their accounts only', async () => {
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Client Lead',
      permissionIds: ['org:manage', 'analytics:view'],
    });
    const lead = await addMember(t.app, owner, orgId, 'client.lead@example.com', {
      roleId: role.body.data.role.id,
    });
    expect((await limit(lead.memberId, [accountA])).status).toBe(200);
    const schedules = `/api/organizations/${orgId}/report-schedules`;
    const schedule = (integrationIds?: string[]) => ({
      name: 'Weekly for the client',
      cadence: 'weekly',
      recipients: ['client@example.com'],
      ...(integrationIds ? { integrationIds } : {}),
    });
    const theirs = await lead.actor.call('POST', schedules, schedule([accountB]));
    expect(theirs.status).toBe(403);
    expect(theirs.body.message).toBe(
      "You don't have access to the analytics of one of the chosen accounts. Ask an Admin.",
    );
    const mine = await lead.actor.call('POST', schedules, schedule());
    expect(mine.status).toBe(201);
    expect(mine.body.data.schedule.integrationIds).toEqual([accountA]);
  });

  it('shows a limited member only the report emails on their accounts, and lets them change only those', async () => {
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Report Keeper',
      permissionIds: ['org:manage', 'analytics:view'],
    });
    const keeper = await addMember(t.app, owner, orgId, 'report.keeper@example.com', {
      roleId: role.body.data.role.id,
    });
    expect((await limit(keeper.memberId, [accountA])).status).toBe(200);
    const schedules = `/api/organizations/${orgId}/report-schedules`;
    const create = async (name: string, integrationIds: string[]) => {
      const made = await owner.call('POST', schedules, {
        name,
        cadence: 'monthly',
        recipients: ['client@example.com'],
        integrationIds,
      });
      expect(made.status).toBe(201);
      return made.body.data.schedule.id as string;
    };
    const onA = await create('Only A', [accountA]);
    const everything = await create('Every account', []);
    const onAandB = await create('A and B', [accountA, accountB]);

    const seen = await keeper.actor.call('GET', schedules);
    expect(seen.status).toBe(200);
    const seenIds = seen.body.data.schedules.map((s: { id: string }) => s.id);
    expect(seenIds).toContain(onA);
    expect(seenIds).not.toContain(everything);
    expect(seenIds).not.toContain(onAandB);
    const all = await owner.call('GET', schedules);
    expect(all.body.data.schedules.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([onA, everything, onAandB]),
    );

    for (const other of [everything, onAandB]) {
      const patched = await keeper.actor.call('PATCH', `${schedules}/${other}`, {
        recipients: ['someone.else@example.com'],
      });
      expect(patched.status).toBe(404);
      expect((await keeper.actor.call('DELETE', `${schedules}/${other}`)).status).toBe(404);
      expect((await keeper.actor.call('POST', `${schedules}/${other}/send`)).status).toBe(404);
    }
    const untouched = await owner.call('GET', schedules);
    const kept = untouched.body.data.schedules.find((s: { id: string }) => s.id === everything);
    expect(kept.recipients).toEqual(['client@example.com']);

    const renamed = await keeper.actor.call('PATCH', `${schedules}/${onA}`, { name: 'Client A' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.schedule.name).toBe('Client A');
    expect((await keeper.actor.call('DELETE', `${schedules}/${onA}`)).status).toBe(200);
  });
});
