import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrgCast, type Actor } from '../../test/factories.js';

/** docs/product.md#composer-autosave: each member's unsent composer work, kept on the server. */
let t: TestApp;
let owner: Actor;
let creator: Actor;
let support: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let postId: string;
let otherPostId: string;

const ACCOUNT = '00000000-0000-4000-8000-00000000000a';
const body = (sharedText: string) => ({
  platformIds: [ACCOUNT],
  mode: 'shared',
  sharedText,
  customTexts: {},
  title: '',
  action: 'schedule',
  scheduleAt: '2026-12-24T09:30',
  linkTracking: null,
});

const url = (org = orgId, post?: string) =>
  `/api/organizations/${org}/composer-draft${post ? `?postId=${post}` : ''}`;
const draftOf = async (actor: Actor, org = orgId, post?: string) => {
  const res = await actor.call('GET', url(org, post));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.draft as { postId: string | null; body: { sharedText: string } } | null;
};

async function insertPost(organizationId: string) {
  const [row] = await t.database.db
    .insert(posts)
    .values({ organizationId, status: 'draft', content: 'Stored' })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId, creator, support, outsider, otherOrgId } = await createOrgCast(
    t.app,
    'drafts.test',
    'Drafts Co',
  ));
  postId = await insertPost(orgId);
  otherPostId = await insertPost(otherOrgId);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('composer drafts', () => {
  it('keeps one draft per member for a new post, replaced on each save and gone once discarded', async () => {
    expect(await draftOf(creator)).toBeNull();
    const first = await creator.call('PUT', url(), { postId: null, body: body('First words') });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await creator.call('PUT', url(), { postId: null, body: body('More words') });
    expect(second.status).toBe(200);

    const draft = await draftOf(creator);
    expect(draft).toMatchObject({ postId: null, body: body('More words') });
    // Another member of the same organization has their own (none).
    expect(await draftOf(owner)).toBeNull();

    expect((await creator.call('DELETE', url())).status).toBe(200);
    expect(await draftOf(creator)).toBeNull();
  });

  it('keeps an edit of a post apart from the new post’s draft', async () => {
    await creator.call('PUT', url(), { postId: null, body: body('New one') });
    const saved = await creator.call('PUT', url(), { postId, body: body('Edited text') });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    expect((await draftOf(creator, orgId, postId))?.body.sharedText).toBe('Edited text');
    expect((await draftOf(creator))?.body.sharedText).toBe('New one');

    await creator.call('DELETE', url(orgId, postId));
    expect(await draftOf(creator, orgId, postId)).toBeNull();
    expect((await draftOf(creator))?.body.sharedText).toBe('New one');
  });

  it('refuses members who cannot create posts, other organizations and their posts', async () => {
    expect((await support.call('GET', url())).status).toBe(403);
    expect((await support.call('PUT', url(), { postId: null, body: body('x') })).status).toBe(403);
    expect((await outsider.call('GET', url())).status).toBe(403);
    expect((await outsider.call('PUT', url(), { postId: null, body: body('x') })).status).toBe(403);

    // A post of another organization cannot carry a draft here.
    const foreign = await owner.call('PUT', url(), { postId: otherPostId, body: body('x') });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('This post does not exist in this organization.');

    // The outsider's own draft stays in their organization.
    await outsider.call('PUT', url(otherOrgId), { postId: null, body: body('Theirs') });
    expect((await draftOf(outsider, otherOrgId))?.body.sharedText).toBe('Theirs');
    expect(await draftOf(owner)).toBeNull();
  });

  it('answers 400 with a sentence for a body the composer could not have sent', async () => {
    const badTime = await creator.call('PUT', url(), {
      postId: null,
      body: { ...body('x'), scheduleAt: 'tomorrow' },
    });
    expect(badTime.status).toBe(400);
    expect(badTime.body.message).toContain('The publish time is not a date and time.');

    const badAccount = await creator.call('PUT', url(), {
      postId: null,
      body: { ...body('x'), platformIds: ['not-an-id'] },
    });
    expect(badAccount.status).toBe(400);
    expect(badAccount.body.message).toContain('An account id of the draft is not valid.');

    const tooLong = await creator.call('PUT', url(), {
      postId: null,
      body: body('x'.repeat(100_001)),
    });
    expect(tooLong.status).toBe(400);

    expect((await creator.call('GET', `${url()}?postId=nope`)).status).toBe(400);
    expect((await creator.call('PUT', url(), { body: body('x') })).status).toBe(400);
  });

  it('drops the draft of a post that is deleted', async () => {
    const gone = await insertPost(orgId);
    await owner.call('PUT', url(), { postId: gone, body: body('Soon orphaned') });
    expect(await draftOf(owner, orgId, gone)).not.toBeNull();
    const deleted = await owner.call('DELETE', `/api/organizations/${orgId}/posts/${gone}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await draftOf(owner, orgId, gone)).toBeNull();
  });
});
