import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, signIn, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { dm } from '../../test/inbox-fake.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { upsertInboxEvents } from '../inbox/inbox-ingest.js';

/**
 * "All clients": Ada manages the bakery's social media (Social Media Manager: approves, reads
 * the inbox) and writes for the bookshop (Content Creator: neither); the cafe is no client of
 * hers. Each view covers exactly the organizations her membership opens.
 */
let t: TestApp;
let mediaDir: string;
let ada: Actor;
let baker: Actor;
const orgs: Record<'bakery' | 'books' | 'cafe', { id: string; owner: Actor; account: string }> =
  {} as never;

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function schedule(actor: Actor, org: keyof typeof orgs, text: string, hours: number) {
  const body = await multipart({
    integrationIds: JSON.stringify([orgs[org].account]),
    content: text,
    scheduledAt: inHours(hours),
    action: 'schedule',
  });
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgs[org].id}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post as { id: string; status: string };
}

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-all-clients-'));
  t = await createTestApp({
    MEDIA_DIR: join(mediaDir, 'store'),
    MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
  });
  for (const [key, name] of [
    ['bakery', 'Harbour Bakery'],
    ['books', 'Tidewater Books'],
    ['cafe', 'Corner Cafe'],
  ] as const) {
    const org = await createOrg(t.app, `owner@${key}.test`, name);
    expect(await connectThroughSandbox(t.app, org.owner, 'x', org.orgId)).toContain('connected=');
    const accounts = (await org.owner.call('GET', `/api/organizations/${org.orgId}/integrations`))
      .body.data.platforms as Array<{ id: string }>;
    orgs[key] = { id: org.orgId, owner: org.owner, account: accounts[0]!.id };
    if (key === 'bakery') {
      ada = (
        await addMember(t.app, org.owner, org.orgId, 'ada@agency.test', {
          roleId: org.roleId('SocialMediaManager'),
        })
      ).actor;
      baker = (
        await addMember(t.app, org.owner, org.orgId, 'writer@bakery.test', {
          roleId: org.roleId('ContentCreator'),
        })
      ).actor;
    }
    if (key === 'books') {
      await addMember(t.app, org.owner, org.orgId, 'ada@agency.test', {
        roleId: org.roleId('ContentCreator'),
      });
    }
  }
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('GET /me/all-clients/calendar', () => {
  it("lists the range's posts of every organization she belongs to, each marked with it, and no other", async () => {
    const bread = await schedule(orgs.bakery.owner, 'bakery', 'Fresh sourdough at seven', 5);
    const books = await schedule(orgs.books.owner, 'books', 'New poetry shelf', 3);
    await schedule(orgs.cafe.owner, 'cafe', 'Flat white Friday', 4);
    const late = await schedule(orgs.books.owner, 'books', 'Author evening next month', 24 * 40);

    const res = await ada.call(
      'GET',
      `/api/me/all-clients/calendar?from=${encodeURIComponent(inHours(0))}&to=${encodeURIComponent(inHours(48))}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.clients).toEqual([
      { id: orgs.bakery.id, name: 'Harbour Bakery' },
      { id: orgs.books.id, name: 'Tidewater Books' },
    ]);
    const posts = res.body.data.posts as Array<{ id: string; organizationId: string }>;
    // Soonest first, across organizations.
    expect(posts.map((p) => [p.id, p.organizationId])).toEqual([
      [books.id, orgs.books.id],
      [bread.id, orgs.bakery.id],
    ]);
    expect(posts.some((p) => p.id === late.id)).toBe(false);
    expect(res.body.data.truncated).toEqual([]);
  });

  it('refuses a missing or too wide range with a sentence, and a visitor', async () => {
    const missing = await ada.call('GET', '/api/me/all-clients/calendar');
    expect(missing.status).toBe(400);
    const wide = await ada.call(
      'GET',
      `/api/me/all-clients/calendar?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`,
    );
    expect(wide.status).toBe(400);
    expect(JSON.stringify(wide.body)).toContain('Ask for at most 62 days at once.');
    const backwards = await ada.call(
      'GET',
      `/api/me/all-clients/calendar?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
    );
    expect(JSON.stringify(backwards.body)).toContain('to must be after from.');
    const visitor = await t.app.inject({
      method: 'GET',
      url: '/api/me/all-clients/calendar?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z',
    });
    expect(visitor.statusCode).toBe(401);
  });
});

describe('GET /me/all-clients/approvals', () => {
  it('covers only the organizations where she approves, with how many wait in each', async () => {
    for (const org of ['bakery', 'books'] as const) {
      const on = await orgs[org].owner.call('PATCH', `/api/organizations/${orgs[org].id}`, {
        requirePostApproval: true,
      });
      expect(on.status).toBe(200);
    }
    // An approver's own post needs no approval: the bakery's writer asks for it.
    const pending = await schedule(baker, 'bakery', 'Croissant recipe, for approval', 6);
    expect(pending.status).toBe('pending_approval');
    const theirs = await schedule(ada, 'books', 'Bookshop post, for their approver', 6);
    expect(theirs.status).toBe('pending_approval');

    const res = await ada.call('GET', '/api/me/all-clients/approvals');
    expect(res.status).toBe(200);
    expect(res.body.data.clients).toEqual([
      { id: orgs.bakery.id, name: 'Harbour Bakery', waiting: 1 },
    ]);
    expect(res.body.data.posts.map((p: { id: string }) => p.id)).toEqual([pending.id]);

    // The bookshop's owner approves there, and sees only that.
    const owner = await orgs.books.owner.call('GET', '/api/me/all-clients/approvals');
    expect(owner.body.data.clients).toEqual([
      { id: orgs.books.id, name: 'Tidewater Books', waiting: 1 },
    ]);
    expect(owner.body.data.posts.map((p: { id: string }) => p.id)).toEqual([theirs.id]);
  });
});

describe('GET /me/all-clients/inbox', () => {
  it('covers only the organizations whose inbox she may read, newest conversation first', async () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const ingest = (org: keyof typeof orgs, events: Parameters<typeof upsertInboxEvents>[2]) =>
      upsertInboxEvents(
        t.database.db,
        { id: orgs[org].account, organizationId: orgs[org].id, platform: 'X' },
        events,
      );
    await ingest('bakery', [dm('b1', 'rye-fan', ago(30), 'Is the rye back?')]);
    await ingest('bakery', [dm('b2', 'cake-order', ago(5), 'Cake for Saturday?')]);
    await ingest('books', [dm('k1', 'reader', ago(1), 'Do you have the new atlas?')]);

    const res = await ada.call('GET', '/api/me/all-clients/inbox');
    expect(res.status).toBe(200);
    expect(res.body.data.clients).toEqual([{ id: orgs.bakery.id, name: 'Harbour Bakery' }]);
    const items = res.body.data.conversations as Array<{
      organizationId: string;
      conversation: { lastMessage: { text: string } };
    }>;
    expect(items.map((i) => [i.organizationId, i.conversation.lastMessage.text])).toEqual([
      [orgs.bakery.id, 'Cake for Saturday?'],
      [orgs.bakery.id, 'Is the rye back?'],
    ]);

    const owner = await orgs.books.owner.call('GET', '/api/me/all-clients/inbox');
    expect(
      owner.body.data.conversations.map(
        (i: { conversation: { lastMessage: { text: string } } }) => i.conversation.lastMessage.text,
      ),
    ).toEqual(['Do you have the new atlas?']);
  });

  it('is empty for someone in no organization', async () => {
    const newcomer = await signIn(t.app, 'newcomer@agency.test');
    const res = await newcomer.call('GET', '/api/me/all-clients/inbox');
    expect(res.body.data).toEqual({ clients: [], conversations: [] });
  });
});
