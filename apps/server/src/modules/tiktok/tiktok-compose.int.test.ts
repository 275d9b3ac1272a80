import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/** docs/networks.md#tiktok-conformance: TikTok's content-sharing guidelines, through Herald's API. */
let t: TestApp;
let owner: Actor;
let orgId: string;
let tiktokId: string;
const USERNAME = 'tt_guided';

interface Target {
  integrationId: string | null;
  status: string;
  tiktok?: Record<string, unknown> | null;
}

async function emu(method: 'GET' | 'POST', path: string, payload?: object) {
  const res = await t.app.inject({
    method,
    url: `/api/sandbox/tiktok/_emu/${path}`,
    headers: { cookie: owner.jar.header() },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`_emu/${path}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}
const knob = (name: string, on: boolean) =>
  emu('POST', 'scenario', { account: USERNAME, knob: name, on });

async function submit(method: 'POST' | 'PUT', url: string, fields: Record<string, string>) {
  const body = await multipart(fields, [
    { name: 'stand.jpg', type: 'image/jpeg', data: await jpeg(640, 480) },
  ]);
  const res = await send(t.app, owner.jar, {
    method,
    url,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const createPost = (fields: Record<string, string>) =>
  submit('POST', `/api/organizations/${orgId}/post`, {
    integrationIds: JSON.stringify([tiktokId]),
    content: 'Our stand at the fair',
    ...fields,
  });
const tiktokField = (settings: object) => JSON.stringify({ [tiktokId]: settings });

async function waitForTarget(postId: string, status: string): Promise<Target> {
  for (let i = 0; i < 100; i += 1) {
    const post = (await owner.call('GET', `/api/organizations/${orgId}/posts/${postId}`)).body.data
      .post as { platformPosts: Target[] };
    const target = post.platformPosts[0]!;
    if (target.status === status) return target;
    if (target.status === 'FAILED') throw new Error(`target failed: ${JSON.stringify(target)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`target never reached ${status}`);
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'tiktok@compose.test', 'Guided Co'));
  await connectThroughSandbox(t.app, owner, 'tiktok', orgId, { account: USERNAME });
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string; platform: { name: string } }>;
  tiktokId = list.find((i) => i.platform.name === 'TikTok')!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET …/integrations/:integrationId/tiktok/creator-info', () => {
  const url = () => `/api/organizations/${orgId}/integrations/${tiktokId}/tiktok/creator-info`;

  it('requires authentication, and the post:create permission', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: url() });
    expect(anonymous.statusCode).toBe(401);
    const { actor: viewer } = await addMember(t.app, owner, orgId, 'viewer@compose.test', {
      permissions: ['dm:send'],
    });
    expect((await viewer.call('GET', url())).status).toBe(403);
  });

  it("names the creator and says what TikTok lets them post, from TikTok's creator_info", async () => {
    await knob('interactions_off', true);
    const res = await owner.call('GET', url());
    await knob('interactions_off', false);
    expect(res.status).toBe(200);
    expect(res.body.data.creator).toMatchObject({
      username: USERNAME,
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      commentDisabled: true,
      duetDisabled: true,
      stitchDisabled: true,
      unaudited: false,
    });
    expect(res.body.data.creator.nickname).toEqual(expect.any(String));
  });
});

describe('a TikTok post’s settings, checked when it is saved', () => {
  it('refuses to schedule without a privacy level the user chose, but keeps a draft', async () => {
    const refused = await createPost({ scheduledAt: inHours(2) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/choose who can see the TikTok post/);
    const draft = await createPost({});
    expect(draft.status).toBe(201);
  });

  it('refuses a level the creator is not offered, and private branded content', async () => {
    await knob('creator_private', true);
    const notOffered = await createPost({
      scheduledAt: inHours(2),
      tiktok: tiktokField({ privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    });
    await knob('creator_private', false);
    expect(notOffered.status).toBe(400);
    expect(notOffered.body.message).toMatch(/TikTok does not offer "Everyone"/);
    const branded = await createPost({
      scheduledAt: inHours(2),
      tiktok: tiktokField({ privacyLevel: 'SELF_ONLY', commercial: true, brandedContent: true }),
    });
    expect(branded.status).toBe(400);
    expect(branded.body.message).toMatch(/Branded content cannot be private/);
  });

  it('stores the settings with the TikTok target, and an edit changes them', async () => {
    const created = await createPost({
      scheduledAt: inHours(2),
      tiktok: tiktokField({ privacyLevel: 'SELF_ONLY', allowComments: true }),
    });
    expect(created.status).toBe(201);
    const post = created.body.data.post as { id: string; platformPosts: Target[] };
    expect(post.platformPosts[0]!.tiktok).toMatchObject({
      mode: 'direct',
      privacyLevel: 'SELF_ONLY',
      allowComments: true,
      allowDuet: false,
    });
    const edited = await submit('PUT', `/api/organizations/${orgId}/post/${post.id}`, {
      integrationIds: JSON.stringify([tiktokId]),
      content: 'Our stand at the fair',
      scheduledAt: inHours(3),
      keepMediaIds: JSON.stringify([]),
      tiktok: tiktokField({
        privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
        commercial: true,
        yourBrand: true,
      }),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.post.platformPosts[0].tiktok).toMatchObject({
      privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
      allowComments: false,
      yourBrand: true,
    });
  });
});

describe('publishing a TikTok post as the user chose it', () => {
  it('sends the chosen privacy and interactions in post_info', async () => {
    const created = await createPost({
      action: 'publish',
      content: 'Chosen privacy, through the engine',
      tiktok: tiktokField({ privacyLevel: 'MUTUAL_FOLLOW_FRIENDS', allowComments: true }),
    });
    expect(created.status).toBe(201);
    await waitForTarget(created.body.data.post.id, 'PUBLISHED');
    const { posts } = (await emu('GET', `posts?account=${USERNAME}`)) as {
      posts: Array<{ text: string; privacyLevel: string; postInfo: Record<string, unknown> }>;
    };
    const sent = posts.find((p) => p.text === 'Chosen privacy, through the engine')!;
    expect(sent.privacyLevel).toBe('MUTUAL_FOLLOW_FRIENDS');
    expect(sent.postInfo).toMatchObject({ disable_comment: false, brand_content_toggle: false });
    expect(sent.postInfo).not.toHaveProperty('auto_add_music');
  });

  it('sends a draft to the creator’s TikTok inbox when asked to', async () => {
    const created = await createPost({
      action: 'publish',
      content: 'Finish me in the app',
      tiktok: tiktokField({ mode: 'inbox' }),
    });
    expect(created.status).toBe(201);
    const target = await waitForTarget(created.body.data.post.id, 'PUBLISHED');
    expect(target.tiktok?.mode).toBe('inbox');
    const { drafts } = (await emu('GET', `inbox?account=${USERNAME}`)) as {
      drafts: Array<{ title: string; mediaType: string }>;
    };
    expect(drafts).toEqual([
      expect.objectContaining({ title: 'Finish me in the app', mediaType: 'PHOTO' }),
    ]);
  });
});
