import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishMedia } from '../../platforms/types.js';
import { publishInOneGo } from '../../platforms/publish-steps.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { emuInject } from '../../test/network-tests.js';
import { connectStoredAccount, connectThroughSandbox } from '../../test/networks.js';
import { imageMedia, publishRequest } from '../../test/publish-media.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';

/** Alt text: stored with each file, kept on edit, and sent to every network's sandbox. */
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let orgId: string;
let xAccountId: string;

interface MediaDto {
  id: string;
  altText: string | null;
}
interface PostDto {
  id: string;
  status: string;
  media: MediaDto[];
}

/** A photo of its own for each name: the media library keeps the same bytes once. */
const image = async (name: string): Promise<FilePart> => ({
  name,
  type: 'image/jpeg',
  data: await jpeg(640, 400 + ([...name].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 200)),
});

async function submit(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string | undefined>,
  files: FilePart[] = [],
) {
  const body = await multipart({ integrationIds: JSON.stringify([xAccountId]), ...fields }, files);
  const res = await send(t.app, owner.jar, {
    method,
    url,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const withAlt = async (altText: string | undefined): Promise<PublishMedia> => ({
  ...(await imageMedia()),
  altText,
});

async function emuPosts(slug: string, query = '') {
  const res = await emuInject(t, slug, 'GET', `posts${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().posts as Array<{ text: string; altTexts: Array<string | null> }>;
}

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-alt-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { jobs: 'all', queues: [PUBLISH_QUEUE] },
  );
  ({ owner, orgId } = await createOrg(t.app, 'owner@alt.test', 'Alt Co'));
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string }>;
  xAccountId = list[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('alt text in the composer’s payloads', () => {
  it('is stored per file, kept by an edit that does not send it, and changed by one that does', async () => {
    const created = await submit(
      'POST',
      `/api/organizations/${orgId}/post`,
      { content: 'Two photos', altTexts: JSON.stringify({ '0': '  A red kite over a hill ' }) },
      [await image('kite.jpg'), await image('hill.jpg')],
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const post = created.body.data.post as PostDto;
    expect(post.media.map((m) => m.altText)).toEqual(['A red kite over a hill', null]);
    const [kite, hill] = post.media as [MediaDto, MediaDto];

    // Reordered, without altTexts: each file keeps its own.
    const kept = await submit('PUT', `/api/organizations/${orgId}/post/${post.id}`, {
      content: 'Two photos, reordered',
      keepMediaIds: JSON.stringify([hill.id, kite.id]),
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((kept.body.data.post as PostDto).media.map((m) => m.altText)).toEqual([
      null,
      'A red kite over a hill',
    ]);

    // With altTexts: they say every file's text (a kept file not listed has none).
    const changed = await submit(
      'PUT',
      `/api/organizations/${orgId}/post/${post.id}`,
      {
        content: 'Two photos, described',
        keepMediaIds: JSON.stringify([kite.id, hill.id]),
        altTexts: JSON.stringify({ [hill.id]: 'A green hill', '0': 'A new photo of the sea' }),
      },
      [await image('sea.jpg')],
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((changed.body.data.post as PostDto).media.map((m) => m.altText)).toEqual([
      null,
      'A green hill',
      'A new photo of the sea',
    ]);
  });

  it('refuses a text longer than X takes, or one naming a file the post does not have', async () => {
    const tooLong = await submit(
      'POST',
      `/api/organizations/${orgId}/post`,
      { content: 'Long alt', altTexts: JSON.stringify({ '0': 'a'.repeat(1001) }) },
      [await image('a.jpg')],
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(
      'The alt text of file 1 has 1001 characters; X takes at most 1000.',
    );
    const stray = await submit(
      'POST',
      `/api/organizations/${orgId}/post`,
      { content: 'Stray alt', altTexts: JSON.stringify({ '3': 'Nothing' }) },
      [await image('b.jpg')],
    );
    expect(stray.status).toBe(400);
    expect(stray.body.message).toContain('altTexts refers to file 4');
    const posts = await owner.call('GET', `/api/organizations/${orgId}/posts?q=alt`);
    expect(posts.body.data.posts).toHaveLength(0);
  });

  it('reaches X’s sandbox when the post is published', async () => {
    const created = await submit(
      'POST',
      `/api/organizations/${orgId}/post`,
      { content: 'Kites over the bay', altTexts: JSON.stringify({ '0': 'Three kites at dusk' }) },
      [await image('kites.jpg')],
    );
    expect(created.status).toBe(201);
    const res = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${created.body.data.post.id}/publish`,
      { platforms: ['X'] },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('success');
    const published = (await emuPosts('x')).filter((p) => p.text === 'Kites over the bay');
    expect(published).toHaveLength(1);
    expect(published[0]!.altTexts).toEqual(['Three kites at dusk']);
  });
});

describe('alt text as each network’s API takes it', () => {
  it('Facebook: alt_text_custom on a photo and on each photo of an album', async () => {
    const page = await connectStoredAccount(t, 'facebook', 'fb.alt@example.com', 'Finn', {
      pages: 'Finn Bakery',
    });
    const fb = t.networks.get('facebook')!.adapter.publishing!;
    await publishInOneGo(fb, page, publishRequest('One loaf', [await withAlt('A sourdough loaf')]));
    await publishInOneGo(
      fb,
      page,
      publishRequest('Two loaves', [await withAlt('Rye'), await withAlt(undefined)]),
    );
    const posts = await emuPosts('facebook', `?account=${page.externalId}`);
    expect(posts.map((p) => [p.text, p.altTexts])).toEqual([
      ['One loaf', ['A sourdough loaf']],
      ['Two loaves', ['Rye', null]],
    ]);
  });

  it('Instagram: alt_text on the image container and on each carousel item', async () => {
    const account = await connectStoredAccount(t, 'instagram', 'ig.alt@example.com', 'Eve', {
      pages: 'Eve Studio',
      instagram: 'eve.alt',
    });
    const ig = t.networks.get('instagram')!.adapter.publishing!;
    await publishInOneGo(ig, account, publishRequest('A vase', [await withAlt('A blue vase')]));
    await publishInOneGo(
      ig,
      account,
      publishRequest('Two vases', [await withAlt('Tall'), await withAlt('Short')]),
    );
    const posts = await emuPosts('instagram', '?account=eve.alt');
    expect(posts.map((p) => [p.text, p.altTexts])).toEqual([
      ['A vase', ['A blue vase']],
      ['Two vases', ['Tall', 'Short']],
    ]);
  });

  it('LinkedIn: altText on the image content and on each image of a multi-image post', async () => {
    const account = await connectStoredAccount(t, 'linkedin', 'li.alt@example.com', 'Lia');
    const li = t.networks.get('linkedin')!.adapter.publishing!;
    await publishInOneGo(li, account, publishRequest('A chart', [await withAlt('Sales up')]));
    await publishInOneGo(
      li,
      account,
      publishRequest('Two charts', [await withAlt('Q1'), await withAlt('Q2')]),
    );
    const posts = await emuPosts('linkedin', `?author=${encodeURIComponent(account.externalId)}`);
    expect(posts.map((p) => [p.text, p.altTexts])).toEqual([
      ['A chart', ['Sales up']],
      ['Two charts', ['Q1', 'Q2']],
    ]);
  });

  it('Threads: alt_text on the image container', async () => {
    const account = await connectStoredAccount(t, 'threads', 'th.alt@example.com', 'Theo');
    const th = t.networks.get('threads')!.adapter.publishing!;
    await publishInOneGo(th, account, publishRequest('A lamp', [await withAlt('A brass lamp')]));
    const posts = await emuPosts('threads');
    expect(posts.filter((p) => p.text === 'A lamp').map((p) => p.altTexts)).toEqual([
      ['A brass lamp'],
    ]);
  });
});
