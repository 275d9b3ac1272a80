import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { integrations, postTargets, users } from '../../db/schema.js';
import { POST_STATUSES } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  createTestApp,
  holdableClock,
  send,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { jpeg, mp4, png, webp } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { recordStatements } from '../../test/statements.js';
import { updateIntegration } from '../integrations/integrations.repository.js';
import { forgetPostTotals, listPosts } from './posts.repository.js';
import { CREATOR_NAMES_TTL_MS } from './creator-names.js';
import { TARGET_NAMES_TTL_MS } from './target-names.js';

let t: TestApp;
const clock = holdableClock();
let mediaDir: string;
let owner: Actor;
let orgId: string;
let roleId: (name: string) => string;
const platform: Record<string, string> = {};

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function createPost(
  actor: Actor,
  fields: Record<string, string | undefined>,
  files: FilePart[] = [],
  org = orgId,
) {
  const body = await multipart(fields, files);
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
const image = async (name = 'photo.jpg', w = 640, h = 480): Promise<FilePart> => ({
  name,
  type: 'image/jpeg',
  data: await jpeg(w, h),
});

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-posts-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { now: clock.now },
  );
  const org = await createOrg(t.app, 'owner@posts.test', 'Posting Co');
  owner = org.owner;
  orgId = org.orgId;
  roleId = org.roleId;
  for (const slug of ['x', 'threads']) {
    const done = await connectThroughSandbox(t.app, owner, slug, orgId);
    expect(done).toContain('connected=');
  }
  const supported = await owner.call('GET', '/api/platforms/supported');
  for (const p of supported.body.data.platforms as Array<{ id: string; name: string }>) {
    platform[p.name] = p.id;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('creating posts', () => {
  it('schedules a post with customized text and an image, measured and served by a signed URL', async () => {
    const scheduledAt = inAnHour();
    const res = await createPost(
      owner,
      {
        platformIds: JSON.stringify([platform.X, platform.Threads]),
        content: JSON.stringify({
          default: 'Launch day',
          [platform.X!]: 'Launch day on X #herald',
          [platform.Threads!]: 'Launch day on Threads',
        }),
        scheduledAt,
      },
      [await image('launch.jpg', 800, 600)],
    );
    expect(res.status).toBe(201);
    const post = res.body.data.post;
    expect(post.status).toBe('scheduled');
    expect(post.scheduledAt).toBe(scheduledAt);
    expect(post.content).toEqual({
      default: 'Launch day',
      [platform.X!]: 'Launch day on X #herald',
      [platform.Threads!]: 'Launch day on Threads',
    });
    expect(post.platforms.map((p: { name: string }) => p.name).sort()).toEqual(['Threads', 'X']);
    expect(post.platformPosts.every((p: { status: string }) => p.status === 'QUEUED')).toBe(true);
    expect(post.creator.id).toBe(owner.userId);
    expect(post.media).toHaveLength(1);
    expect(post.media[0]).toMatchObject({
      fileName: 'launch.jpg',
      mimeType: 'image/jpeg',
      kind: 'image',
      width: 800,
      height: 600,
      platformIds: null,
    });

    const url = new URL(post.media[0].mediaUrl);
    const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const again = await owner.call('GET', `/api/organizations/${orgId}/posts/${post.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.post.id).toBe(post.id);
  });

  it('keeps platform-specific files for their platform only', async () => {
    const res = await createPost(
      owner,
      {
        platformIds: JSON.stringify([platform.X, platform.Threads]),
        content: 'Two pictures',
        platformMedia: JSON.stringify({ [platform.X!]: [1] }),
        action: 'draft',
      },
      [
        await image('shared.jpg'),
        { name: 'x-only.png', type: 'image/png', data: await png(400, 400) },
      ],
    );
    expect(res.status).toBe(201);
    const media = res.body.data.post.media;
    expect(media.map((m: { fileName: string }) => m.fileName)).toEqual([
      'shared.jpg',
      'x-only.png',
    ]);
    expect(media[1].platformIds).toEqual([platform.X]);
    expect(res.body.data.post.status).toBe('draft');
    expect(res.body.data.post.scheduledAt).toBeNull();
  });

  it('accepts a video and measures its duration', async () => {
    const res = await createPost(
      owner,
      { platformIds: JSON.stringify([platform.X]), content: 'Clip', action: 'draft' },
      [
        {
          name: 'clip.mp4',
          type: 'video/mp4',
          data: await mp4({ seconds: 2, width: 320, height: 240 }),
        },
      ],
    );
    expect(res.status).toBe(201);
    const [video] = res.body.data.post.media;
    expect(video).toMatchObject({ kind: 'video', mimeType: 'video/mp4', width: 320, height: 240 });
    expect(video.durationSec).toBeGreaterThan(1.5);
    expect(video.durationSec).toBeLessThan(2.5);
    expect(video.thumbnailUrl).toEqual(expect.stringContaining('/api/media/'));
  });
});

describe('refusing bad input, leaving nothing behind', () => {
  async function expectRefused(
    fields: Record<string, string | undefined>,
    files: FilePart[],
    message: string | RegExp,
  ) {
    const before = await owner.call('GET', `/api/organizations/${orgId}/posts?page=1&pageSize=1`);
    const filesBefore = await filesIn(mediaDir);
    const res = await createPost(owner, fields, files);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    const after = await owner.call('GET', `/api/organizations/${orgId}/posts?page=1&pageSize=1`);
    expect(after.body.meta.totalCount).toBe(before.body.meta.totalCount);
    expect(await filesIn(mediaDir)).toEqual(filesBefore);
    return res.body;
  }
  const toX = { platformIds: '', content: 'Hello', action: 'draft' };
  beforeAll(() => {
    toX.platformIds = JSON.stringify([platform.X]);
  });

  it('a multipart body that breaks off, with a file or without', async () => {
    const truncated = [
      '--zz\r\nbroken',
      `--zz\r\nContent-Disposition: form-data; name="platformIds"\r\n\r\n${toX.platformIds}\r\n--zz\r\nContent-Disposition: form-data; name="media"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff`,
    ];
    const before = await owner.call('GET', `/api/organizations/${orgId}/posts?page=1&pageSize=1`);
    for (const payload of truncated) {
      const res = await send(t.app, owner.jar, {
        method: 'POST',
        url: `/api/organizations/${orgId}/post`,
        headers: { 'content-type': 'multipart/form-data; boundary=zz', origin: TEST_PUBLIC_URL },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 'error', code: 'BAD_REQUEST' });
      expect(res.json().message).toMatch(/multipart/);
    }
    const after = await owner.call('GET', `/api/organizations/${orgId}/posts?page=1&pageSize=1`);
    expect(after.body.meta.totalCount).toBe(before.body.meta.totalCount);
  });

  it('a .jpg whose bytes are a PDF', async () => {
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    await expectRefused(
      toX,
      [await image('ok.jpg'), { name: 'holiday.jpg', type: 'image/jpeg', data: pdf }],
      /holiday\.jpg/,
    );
  });

  it('more files than the network takes in one post, or than any network takes', async () => {
    const one = await image('p.jpg', 320, 320);
    const photos = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...one, name: `p${i}.jpg` }));
    await expectRefused(toX, photos(5), 'Media validation failed for X.');
    await expectRefused(toX, photos(36), 'You can upload a maximum of 35 files');
  });

  it('empty text for one platform in per-platform mode', async () => {
    await expectRefused(
      {
        platformIds: JSON.stringify([platform.X, platform.Threads]),
        content: JSON.stringify({ default: '', [platform.X!]: 'Only X has text' }),
        action: 'draft',
      },
      [],
      `Content for platform ID ${platform.Threads} is required`,
    );
  });

  it('text over X’s limit, counted the way X counts', async () => {
    // 257 characters plus a long URL counted as 23: 281 weighted characters.
    const text = `${'a'.repeat(257)} https://example.com/${'b'.repeat(200)}`;
    await expectRefused({ ...toX, content: text }, [], /too long for X: 281 of 280/);
    const fits = `${'a'.repeat(256)} https://example.com/${'b'.repeat(200)}`;
    const ok = await createPost(owner, { ...toX, content: fits });
    expect(ok.status).toBe(201);
  });

  it('media a platform does not accept, as platformValidationErrors', async () => {
    const body = await expectRefused(
      { ...toX, platformIds: JSON.stringify([platform.Threads]) },
      [{ name: 'pic.webp', type: 'image/webp', data: await webp(400, 400) }],
      'Media validation failed for Threads.',
    );
    expect(body.details.platformValidationErrors).toEqual([
      {
        platformName: 'Threads',
        message: 'pic.webp: File type image/webp not allowed. Use: image/jpeg, image/png',
      },
    ]);
  });

  it('more images than X takes in one post', async () => {
    const one = await image();
    const body = await expectRefused(
      toX,
      Array.from({ length: 5 }, (_, i) => ({ ...one, name: `p${i}.jpg` })),
      'Media validation failed for X.',
    );
    expect(body.details.platformValidationErrors[0].message).toMatch(/at most 4/);
  });

  it('a time in the past or not a time at all', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    await expectRefused({ ...toX, action: undefined, scheduledAt: past }, [], /already passed/);
    await expectRefused(
      { ...toX, action: 'schedule', scheduledAt: 'next tuesday' },
      [],
      /scheduledAt/,
    );
  });

  it('a platform the organization has not connected, and content that is not text', async () => {
    await expectRefused(
      { ...toX, platformIds: JSON.stringify([platform.Instagram]) },
      [await image()],
      /not connected to this organization/,
    );
    await expectRefused({ ...toX, content: '{"default": 1}' }, [], /content must be text/);
    await expectRefused({ ...toX, platformIds: 'X' }, [], /platformIds must be JSON/);
  });
});

describe('listing, editing and deleting', () => {
  let listOrg: string;
  let lister: Actor;
  let xId: string;
  const created: string[] = [];

  beforeAll(async () => {
    const org = await createOrg(t.app, 'lister@posts.test', 'Listing Co');
    lister = org.owner;
    listOrg = org.orgId;
    await connectThroughSandbox(t.app, lister, 'x', listOrg);
    xId = platform.X!;
    const base = Date.now() + 2 * 86_400_000;
    const specs = [
      { content: 'Summer SALE starts', scheduledAt: new Date(base).toISOString() },
      { content: 'Winter news', scheduledAt: new Date(base + 86_400_000).toISOString() },
      { content: 'A draft about the sale', action: 'draft' },
      { content: 'Another draft', action: 'draft', title: 'Winter LATTE launch' },
      { content: '50% off everything', action: 'draft' },
    ];
    for (const spec of specs) {
      const res = await createPost(
        lister,
        { platformIds: JSON.stringify([xId]), ...spec },
        [],
        listOrg,
      );
      expect(res.status).toBe(201);
      created.push(res.body.data.post.id);
    }
  });

  const list = (query: string) =>
    lister.call('GET', `/api/organizations/${listOrg}/posts${query}`).then((r) => r.body);

  it('filters by status, searches text case-insensitively, and pages with a total', async () => {
    expect((await list('?status=draft')).data.posts).toHaveLength(3);
    const sale = await list('?q=sale');
    expect(sale.data.posts.map((p: { content: string }) => p.content).sort()).toEqual([
      'A draft about the sale',
      'Summer SALE starts',
    ]);
    expect((await list('?q=50%25')).data.posts).toHaveLength(1);
    // The title is searched too, also case-insensitively.
    const latte = await list('?q=latte');
    expect(latte.data.posts.map((p: { content: string }) => p.content)).toEqual(['Another draft']);
    expect(latte.data.posts[0].title).toBe('Winter LATTE launch');
    const page1 = await list('?page=1&pageSize=2');
    const page3 = await list('?page=3&pageSize=2');
    expect(page1.meta).toEqual({ page: 1, pageSize: 2, totalCount: 5 });
    expect(page1.data.posts).toHaveLength(2);
    expect(page3.data.posts).toHaveLength(1);
    // Newest first.
    expect(page1.data.posts[0].content).toBe('50% off everything');
  });

  it('reads a page, filtered or not, in one statement (the posts, their relations and the total); a page past the end counts apart, unless the total is known', async () => {
    // The clock stands still: on a slow machine, the cached total would otherwise be read again
    // in the background (an extra count) or expire between these requests.
    vi.useFakeTimers({ toFake: ['Date'] });
    forgetPostTotals();
    const { statements, stop } = recordStatements(t.database.db);
    const perRequest: number[] = [];
    const totals: number[] = [];
    try {
      for (const query of [
        '?page=1&pageSize=2',
        '?status=draft',
        `?platformId=${xId}&q=sale`,
        '?page=500&pageSize=2',
        '?status=draft&page=500&pageSize=2',
      ]) {
        statements.length = 0;
        const body = await list(query);
        expect(body.data.posts.length > 0).toBe(!query.includes('page=500'));
        totals.push(body.meta.totalCount);
        // (On PGlite a hot read is PREPAREd once per database, then EXECUTEd: one statement.)
        perRequest.push(
          statements.filter(
            (s) => /"post(s|_targets|_media)"|^execute posts_/.test(s) && !/^prepare /.test(s),
          ).length,
        );
      }
    } finally {
      stop();
      vi.useRealTimers();
    }
    // The unfiltered total, read with the first page, is reused for the page past the end.
    expect(perRequest).toEqual([1, 1, 1, 1, 2]);
    // Past the end, the total is still the one the first page gave.
    expect(totals[3]).toBe(totals[0]);
    expect(totals[4]).toBe(totals[1]);
    expect(totals[0]).toBeGreaterThan(2);
  });

  it('maps the unfiltered page (rows read as arrays) exactly as drizzle maps a filtered one', async () => {
    // The first describe's posts: files, two networks, per-network texts, a title, drafts.
    const every = POST_STATUSES.join(',');
    const read = (query: string) =>
      owner.call('GET', `/api/organizations/${orgId}/posts${query}`).then((r) => r.body);
    const unfiltered = await read('?page=1&pageSize=50');
    const filtered = await read(`?status=${every}&page=1&pageSize=50`);
    expect(unfiltered.data.posts.length).toBeGreaterThan(2);
    expect(unfiltered.data.posts.some((p: { media: unknown[] }) => p.media.length > 0)).toBe(true);
    expect(unfiltered.data.posts).toEqual(filtered.data.posts);
    expect(unfiltered.meta.totalCount).toBe(filtered.meta.totalCount);
    for (const post of unfiltered.data.posts as Array<{ createdAt: string; creator: unknown }>) {
      expect(post.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(post.creator).toEqual({ id: expect.any(String), displayName: expect.anything() });
    }
  });

  it('counts a post created or deleted at once, though the total is reused for a moment', async () => {
    const before = (await list('?page=1&pageSize=2')).meta.totalCount;
    expect((await list('?page=2&pageSize=2')).meta.totalCount).toBe(before);
    const res = await createPost(
      lister,
      { platformIds: JSON.stringify([xId]), content: 'Counted at once', action: 'draft' },
      [],
      listOrg,
    );
    expect(res.status).toBe(201);
    expect((await list('?page=1&pageSize=2')).meta.totalCount).toBe(before + 1);
    const id = res.body.data.post.id;
    const removed = await lister.call('DELETE', `/api/organizations/${listOrg}/posts/${id}`);
    expect(removed.status).toBeLessThan(300);
    expect((await list('?page=1&pageSize=2')).meta.totalCount).toBe(before);
  });

  it('shows each post by its creator’s current name: renamed here at once, elsewhere within a moment', async () => {
    const creators = async (query = '?page=1&pageSize=3') =>
      ((await list(query)).data.posts as Array<{ creator: unknown }>).map((p) => p.creator);
    const renamed = (displayName: string) => ({ id: lister.userId, displayName });
    expect((await creators()).length).toBe(3);
    const renaming = await lister.call('PUT', `/api/users/${lister.userId}`, {
      displayName: 'Lena Lister',
    });
    expect(renaming.status).toBe(200);
    expect(await creators()).toEqual(Array(3).fill(renamed('Lena Lister')));
    // Filtered pages read the creator the same way.
    expect(await creators('?status=draft&page=1&pageSize=2')).toEqual(
      Array(2).fill(renamed('Lena Lister')),
    );

    // Another process renames the person: seen once the name's moment has passed.
    await t.database.db
      .update(users)
      .set({ displayName: 'L. Lister' })
      .where(eq(users.id, lister.userId));
    await new Promise((resolve) => setTimeout(resolve, CREATOR_NAMES_TTL_MS + 50));
    expect(await creators()).toEqual(Array(3).fill(renamed('L. Lister')));
  });

  it('returns a calendar range by scheduled time, else creation time', async () => {
    const base = Date.now() + 2 * 86_400_000;
    const from = new Date(base - 3600_000).toISOString();
    const to = new Date(base + 3600_000).toISOString();
    const range = await list(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(range.data.posts.map((p: { content: string }) => p.content)).toEqual([
      'Summer SALE starts',
    ]);
  });

  it('lists the posts without a time apart, for the calendar’s Unscheduled tray', async () => {
    const undated = await list('?unscheduled=true');
    expect(undated.data.posts.map((p: { content: string }) => p.content).sort()).toEqual([
      '50% off everything',
      'A draft about the sale',
      'Another draft',
    ]);
    expect((await list('?unscheduled=false')).data.posts).toHaveLength(5);
    const bad = await lister.call('GET', `/api/organizations/${listOrg}/posts?unscheduled=maybe`);
    expect(bad.status).toBe(400);
  });

  it('keeps other organizations out', async () => {
    const res = await owner.call('GET', `/api/organizations/${orgId}/posts/${created[0]}`);
    expect(res.status).toBe(404);
    const foreign = await owner.call('GET', `/api/organizations/${listOrg}/posts`);
    expect(foreign.status).toBe(403);
  });

  it('edits text, reschedules, returns to draft, and refuses the past', async () => {
    const id = created[0]!;
    const path = `/api/organizations/${listOrg}/posts/${id}`;
    const edited = await lister.call('PUT', path, { content: 'Summer sale starts Monday' });
    expect(edited.status).toBe(200);
    expect(edited.body.data.post.content).toBe('Summer sale starts Monday');
    expect(edited.body.data.post.status).toBe('scheduled');

    const later = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const moved = await lister.call('PUT', path, { scheduledAt: later });
    expect(moved.body.data.post.scheduledAt).toBe(later);

    const past = await lister.call('PUT', path, {
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect((await lister.call('GET', path)).body.data.post.scheduledAt).toBe(later);

    const tooLong = await lister.call('PUT', path, { content: 'x'.repeat(281) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/too long for X/);

    const draft = await lister.call('PUT', path, { scheduledAt: null });
    expect(draft.body.data.post).toMatchObject({ status: 'draft', scheduledAt: null });

    const empty = await lister.call('PUT', path, {});
    expect(empty.status).toBe(400);
  });

  it('refuses to edit a published post or delete one being published', async () => {
    const id = created[1]!;
    const path = `/api/organizations/${listOrg}/posts/${id}`;
    await t.database.db.execute(
      sql`update posts set status = 'published', published_at = now() where id = ${id}`,
    );
    const edit = await lister.call('PUT', path, { content: 'changed' });
    expect(edit.status).toBe(409);
    await t.database.db.execute(sql`update posts set status = 'publishing' where id = ${id}`);
    const del = await lister.call('DELETE', path);
    expect(del.status).toBe(409);
    expect((await lister.call('GET', path)).status).toBe(200);
  });

  it('deletes a post; its files stay in the media library until they are deleted there', async () => {
    const res = await createPost(
      lister,
      { platformIds: JSON.stringify([xId]), content: 'With a file', action: 'draft' },
      [await image('bye.jpg', 642, 482)],
      listOrg,
    );
    const before = await filesIn(mediaDir);
    const id = res.body.data.post.id;
    const del = await lister.call('DELETE', `/api/organizations/${listOrg}/posts/${id}`);
    expect(del.status).toBe(200);
    expect((await lister.call('GET', `/api/organizations/${listOrg}/posts/${id}`)).status).toBe(
      404,
    );
    expect(await filesIn(mediaDir)).toEqual(before);
    const unused = await lister.call('GET', `/api/organizations/${listOrg}/media?unused=true`);
    const item = unused.body.data.items.find((i: { fileName: string }) => i.fileName === 'bye.jpg');
    const gone = await lister.call('DELETE', `/api/organizations/${listOrg}/media/${item.id}`);
    expect(gone.status).toBe(200);
    const after = await filesIn(mediaDir);
    expect(before.length - after.length).toBeGreaterThanOrEqual(2);
  });

  it('shows real numbers on the dashboard', async () => {
    const dash = await lister.call('GET', `/api/organizations/${listOrg}/dashboard`);
    expect(dash.body.data.postCounts.total).toBeGreaterThanOrEqual(5);
    expect(dash.body.data.posts).toHaveLength(2);
  });
});

describe('who may post', () => {
  it('needs post:create, a subscription, and room in the plan for today', async () => {
    const { actor: support } = await addMember(t.app, owner, orgId, 'support@posts.test', {
      roleId: roleId('CustomerSupport'),
    });
    const refused = await createPost(support, {
      platformIds: JSON.stringify([platform.X]),
      content: 'hi',
    });
    expect(refused.status).toBe(403);

    const noPlan = await createOrg(t.app, 'noplan@posts.test', 'No Plan', { trial: null });
    const gated = await createPost(
      noPlan.owner,
      { platformIds: JSON.stringify([platform.X]), content: 'hi' },
      [],
      noPlan.orgId,
    );
    expect(gated.status).toBe(403);
    expect(gated.body.message).toContain('No active subscription');

    const starter = await createOrg(t.app, 'starter@posts.test', 'Starter Co', {
      trial: 'Starter',
    });
    await connectThroughSandbox(t.app, starter.owner, 'x', starter.orgId);
    const fields = { platformIds: JSON.stringify([platform.X]), content: 'daily', action: 'draft' };
    // Today is the day this part starts, even if midnight passes during it.
    clock.hold();
    onTestFinished(() => clock.release());
    for (let i = 0; i < 10; i += 1) {
      expect((await createPost(starter.owner, fields, [], starter.orgId)).status).toBe(201);
    }
    const over = await createPost(starter.owner, fields, [], starter.orgId);
    expect(over.status).toBe(403);
    expect(over.body.message).toMatch(/Starter plan allows 10 posts per day/);
  });
});

describe('the accounts a listed post shows', () => {
  it('in order of network, then account name, each with its current name; an account new or renamed elsewhere shows', async () => {
    const { owner: poster, orgId: org } = await createOrg(t.app, 'order@posts.test', 'Order Co');
    for (const [slug, account] of [
      ['x', 'zed'],
      ['threads', 'bob'],
      ['x', 'amy'],
    ] as const) {
      expect(await connectThroughSandbox(t.app, poster, slug, org, { account })).toContain(
        'connected=',
      );
    }
    const db = t.database.db;
    const accounts = await db
      .select({ id: integrations.id, name: integrations.name, platformId: integrations.platformId })
      .from(integrations)
      .where(eq(integrations.organizationId, org))
      .orderBy(asc(integrations.connectedAt));
    expect(accounts.map((a) => a.name)).toEqual(['zed', 'bob', 'amy']);
    const created = await createPost(
      poster,
      {
        integrationIds: JSON.stringify(accounts.map((a) => a.id)),
        content: 'To three accounts',
        action: 'draft',
      },
      [],
      org,
    );
    expect(created.status).toBe(201);
    const shown = async () => {
      const [post] = (await listPosts(db, org, {}, { limit: 1, offset: 0 })).rows;
      return post!.targets.map((x) => `${x.platformName}:${x.liveName}:${x.accountStatus}`);
    };
    const listed = await poster.call('GET', `/api/organizations/${org}/posts?page=1&pageSize=1`);
    expect(
      listed.body.data.posts[0].accounts.map(
        (a: { platformName: string; name: string }) => `${a.platformName}:${a.name}`,
      ),
    ).toEqual(['Threads:bob', 'X:amy', 'X:zed']);
    expect(await shown()).toEqual(['Threads:bob:CONNECTED', 'X:amy:CONNECTED', 'X:zed:CONNECTED']);

    // Another process renames an account and marks one expired: seen within a moment.
    await db
      .update(integrations)
      .set({ name: 'Amy B' })
      .where(eq(integrations.id, accounts[2]!.id));
    await db
      .update(integrations)
      .set({ status: 'REFRESH_FAILED' })
      .where(eq(integrations.id, accounts[0]!.id));
    await new Promise((resolve) => setTimeout(resolve, TARGET_NAMES_TTL_MS + 50));
    expect(await shown()).toEqual([
      'Threads:bob:CONNECTED',
      'X:Amy B:CONNECTED',
      'X:zed:REFRESH_FAILED',
    ]);

    // Another process connects an account and points a target at it: shown at once.
    const [copy] = await db
      .insert(integrations)
      .select(
        db
          .select({
            ...getTableColumns(integrations),
            id: sql`gen_random_uuid()`.as('id'),
            name: sql`'aaron'`.as('name'),
            platformAccountId: sql`'aaron-1'`.as('platform_account_id'),
          })
          .from(integrations)
          .where(eq(integrations.id, accounts[0]!.id)),
      )
      .returning({ id: integrations.id });
    await db
      .update(postTargets)
      .set({ integrationId: copy!.id, accountName: 'aaron' })
      .where(eq(postTargets.integrationId, accounts[0]!.id));
    expect(await shown()).toEqual([
      'Threads:bob:CONNECTED',
      'X:aaron:REFRESH_FAILED',
      'X:Amy B:CONNECTED',
    ]);

    // This process reconnects or refreshes an account (the network's callback and the refresh
    // are GET requests, which forget nothing): shown at once.
    await updateIntegration(db, accounts[1]!.id, { name: 'Bob R' });
    expect((await shown())[0]).toBe('Threads:Bob R:CONNECTED');
  });
});
