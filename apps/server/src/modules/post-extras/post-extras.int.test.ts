import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrgCast, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';

/** Duplicate a post, link tracking (UTM), and internal comments with @mentions. */
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let creator: Actor;
let support: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let accountId: string;

interface PostDto {
  id: string;
  status: string;
  title: string | null;
  content: string | Record<string, string>;
  scheduledAt: string | null;
  linkTracking: { campaign: string } | null;
  accounts: Array<{ id: string | null }>;
  platformPosts: Array<{ status: string; externalId: string | null }>;
  media: Array<{ id: string; mediaUrl: string; altText: string | null; fileName: string }>;
}

async function create(actor: Actor, fields: Record<string, string>, withImage = false) {
  const body = await multipart(
    { integrationIds: JSON.stringify([accountId]), ...fields },
    withImage ? [{ name: 'harbour.jpg', type: 'image/jpeg', data: await jpeg(640, 480) }] : [],
  );
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post as PostDto;
}

async function edit(postId: string, fields: Record<string, string>) {
  const body = await multipart({ integrationIds: JSON.stringify([accountId]), ...fields });
  const res = await send(t.app, owner.jar, {
    method: 'PUT',
    url: `/api/organizations/${orgId}/post/${postId}`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.post as PostDto;
}

const publishNow = async (postId: string) => {
  const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${postId}/publish`, {
    platforms: ['X'],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('success');
};

async function xTexts() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/sandbox/x/_emu/posts',
    headers: { cookie: owner.jar.header() },
  });
  return (res.json().posts as Array<{ text: string }>).map((p) => p.text);
}

const duplicate = (actor: Actor, postId: string, org = orgId) =>
  actor.call('POST', `/api/organizations/${org}/posts/${postId}/duplicate`);

const comments = (actor: Actor, postId: string, org = orgId) =>
  `/api/organizations/${org}/posts/${postId}/internal-comments`;

const notificationsOf = async (actor: Actor, org = orgId) =>
  (await actor.call('GET', `/api/notifications?organizationId=${org}`)).body as Array<{
    type: string;
    message: string;
    postId: string | null;
  }>;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-extras-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { jobs: 'all', queues: [PUBLISH_QUEUE] },
  );
  ({ owner, orgId, creator, support, outsider, otherOrgId } = await createOrgCast(
    t.app,
    'extras.test',
    'Extras Co',
  ));
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string }>;
  accountId = list[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('the API description', () => {
  it('documents the new routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    expect(paths['/api/organizations/{orgId}/posts/{postId}/duplicate']).toHaveProperty('post');
    expect(paths['/api/organizations/{orgId}/posts/{postId}/internal-comments']).toHaveProperty(
      'post',
    );
    expect(paths['/api/organizations/{orgId}/link-tracking']).toHaveProperty('put');
  });
});

describe('duplicate', () => {
  it('makes a draft with the texts, accounts and files (alt text too), not the time or results', async () => {
    const source = await create(
      owner,
      {
        title: 'Harbour',
        content: JSON.stringify({ default: 'Boats at dawn', [accountId]: 'Boats at dawn on X' }),
        altTexts: JSON.stringify({ '0': 'Fishing boats in fog' }),
        linkTracking: JSON.stringify({ campaign: 'harbour' }),
      },
      true,
    );
    await publishNow(source.id);

    const res = await duplicate(creator, source.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const copy = res.body.data.post as PostDto;
    expect(copy.id).not.toBe(source.id);
    expect(copy).toMatchObject({
      status: 'draft',
      title: 'Harbour',
      scheduledAt: null,
      content: { default: 'Boats at dawn', [accountId]: 'Boats at dawn on X' },
      linkTracking: { campaign: 'harbour' },
    });
    expect(copy.accounts.map((a) => a.id)).toEqual([accountId]);
    expect(copy.platformPosts.map((p) => [p.status, p.externalId])).toEqual([['QUEUED', null]]);
    expect(copy.media).toHaveLength(1);
    expect(copy.media[0]).toMatchObject({
      fileName: 'harbour.jpg',
      altText: 'Fishing boats in fog',
    });
    expect(copy.media[0]!.id).not.toBe(source.media[0]!.id);

    // Deleting the original leaves the copy's file readable.
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/posts/${source.id}`)).status,
    ).toBe(200);
    const signed = new URL(copy.media[0]!.mediaUrl);
    const file = await t.app.inject({ method: 'GET', url: signed.pathname + signed.search });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBeGreaterThan(1000);
  });

  it('needs post:create, and never reaches another organization’s post', async () => {
    const source = await create(owner, { content: 'Only ours' });
    expect((await duplicate(support, source.id)).status).toBe(403);
    expect((await duplicate(outsider, source.id, otherOrgId)).status).toBe(404);
    expect((await duplicate(outsider, source.id)).status).toBe(403);
    const list = await owner.call('GET', `/api/organizations/${orgId}/posts?q=Only%20ours`);
    expect(list.body.data.posts).toHaveLength(1);
  });
});

describe('link tracking', () => {
  it('keeps the organization’s default, saved by managers only', async () => {
    const url = `/api/organizations/${orgId}/link-tracking`;
    expect((await owner.call('GET', url)).body.data.settings).toEqual({
      enabledByDefault: false,
      tracking: { source: null, medium: 'social', campaign: '', term: null, content: null },
      shortLinks: false,
    });
    const settings = {
      enabledByDefault: true,
      tracking: { campaign: 'autumn', medium: 'social', source: null, term: null, content: null },
      shortLinks: false,
    };
    expect((await creator.call('PUT', url, settings)).status).toBe(403);
    const noCampaign = await owner.call('PUT', url, {
      enabledByDefault: true,
      tracking: { campaign: '' },
    });
    expect(noCampaign.status).toBe(400);
    expect(noCampaign.body.message).toContain('Name a campaign');
    const bad = await owner.call('PUT', url, {
      enabledByDefault: true,
      tracking: { campaign: 'a b' },
    });
    expect(bad.status).toBe(400);
    const saved = await owner.call('PUT', url, settings);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await creator.call('GET', url)).body.data.settings).toEqual(settings);
    expect((await outsider.call('GET', url)).status).toBe(403);
  });

  it('adds the parameters once when publishing, keeps the stored text as written, and survives edits', async () => {
    const text = 'Menu https://cafe.test/menu?day=mon#soups and https://cafe.test';
    const post = await create(owner, {
      content: text,
      linkTracking: JSON.stringify({ campaign: 'lunch' }),
    });
    expect(post.content).toBe(text);
    const edited = await edit(post.id, {
      content: `${text}!`,
      linkTracking: JSON.stringify({ campaign: 'lunch', content: 'v2' }),
    });
    expect(edited.content).toBe(`${text}!`);
    expect(edited.linkTracking).toMatchObject({ campaign: 'lunch', content: 'v2' });
    // An edit that does not mention tracking keeps it.
    const kept = await edit(post.id, { content: `${text}!!` });
    expect(kept.linkTracking).toMatchObject({ campaign: 'lunch', content: 'v2' });
    await publishNow(post.id);
    const published = (await xTexts()).filter((p) => p.startsWith('Menu '));
    const utm = 'utm_source=x&utm_medium=social&utm_campaign=lunch&utm_content=v2';
    expect(published).toEqual([
      `Menu https://cafe.test/menu?day=mon&${utm}#soups and https://cafe.test?${utm}!!`,
    ]);
  });

  it('leaves links alone on a post without tracking', async () => {
    const post = await create(owner, { content: 'Plain https://plain.test/?a=1' });
    await publishNow(post.id);
    expect(await xTexts()).toContain('Plain https://plain.test/?a=1');
  });

  it('counts the text with its tracked links, as it will be sent, by each network rule', async () => {
    expect(await connectThroughSandbox(t.app, owner, 'threads', orgId)).toContain('connected=');
    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms as Array<{ id: string; identifier?: string; platformName?: string }>;
    const threadsId = list.find((a) => a.id !== accountId)!.id;
    const post = (fields: Record<string, string>, ids: string[], method = 'POST', id = '') =>
      multipart({ integrationIds: JSON.stringify(ids), ...fields }).then((body) =>
        send(t.app, owner.jar, {
          method: method as 'POST' | 'PUT',
          url: `/api/organizations/${orgId}/post${id ? `/${id}` : ''}`,
          headers: { ...body.headers, origin: TEST_PUBLIC_URL },
          payload: body.payload,
        }),
      );
    // 480 characters with the link: within Threads' 500 as written, over it once tracked.
    const text = `${'a'.repeat(459)} https://cafe.test/a`;
    const tracking = JSON.stringify({ campaign: 'spring' });
    const refused = await post({ content: text, linkTracking: tracking }, [threadsId]);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The text is too long for Threads: 536 of 500 characters.');
    const before = await owner.call('GET', `/api/organizations/${orgId}/posts?pageSize=1`);
    // Without tracking it fits.
    const fine = await post({ content: text }, [threadsId]);
    expect(fine.statusCode, fine.body).toBe(201);
    // An edit adding tracking is counted the same way, and changes nothing.
    const edited = await post(
      { content: text, linkTracking: tracking },
      [threadsId],
      'PUT',
      fine.json().data.post.id,
    );
    expect(edited.statusCode).toBe(400);
    expect(edited.body).toContain('too long for Threads: 536 of 500');
    const stored = (
      await owner.call('GET', `/api/organizations/${orgId}/posts/${fine.json().data.post.id}`)
    ).body.data.post;
    expect(stored.linkTracking).toBeNull();
    // X counts every link as 23 characters, however long tracking makes it.
    const xText = `${'b'.repeat(250)} https://cafe.example.com/a`;
    const long = JSON.stringify({
      campaign: 'a-very-long-campaign-name-for-spring',
      term: 'x'.repeat(60),
    });
    const onX = await post({ content: xText, linkTracking: long }, [accountId]);
    expect(onX.statusCode, onX.body).toBe(201);
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/posts?pageSize=1`)).body.meta
        .totalCount,
    ).toBe(before.body.meta.totalCount + 2);
  });
});

describe('internal comments', () => {
  it('lists, adds with mentions that notify, and deletes one’s own', async () => {
    const post = await create(owner, { content: 'Needs a second look' });
    const url = comments(owner, post.id);
    expect((await owner.call('GET', url)).body.data.comments).toEqual([]);

    const added = await owner.call('POST', url, {
      body: '@creator please check the photo',
      mentionedUserIds: [creator.userId, owner.userId],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data.comment).toMatchObject({
      body: '@creator please check the photo',
      author: { id: owner.userId },
      isOwn: true,
    });
    expect(added.body.data.comment.mentions.map((m: { id: string }) => m.id).sort()).toEqual(
      [creator.userId, owner.userId].sort(),
    );

    // The mentioned teammate hears about it, with the post; the author does not.
    const heard = (await notificationsOf(creator)).filter((n) => n.type === 'POST_MENTIONED');
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ postId: post.id });
    expect(heard[0]!.message).toContain('mentioned you in a comment');
    expect((await notificationsOf(owner)).some((n) => n.type === 'POST_MENTIONED')).toBe(false);

    // Everyone who can see posts reads the thread; it is someone else's comment for them.
    const read = await support.call('GET', url);
    expect(read.status).toBe(200);
    expect(read.body.data.comments).toHaveLength(1);
    expect(read.body.data.comments[0].isOwn).toBe(false);

    const reply = await creator.call('POST', url, { body: 'Done, swapped it.' });
    expect(reply.status).toBe(201);
    const commentId = added.body.data.comment.id as string;
    expect((await creator.call('DELETE', `${url}/${commentId}`)).status).toBe(403);
    expect((await owner.call('DELETE', `${url}/${commentId}`)).status).toBe(200);
    expect(
      (await owner.call('GET', url)).body.data.comments.map((c: { body: string }) => c.body),
    ).toEqual(['Done, swapped it.']);
  });

  it('refuses empty comments, strangers mentioned, members without post:create, and other organizations', async () => {
    const post = await create(owner, { content: 'Private discussion' });
    const url = comments(owner, post.id);
    const empty = await owner.call('POST', url, { body: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Write a comment');
    const stranger = await owner.call('POST', url, {
      body: '@outsider look',
      mentionedUserIds: [outsider.userId],
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toBe(
      'One of the people you mentioned is not a member of this organization.',
    );
    expect((await support.call('POST', url, { body: 'Can I?' })).status).toBe(403);
    expect((await outsider.call('GET', url)).status).toBe(403);
    expect((await outsider.call('GET', comments(outsider, post.id, otherOrgId))).status).toBe(404);
    expect(
      (await outsider.call('POST', comments(outsider, post.id, otherOrgId), { body: 'Hi' })).status,
    ).toBe(404);
    expect((await owner.call('GET', url)).body.data.comments).toEqual([]);
    expect(
      (await notificationsOf(outsider, otherOrgId)).some((n) => n.type === 'POST_MENTIONED'),
    ).toBe(false);
  });
});
