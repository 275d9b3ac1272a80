import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaStore } from '../../media/media-store.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { editPost } from './posts.edit.js';
import { parseEditFields } from './post-fields.js';

/** Editing everything of a post that is not yet out. */
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let orgId: string;
let roleId: (name: string) => string;
const account: Record<string, string> = {};

interface Target {
  id: string;
  platformName: string;
  integrationId: string | null;
  status: string;
  dueAt: string | null;
}
interface Media {
  id: string;
  fileName: string;
  platformIds: string[] | null;
}
interface PostDto {
  id: string;
  title: string | null;
  status: string;
  content: string | Record<string, string>;
  scheduledAt: string | null;
  accounts: Array<{ id: string | null }>;
  platformPosts: Target[];
  media: Media[];
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const image = async (name: string, w = 640, h = 480): Promise<FilePart> => ({
  name,
  type: 'image/jpeg',
  data: await jpeg(w, h),
});

async function submit(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string | undefined>,
  files: FilePart[] = [],
  actor = owner,
) {
  const body = await multipart(fields, files);
  const res = await send(t.app, actor.jar, {
    method,
    url,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

async function create(fields: Record<string, string | undefined>, files: FilePart[] = []) {
  const res = await submit('POST', `/api/organizations/${orgId}/post`, fields, files);
  expect(res.status).toBe(201);
  return res.body.data.post as PostDto;
}

const edit = (
  postId: string,
  fields: Record<string, string | undefined>,
  files: FilePart[] = [],
  actor = owner,
) => submit('PUT', `/api/organizations/${orgId}/post/${postId}`, fields, files, actor);

const getPost = async (id: string): Promise<PostDto> =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${id}`)).body.data.post;

const targetOf = (post: PostDto, integrationId: string) =>
  post.platformPosts.find((p) => p.integrationId === integrationId);

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const all = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** What the X sandbox published from one account (texts and media counts). */
async function publishedBy(username: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/sandbox/x/_emu/posts?account=${username}`,
    headers: { cookie: owner.jar.header() },
  });
  expect(res.statusCode).toBe(200);
  return res.json().posts as Array<{ text: string; mediaCount: number }>;
}

async function connect(slug: string, username?: string) {
  const done = await connectThroughSandbox(
    t.app,
    owner,
    slug,
    orgId,
    username ? { account: username } : {},
  );
  expect(done).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string; platform: { name: string }; metadata: { username: string } }>;
  return list.find(
    (i) =>
      (username ? i.metadata.username === username : true) &&
      i.platform.name.toLowerCase() === slug,
  )!.id;
}

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-edit-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { jobs: 'all', queues: [PUBLISH_QUEUE] },
  );
  ({ owner, orgId, roleId } = await createOrg(t.app, 'edit@posts.test', 'Editing Co'));
  account.first = await connect('x', 'edit_first');
  account.second = await connect('x', 'edit_second');
  account.threads = await connect('threads');
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('editing a scheduled post', () => {
  it('changes accounts, texts, media, title and time, moves the jobs, and publishes as edited', async () => {
    const post = await create(
      {
        integrationIds: JSON.stringify([account.first, account.threads]),
        content: 'Before the edit',
        scheduledAt: inHours(2),
      },
      [await image('old.jpg')],
    );
    const oldFile = post.media[0]!;
    const storedBefore = await filesIn(join(mediaDir, 'store'));
    const firstTarget = targetOf(post, account.first!)!;
    const threadsTarget = targetOf(post, account.threads!)!;
    const [oldJob] = await all<{ job_id: string }>(
      sql`select job_id from post_targets where id = ${firstTarget.id}`,
    );
    expect(oldJob?.job_id).toBeTruthy();

    const later = inHours(5);
    const res = await edit(
      post.id,
      {
        integrationIds: JSON.stringify([account.second, account.threads]),
        content: JSON.stringify({
          default: 'After the edit',
          [account.threads!]: 'After the edit, on Threads',
        }),
        title: 'Edited launch',
        scheduledAt: later,
        keepMediaIds: JSON.stringify([]),
      },
      [await image('new.jpg', 800, 600)],
    );
    expect(res.status).toBe(200);
    const edited = res.body.data.post as PostDto;
    expect(edited).toMatchObject({
      status: 'scheduled',
      scheduledAt: later,
      title: 'Edited launch',
    });
    expect(edited.content).toEqual({
      default: 'After the edit',
      [account.threads!]: 'After the edit, on Threads',
    });
    expect(edited.accounts.map((a) => a.id).sort()).toEqual(
      [account.second, account.threads].sort(),
    );
    // The Threads target is the same row, moved; the first X account's is gone.
    expect(targetOf(edited, account.threads!)).toMatchObject({
      id: threadsTarget.id,
      status: 'QUEUED',
      dueAt: later,
    });
    expect(targetOf(edited, account.second!)).toMatchObject({ status: 'QUEUED', dueAt: later });
    expect(targetOf(edited, account.first!)).toBeUndefined();
    expect(edited.media.map((m) => m.fileName)).toEqual(['new.jpg']);
    expect(edited.media[0]!.id).not.toBe(oldFile.id);

    // The removed file stays in the media library (docs/media-library.md); the new one is added.
    const storedAfter = await filesIn(join(mediaDir, 'store'));
    expect(storedAfter.length).toBeGreaterThan(storedBefore.length);
    expect(storedAfter).toEqual(expect.arrayContaining(storedBefore));

    // The removed target's job is cancelled; the remaining targets' jobs wait for the new time.
    const [cancelled] = await all<{ state: string }>(
      sql`select state from pgboss.job where id = ${oldJob!.job_id}::uuid`,
    );
    expect(cancelled?.state).toBe('cancelled');
    const waiting = await all<{ start_after: Date }>(
      sql`select j.start_after from pgboss.job j join post_targets pt on pt.job_id = j.id
          where pt.post_id = ${post.id} and j.state = 'created'`,
    );
    expect(waiting).toHaveLength(2);
    for (const job of waiting) expect(new Date(job.start_after).toISOString()).toBe(later);

    // Published now, it goes out as edited: from the second X account, with the new file.
    const out = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('success');
    expect(await publishedBy('edit_second')).toEqual([
      expect.objectContaining({ text: 'After the edit', mediaCount: 1 }),
    ]);
    expect((await publishedBy('edit_first')).map((p) => p.text)).not.toContain('After the edit');
    expect((await publishedBy('edit_first')).map((p) => p.text)).not.toContain('Before the edit');
  }, 60_000);

  it('keeps stored files by id, in the new order, shared or for one account', async () => {
    const post = await create(
      {
        integrationIds: JSON.stringify([account.first, account.threads]),
        content: 'Three files',
        action: 'draft',
      },
      [await image('a.jpg'), await image('b.jpg'), await image('c.jpg')],
    );
    const [a, b, c] = post.media as [Media, Media, Media];
    const res = await edit(
      post.id,
      {
        integrationIds: JSON.stringify([account.first, account.threads]),
        content: 'Three files',
        action: 'draft',
        keepMediaIds: JSON.stringify([c.id, a.id]),
        platformMedia: JSON.stringify({ [account.threads!]: [a.id, 0] }),
      },
      [await image('d.jpg')],
    );
    expect(res.status).toBe(200);
    const edited = res.body.data.post as PostDto;
    expect(edited.status).toBe('draft');
    expect(edited.media.map((m) => [m.fileName, m.platformIds])).toEqual([
      ['c.jpg', null],
      ['a.jpg', [account.threads]],
      ['d.jpg', [account.threads]],
    ]);
    expect(edited.media.map((m) => m.id).slice(0, 2)).toEqual([c.id, a.id]);
    expect(edited.media.some((m) => m.id === b.id)).toBe(false);
  });

  it('answers 400 with a sentence for what creating refuses, and changes nothing', async () => {
    const post = await create(
      {
        integrationIds: JSON.stringify([account.first]),
        content: 'Short and fine',
        scheduledAt: inHours(3),
      },
      [await image('keep.jpg')],
    );
    const storedBefore = await filesIn(join(mediaDir, 'store'));
    const cases: Array<[Record<string, string>, FilePart[], RegExp]> = [
      [{ content: 'x'.repeat(281) }, [], /X/],
      [
        { content: 'Fine', scheduledAt: new Date(Date.now() - 60_000).toISOString() },
        [],
        /already passed/,
      ],
      [{ content: 'Fine', keepMediaIds: JSON.stringify([post.id]) }, [], /not part of this post/],
      [{ content: 'Fine', integrationIds: JSON.stringify([]) }, [], /Select at least one account/],
      // X takes at most 4 images: checked with the files, after the upload.
      [
        { content: 'Fine', keepMediaIds: JSON.stringify([post.media[0]!.id]) },
        await Promise.all(['1', '2', '3', '4'].map((n) => image(`extra${n}.jpg`))),
        /X/,
      ],
    ];
    for (const [fields, files, message] of cases) {
      const res = await edit(
        post.id,
        {
          integrationIds: JSON.stringify([account.first]),
          scheduledAt: inHours(4),
          ...fields,
        },
        files,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
      expect(res.body.message).toMatch(/[.!]$/);
    }
    // Nothing half-written: the post, its files and storage are as before.
    const after = await getPost(post.id);
    expect(after).toMatchObject({ content: 'Short and fine', scheduledAt: post.scheduledAt });
    expect(after.media.map((m) => m.id)).toEqual([post.media[0]!.id]);
    expect(await filesIn(join(mediaDir, 'store'))).toEqual(storedBefore);
  });

  it('rolls everything back when a step inside the transaction fails', async () => {
    const post = await create(
      {
        integrationIds: JSON.stringify([account.first]),
        content: 'Stays whole',
        scheduledAt: inHours(3),
      },
      [await image('whole.jpg')],
    );
    const failing = {
      db: t.database.db,
      media: { remove: async () => {}, signedUrl: () => '' } as unknown as MediaStore,
      now: () => new Date(),
      lifecycle: {
        unscheduled: async () => {},
        scheduled: async () => {
          throw new Error('queue down');
        },
      },
    };
    await expect(
      editPost(
        failing,
        { organizationId: orgId, userId: owner.userId },
        post.id,
        parseEditFields({
          integrationIds: JSON.stringify([account.second, account.threads]),
          content: 'Half written?',
          scheduledAt: inHours(6),
          keepMediaIds: '[]',
        }),
        [],
      ),
    ).rejects.toThrow('queue down');
    const after = await getPost(post.id);
    expect(after.content).toBe('Stays whole');
    expect(after.scheduledAt).toBe(post.scheduledAt);
    expect(after.accounts.map((a) => a.id)).toEqual([account.first]);
    expect(after.media.map((m) => m.id)).toEqual([post.media[0]!.id]);
  });

  it('needs post:edit', async () => {
    const post = await create({
      integrationIds: JSON.stringify([account.first]),
      content: 'Not yours to edit',
      action: 'draft',
    });
    const { actor: viewer } = await addMember(t.app, owner, orgId, 'viewer@posts.test', {
      roleId: roleId('CustomerSupport'),
    });
    const res = await edit(
      post.id,
      { integrationIds: JSON.stringify([account.first]), content: 'Changed' },
      [],
      viewer,
    );
    expect(res.status).toBe(403);
    expect((await getPost(post.id)).content).toBe('Not yours to edit');
  });
});

describe('editing a partially published post', () => {
  it('edits only the accounts not yet out, keeping what went out as it went', async () => {
    const post = await create(
      {
        integrationIds: JSON.stringify([account.first, account.threads]),
        content: 'Out on X first',
        scheduledAt: inHours(2),
      },
      [await image('went-out.jpg')],
    );
    const out = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(out.body.status).toBe('success');
    expect((await getPost(post.id)).status).toBe('partially_published');
    const fileId = post.media[0]!.id;
    const base = {
      integrationIds: JSON.stringify([account.first, account.threads]),
      scheduledAt: inHours(6),
    };

    const dropped = await edit(post.id, {
      ...base,
      integrationIds: JSON.stringify([account.threads]),
      content: 'Fine',
    });
    expect(dropped.status).toBe(409);
    expect(dropped.body.message).toBe(
      'This post already went out (or is going out) to X (published), so that account stays on it. Keep it selected and change the other accounts only.',
    );
    const retext = await edit(post.id, {
      ...base,
      content: JSON.stringify({ default: 'Fine', [account.first!]: 'Rewritten history' }),
    });
    expect(retext.status).toBe(409);
    expect(retext.body.message).toMatch(/^The text for X \(published\) cannot change/);
    const draft = await edit(post.id, { ...base, content: 'Fine', scheduledAt: undefined });
    expect(draft.status).toBe(409);
    expect(draft.body.message).toMatch(/cannot go back to draft/);

    // The shared text and the file change for Threads only; X keeps what it published.
    const later = inHours(6);
    const res = await edit(
      post.id,
      { ...base, scheduledAt: later, content: 'Threads gets the new words', keepMediaIds: '[]' },
      [await image('threads-only.jpg')],
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const edited = res.body.data.post as PostDto;
    expect(edited.status).toBe('partially_published');
    expect(edited.content).toEqual({
      default: 'Threads gets the new words',
      [account.first!]: 'Out on X first',
    });
    expect(edited.media.map((m) => [m.id === fileId ? 'kept' : m.fileName, m.platformIds])).toEqual(
      [
        ['threads-only.jpg', [account.threads]],
        ['kept', [account.first]],
      ],
    );
    expect(targetOf(edited, account.first!)!.status).toBe('PUBLISHED');
    expect(targetOf(edited, account.threads!)).toMatchObject({ status: 'QUEUED', dueAt: later });
    // X was published once, with the old words.
    expect(
      (await publishedBy('edit_first')).filter((p) => p.text === 'Out on X first'),
    ).toHaveLength(1);
  });
});
