import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaLibraryItems, plans, posts } from '../../db/schema.js';
import { insertMedia } from '../posts/posts.repository.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg, png } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

let t: TestApp;
let mediaDir: string;
let owner: Actor;
let orgId: string;
let xId: string;

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  // The local store keeps each file's type beside it in a hidden file; the files are the rest.
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => join(e.parentPath, e.name));
}
const stored = () => filesIn(join(mediaDir, 'store', orgId));

async function createPost(fields: Record<string, string>, files: FilePart[] = []) {
  const body = await multipart({ platformIds: JSON.stringify([xId]), ...fields }, files);
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const library = async (query = '') => {
  const res = await owner.call('GET', `/api/organizations/${orgId}/media${query}`);
  expect(res.status).toBe(200);
  return res.body;
};

const photoBytes = jpeg(800, 600);
const photo = async (name = 'beach.jpg'): Promise<FilePart> => ({
  name,
  type: 'image/jpeg',
  data: await photoBytes,
});

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-library-'));
  t = await createTestApp({
    MEDIA_DIR: join(mediaDir, 'store'),
    MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
  });
  const org = await createOrg(t.app, 'owner@library.test', 'Library Co');
  owner = org.owner;
  orgId = org.orgId;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const supported = await owner.call('GET', '/api/platforms/supported');
  xId = (supported.body.data.platforms as Array<{ id: string; name: string }>).find(
    (p) => p.name === 'X',
  )!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('the media library', () => {
  let itemId: string;

  it('keeps an upload in the library, and a second post reuses it with one stored copy', async () => {
    const first = await createPost({ content: 'First' }, [await photo()]);
    expect(first.status).toBe(201);
    const afterFirst = await stored();
    expect(afterFirst).toHaveLength(2); // the file and its thumbnail

    const listed = await library();
    expect(listed.data.items).toHaveLength(1);
    const item = listed.data.items[0];
    itemId = item.id;
    expect(item).toMatchObject({
      kind: 'image',
      mimeType: 'image/jpeg',
      fileName: 'beach.jpg',
      width: 800,
      height: 600,
      usedInPosts: 1,
      uploadedBy: { id: owner.userId },
      derivedFromId: null,
    });
    expect(listed.data.storage.usedBytes).toBe(item.size);
    expect(listed.data.storage.limitBytes).toBeGreaterThan(item.size);

    const second = await createPost({
      content: 'Second',
      libraryMedia: JSON.stringify({ 0: itemId }),
    });
    expect(second.status).toBe(201);
    expect(second.body.data.post.media).toHaveLength(1);
    expect(second.body.data.post.media[0]).toMatchObject({ fileName: 'beach.jpg', width: 800 });
    expect(new URL(second.body.data.post.media[0].mediaUrl).pathname).toBe(
      new URL(first.body.data.post.media[0].mediaUrl).pathname,
    );
    expect(await stored()).toEqual(afterFirst);
    expect((await library()).data.items[0].usedInPosts).toBe(2);
  });

  it('stores the same bytes uploaded again once: the upload returns the existing item', async () => {
    const before = await stored();
    const again = await createPost({ content: 'Again' }, [await photo('beach-copy.jpg')]);
    expect(again.status).toBe(201);
    expect(await stored()).toEqual(before);
    const listed = await library();
    expect(listed.data.items).toHaveLength(1);
    expect(listed.data.items[0]).toMatchObject({ id: itemId, usedInPosts: 3 });
  });

  it('places library files among uploads and gives them their saved alt text', async () => {
    const patched = await owner.call('PATCH', `/api/organizations/${orgId}/media/${itemId}`, {
      altText: 'Waves on a sandy beach',
      addTags: ['summer', 'beach'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.item).toMatchObject({
      altText: 'Waves on a sandy beach',
      tags: ['summer', 'beach'],
    });
    const mixed = await createPost(
      { content: 'Mixed', libraryMedia: JSON.stringify({ 1: itemId }) },
      [{ name: 'logo.png', type: 'image/png', data: await png(320, 320) }],
    );
    expect(mixed.status).toBe(201);
    const media = mixed.body.data.post.media as Array<{ fileName: string; altText: string | null }>;
    expect(media.map((m) => m.fileName)).toEqual(['logo.png', 'beach.jpg']);
    expect(media[1]!.altText).toBe('Waves on a sandy beach');
  });

  it('searches by file name, alt text and tag, filters by type and unused, and pages', async () => {
    expect((await library('?q=sandy')).data.items.map((i: { id: string }) => i.id)).toEqual([
      itemId,
    ]);
    expect((await library('?q=summer')).data.items).toHaveLength(1);
    expect((await library('?q=logo')).data.items[0].fileName).toBe('logo.png');
    expect((await library('?type=video')).data.items).toHaveLength(0);
    expect((await library('?tag=beach')).data.items).toHaveLength(1);
    const paged = await library('?pageSize=1&page=2');
    expect(paged.data.items).toHaveLength(1);
    expect(paged.meta).toEqual({ page: 2, pageSize: 1, totalCount: 2 });
    const untagged = await owner.call('PATCH', `/api/organizations/${orgId}/media/${itemId}`, {
      removeTags: ['SUMMER'],
    });
    expect(untagged.body.data.item.tags).toEqual(['beach']);
    const bad = await owner.call('GET', `/api/organizations/${orgId}/media?type=pdf`);
    expect(bad.status).toBe(400);
  });

  it('refuses to delete an item a post uses, and deletes an unused one with its files', async () => {
    const refused = await owner.call('DELETE', `/api/organizations/${orgId}/media/${itemId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'beach.jpg is used in 4 posts. Remove it from those posts (or delete them) before deleting it from the library.',
    );

    const lone = await createPost({ content: 'Lone' }, [
      { name: 'lone.png', type: 'image/png', data: await png(200, 100) },
    ]);
    expect(lone.status).toBe(201);
    const before = await stored();
    const removed = await owner.call(
      'DELETE',
      `/api/organizations/${orgId}/posts/${lone.body.data.post.id}`,
    );
    expect(removed.status).toBe(200);
    // The post is gone; its file stays in the library.
    expect(await stored()).toEqual(before);
    const unused = await library('?unused=true');
    expect(unused.data.items.map((i: { fileName: string }) => i.fileName)).toEqual(['lone.png']);
    const deleted = await owner.call(
      'DELETE',
      `/api/organizations/${orgId}/media/${unused.data.items[0].id}`,
    );
    expect(deleted.status).toBe(200);
    expect(await stored()).toHaveLength(before.length - 2);
    expect((await library('?unused=true')).data.items).toHaveLength(0);
  });

  it('crops to each ratio on the server: a new item linked to its original, which is kept', async () => {
    const expected: Record<string, [number, number]> = {
      '1:1': [600, 600],
      '4:5': [480, 600],
      '9:16': [338, 600],
      '16:9': [800, 450],
      '1.91:1': [800, 419],
    };
    for (const [ratio, [width, height]] of Object.entries(expected)) {
      const res = await owner.call('POST', `/api/organizations/${orgId}/media/${itemId}/crop`, {
        ratio,
      });
      expect(res.status, ratio).toBe(201);
      expect(res.body.data.item, ratio).toMatchObject({
        width,
        height,
        derivedFromId: itemId,
        cropRatio: ratio,
        altText: 'Waves on a sandy beach',
      });
      // The file itself has those pixels.
      const url = new URL(res.body.data.item.url);
      const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      const sharp = (await import('sharp')).default;
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.width, meta.height], ratio).toEqual([width, height]);
    }
    const again = await owner.call('POST', `/api/organizations/${orgId}/media/${itemId}/crop`, {
      ratio: '1:1',
    });
    expect(again.status).toBe(200);
    const original = await owner.call('GET', `/api/organizations/${orgId}/media/${itemId}`);
    expect(original.body.data.item).toMatchObject({ width: 800, height: 600 });

    const scaled = await owner.call('POST', `/api/organizations/${orgId}/media/${itemId}/crop`, {
      ratio: '16:9',
      area: { left: 0, top: 0, width: 640, height: 360 },
      maxSide: 320,
    });
    expect(scaled.status).toBe(201);
    expect(scaled.body.data.item).toMatchObject({ width: 320, height: 180 });

    const offRatio = await owner.call('POST', `/api/organizations/${orgId}/media/${itemId}/crop`, {
      ratio: '1:1',
      area: { left: 0, top: 0, width: 400, height: 300 },
    });
    expect(offRatio.status).toBe(400);
    expect(offRatio.body.message).toContain('is not 1:1');
  });

  it("refuses an upload that takes the library past its plan's storage, and keeps nothing of it", async () => {
    const db = t.database.db;
    await db.update(plans).set({
      features: sql`${plans.features} || '{"mediaStorageMb": 1}'::jsonb`,
    });
    try {
      // What the library holds already fills the plan's megabyte.
      await db
        .update(mediaLibraryItems)
        .set({ size: 1024 * 1024 - 10 })
        .where(eq(mediaLibraryItems.id, itemId));
      const before = await stored();
      const over = await createPost({ content: 'Too much' }, [
        { name: 'big.png', type: 'image/png', data: await png(640, 480) },
      ]);
      expect(over.status).toBe(403);
      expect(over.body.message).toMatch(
        /^Your Pro plan stores up to 1 MB of media, and this upload would take the library to .+\. Delete unused files from the media library or upgrade your plan\.$/,
      );
      expect(await stored()).toEqual(before);
      // Reusing what the library holds takes no room.
      const reuse = await createPost({
        content: 'Reuse',
        libraryMedia: JSON.stringify({ 0: itemId }),
      });
      expect(reuse.status).toBe(201);
      const listed = await library();
      expect(listed.data.storage.limitBytes).toBe(1024 * 1024);
    } finally {
      await db.update(plans).set({ features: sql`${plans.features} - 'mediaStorageMb'` });
    }
  });

  it('keeps a library file for a post being saved, and refuses one whose item is gone', async () => {
    const lone = await createPost({ content: 'Keeper' }, [
      { name: 'keeper.png', type: 'image/png', data: await png(120, 90) },
    ]);
    expect(lone.status).toBe(201);
    const postId = lone.body.data.post.id as string;
    await owner.call('DELETE', `/api/organizations/${orgId}/posts/${postId}`);
    const [item] = (await library('?unused=true')).data.items as Array<{ id: string }>;
    const holder = await createPost({ content: 'Holder' });
    const [post] = await t.database.db
      .select()
      .from(posts)
      .where(eq(posts.id, holder.body.data.post.id));
    const [row] = await t.database.db
      .select()
      .from(mediaLibraryItems)
      .where(eq(mediaLibraryItems.id, item!.id));
    const file = {
      storageKey: row!.storageKey,
      thumbnailKey: row!.thumbnailKey,
      fileName: row!.fileName,
      mimeType: row!.mimeType,
      kind: row!.kind,
      size: row!.size,
      width: row!.width,
      height: row!.height,
      durationSec: row!.durationSec,
      sha256: row!.sha256,
      libraryItemId: row!.id,
      position: 0,
    };
    // A deletion asked for while the post is being saved waits for it, then sees it used.
    let deletion: Promise<{ status: number; body: { message: string } }> | undefined;
    await t.database.db.transaction(async (tx) => {
      await insertMedia(tx, post!, [file]);
      deletion = owner.call('DELETE', `/api/organizations/${orgId}/media/${item!.id}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const refused = await deletion!;
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('keeper.png is used in 1 post.');

    // Once the item is deleted, a post cannot take its file: a sentence, not a server error.
    await owner.call('DELETE', `/api/organizations/${orgId}/posts/${holder.body.data.post.id}`);
    const second = await createPost({ content: 'Late' });
    const [late] = await t.database.db
      .select()
      .from(posts)
      .where(eq(posts.id, second.body.data.post.id));
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/media/${item!.id}`)).status,
    ).toBe(200);
    await expect(insertMedia(t.database.db, late!, [file])).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message:
        'A file chosen from the media library is no longer there. Remove it from the post and choose it again.',
    });
  });

  it('refuses a library item of another organization', async () => {
    const other = await createOrg(t.app, 'other@library.test', 'Other Co');
    const res = await other.owner.call('GET', `/api/organizations/${other.orgId}/media/${itemId}`);
    expect(res.status).toBe(404);
    const crop = await other.owner.call(
      'POST',
      `/api/organizations/${other.orgId}/media/${itemId}/crop`,
      { ratio: '1:1' },
    );
    expect(crop.status).toBe(404);
  });
});
