import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { integrations, networkQuotaUsage, posts, postTargets } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { mp4 } from '../../test/media-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { emuInject } from '../../test/network-tests.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { pacificDay } from '../youtube/quota.js';
import { loadTarget } from './targets.repository.js';
import { countOverdueTargets } from '../health/metrics.repository.js';

/*
 * YouTube's own scheduling, end to end through the posts API, the publishing engine and the
 * YouTube emulator (docs/networks.md#youtube-publishing): the video is uploaded when the post is
 * scheduled, follows the post until its time, and is published then without a second upload.
 */

let t: TestApp;
let mediaDir: string;
let owner: Actor;
let orgId: string;
let channelId: string;
/** A second YouTube channel of the organization, for a post that goes to two. */
let secondChannelId: string;
/** An X account beside it, for a post that goes to both. */
let xId: string;
/** Herald's clock runs this far ahead of the machine's, as the emulator's does once advanced. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const base = () => `/api/organizations/${orgId}`;
const inHours = (hours: number) => new Date(now().getTime() + hours * 3600_000);

const settings = (title: string, extra: object = {}, channel = channelId) => ({
  [channel]: {
    title,
    tags: ['walk'],
    categoryId: '19',
    privacyStatus: 'public',
    madeForKids: false,
    notifySubscribers: true,
    scheduleOnYouTube: true,
    ...extra,
  },
});

interface EmuVideo {
  id: string;
  title: string;
  description: string;
  privacyStatus: string;
  publishAt: string | null;
}

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'youtube', method, path, payload)).json();

async function videosOf(title: string): Promise<EmuVideo[]> {
  const { videos } = (await emu('GET', 'videos')) as { videos: EmuVideo[] };
  return videos.filter((v) => v.title === title);
}

/** Moves the emulator's clock and Herald's together. */
async function advance(seconds: number) {
  await emu('POST', 'clock', { advance_seconds: seconds });
  offsetMs += seconds * 1000;
}

/** `first`: the YouTube channel whose target is `targetId`. */
async function schedule(
  title: string,
  at: Date | null,
  extra: object = {},
  alsoTo: string[] = [],
  first = channelId,
) {
  const youtube = {
    ...settings(title, extra, first),
    ...(alsoTo.includes(secondChannelId) ? settings(title, extra, secondChannelId) : {}),
  };
  const body = await multipart(
    {
      integrationIds: JSON.stringify([first, ...alsoTo]),
      content: `${title}: down the park and back.`,
      ...(at ? { action: 'schedule', scheduledAt: at.toISOString() } : { action: 'draft' }),
      youtube: JSON.stringify(youtube),
    },
    [{ name: 'walk.mp4', type: 'video/mp4', data: await mp4({ seconds: 1 }) }],
  );
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `${base()}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  const post = res.json().data.post as {
    id: string;
    platformPosts: Array<{ id: string; integrationId: string }>;
    media: Array<{ id: string }>;
  };
  const target = post.platformPosts.find((p) => p.integrationId === first)!;
  const second = post.platformPosts.find((p) => p.integrationId === secondChannelId);
  return {
    postId: post.id,
    targetId: target.id,
    secondTargetId: second?.id,
    mediaIds: post.media.map((m) => m.id),
  };
}

const targetOf = async (targetId: string) => (await loadTarget(t.database.db, targetId))!.target;
const getPost = async (postId: string) =>
  (await owner.call('GET', `${base()}/posts/${postId}`)).body.data.post;
const uploadsToday = async () => {
  const rows = await t.database.db
    .select()
    .from(networkQuotaUsage)
    .where(
      and(eq(networkQuotaUsage.day, pacificDay(now())), eq(networkQuotaUsage.bucket, 'uploads')),
    );
  return rows[0]?.used ?? 0;
};

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-yt-ahead-'));
  t = await createTestApp(
    {
      MEDIA_DIR: join(mediaDir, 'store'),
      MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 21).toString('base64'),
    },
    { now },
  );
  ({ owner, orgId } = await createOrg(t.app, 'owner@yt-ahead.test', 'Ahead Co'));
  await connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'Planner' });
  const [row] = await t.database.db
    .select({ id: integrations.id })
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  channelId = row!.id;
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const [x] = await t.database.db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.organizationId, orgId), ne(integrations.id, channelId)));
  xId = x!.id;
  await connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'Walker' });
  const [second] = await t.database.db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.organizationId, orgId), eq(integrations.name, 'Walker')));
  secondChannelId = second!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('a YouTube video YouTube publishes at the post’s time', () => {
  it('is uploaded when scheduled, moves with the post, and is published at its time without a second upload', async () => {
    // Minutes ahead, not hours: the clocks move past them below, within a session's sign-in.
    const at = inHours(0.07);
    const before = await uploadsToday();
    const { postId, targetId } = await schedule('Morning walk', at);
    // Due now, for the upload; the post keeps its time.
    expect((await targetOf(targetId)).dueAt!.getTime()).toBeLessThanOrEqual(now().getTime());

    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const [made] = await videosOf('Morning walk');
    expect(made).toMatchObject({ privacyStatus: 'private', publishAt: at.toISOString() });
    expect(await uploadsToday()).toBe(before + 1);
    const waiting = await getPost(postId);
    expect(waiting.status).toBe('scheduled');
    expect(waiting.platformPosts[0]).toMatchObject({
      status: 'UPLOADED',
      externalId: made!.id,
      dueAt: at.toISOString(),
      error: null,
    });

    // A new time moves YouTube's (videos.update), the same video.
    const later = inHours(0.14);
    const moved = await owner.call('PUT', `${base()}/posts/${postId}`, {
      scheduledAt: later.toISOString(),
    });
    expect(moved.status).toBe(200);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('Morning walk')).toEqual([
      expect.objectContaining({ id: made!.id, publishAt: later.toISOString() }),
    ]);
    expect((await targetOf(targetId)).dueAt).toEqual(later);

    // Before its time a run changes nothing; at its time, YouTube has made it public and Herald
    // reads it once and marks it published.
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('Morning walk')).toEqual([
      expect.objectContaining({ id: made!.id, privacyStatus: 'private' }),
    ]);
    await advance(0.14 * 3600 + 30);
    expect(await t.publisher.run(targetId)).toBe('PUBLISHED');
    expect(await videosOf('Morning walk')).toEqual([
      expect.objectContaining({ id: made!.id, privacyStatus: 'public' }),
    ]);
    expect(await uploadsToday()).toBe(before + 1);
    const out = await getPost(postId);
    expect(out.status).toBe('published');
    expect(out.platformPosts[0]).toMatchObject({
      status: 'PUBLISHED',
      externalId: made!.id,
      permalink: `https://www.youtube.com/watch?v=${made!.id}`,
      publishedAt: later.toISOString(),
    });
    // As YouTube answered the read at its time.
    expect(await targetOf(targetId)).toMatchObject({
      latenessMs: 0,
      embed: { privacyStatus: 'public' },
    });
  });

  it('replaces the uploaded video when what was uploaded changes, never holding two', async () => {
    const { postId, targetId } = await schedule('Bridge walk', inHours(5));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const [first] = await videosOf('Bridge walk');

    const edited = await owner.call('PUT', `${base()}/posts/${postId}`, {
      content: 'Bridge walk: over the river instead.',
    });
    expect(edited.status).toBe(200);
    // The old video goes first; only then is the new one uploaded.
    expect(await t.publisher.run(targetId)).toBe('RETRY_LATER');
    expect(await videosOf('Bridge walk')).toEqual([]);
    expect(await targetOf(targetId)).toMatchObject({ status: 'QUEUED', externalId: null });
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const again = await videosOf('Bridge walk');
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(first!.id);
    expect(again[0]!.description).toBe('Bridge walk: over the river instead.');
  });

  it('takes the video back when the post goes back to draft, and uploads it again once scheduled', async () => {
    const { postId, targetId } = await schedule('Harbor walk', inHours(6));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('Harbor walk')).toHaveLength(1);

    const draft = await owner.call('PUT', `${base()}/posts/${postId}`, { scheduledAt: null });
    expect(draft.status).toBe(200);
    await t.publisher.run(targetId);
    expect(await videosOf('Harbor walk')).toEqual([]);
    expect(await targetOf(targetId)).toMatchObject({
      status: 'QUEUED',
      externalId: null,
      dueAt: null,
      publishState: {},
    });
    expect((await getPost(postId)).status).toBe('draft');

    const back = await owner.call('PUT', `${base()}/posts/${postId}`, {
      scheduledAt: inHours(7).toISOString(),
    });
    expect(back.status).toBe(200);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('Harbor walk')).toHaveLength(1);
  });

  it('deletes the video with its post, and keeps the post with a sentence while YouTube refuses', async () => {
    const { postId, targetId } = await schedule('Forest walk', inHours(8));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');

    await emu('POST', 'scenario', { account: 'planner', knob: 'quota_exceeded', on: true });
    const refused = await owner.call('DELETE', `${base()}/posts/${postId}`);
    await emu('POST', 'scenario', { account: 'planner', knob: 'quota_exceeded', on: false });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^This post was not deleted: Herald could not delete the video it uploaded ahead to YouTube \(.*quota.*\), so YouTube still publishes it/,
    );
    expect(await videosOf('Forest walk')).toHaveLength(1);
    // The post says so too.
    expect((await getPost(postId)).platformPosts[0].error).toMatch(/could not delete the video/);

    const deleted = await owner.call('DELETE', `${base()}/posts/${postId}`);
    expect(deleted.status).toBe(200);
    expect(await videosOf('Forest walk')).toEqual([]);
    expect((await owner.call('GET', `${base()}/posts/${postId}`)).status).toBe(404);
  });

  it('takes no video back for a bulk delete that is refused for another of its posts', async () => {
    const a = await schedule('Alder walk', inHours(15));
    const b = await schedule('Birch walk', inHours(15));
    const c = await schedule('Cedar walk', inHours(15));
    for (const { targetId } of [a, b, c]) expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const bulkDelete = (postIds: string[]) =>
      owner.call('POST', `${base()}/posts/bulk/delete`, { postIds });

    // Not a post of this organization: nothing is deleted, nothing taken back from YouTube.
    const foreign = await bulkDelete([a.postId, randomUUID()]);
    expect(foreign.status).toBe(404);
    // Being published: refused as a whole, and A's video stays with A.
    await t.database.db.update(posts).set({ status: 'publishing' }).where(eq(posts.id, b.postId));
    try {
      const busy = await bulkDelete([a.postId, b.postId, c.postId]);
      expect(busy.status).toBe(409);
    } finally {
      await t.database.db.update(posts).set({ status: 'scheduled' }).where(eq(posts.id, b.postId));
    }
    for (const [title, { targetId }] of [
      ['Alder walk', a],
      ['Cedar walk', c],
    ] as const) {
      expect(await videosOf(title)).toHaveLength(1);
      expect(await targetOf(targetId)).toMatchObject({ status: 'UPLOADED' });
    }
  });

  it('puts a video taken back for a delete YouTube then refused on its way again', async () => {
    const at = inHours(16);
    const { postId, targetId, secondTargetId } = await schedule('Aspen walk', at, {}, [
      secondChannelId,
    ]);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await t.publisher.run(secondTargetId!)).toBe('UPLOADED');
    expect(await videosOf('Aspen walk')).toHaveLength(2);

    await emu('POST', 'scenario', { account: 'walker', knob: 'quota_exceeded', on: true });
    const refused = await owner.call('DELETE', `${base()}/posts/${postId}`);
    await emu('POST', 'scenario', { account: 'walker', knob: 'quota_exceeded', on: false });
    expect(refused.status).toBe(409);
    // The first channel's video was deleted; the post stays scheduled, so it is uploaded again.
    expect((await getPost(postId)).status).toBe('scheduled');
    const first = await targetOf(targetId);
    expect(first).toMatchObject({ status: 'QUEUED', externalId: null });
    expect(first.dueAt!.getTime()).toBeLessThanOrEqual(now().getTime());
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('Aspen walk')).toHaveLength(2);
    expect(await targetOf(targetId)).toMatchObject({ status: 'UPLOADED', dueAt: at });
  });

  it('keeps a video uploaded from an account disconnected since on its post, and follows it again once reconnected', async () => {
    const channels = async () =>
      (await owner.call('GET', `${base()}/integrations`)).body.data.platforms as Array<{
        id: string;
        scheduledPostCount: number;
      }>;
    const countOf = async (id: string) =>
      (await channels()).find((c) => c.id === id)!.scheduledPostCount;
    const before = await countOf(secondChannelId);
    const at = inHours(17);
    // From the second channel, beside X.
    const { postId, targetId } = await schedule('Willow walk', at, {}, [xId], secondChannelId);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    // Still to go out from the account: disconnecting it is said to affect it.
    expect(await countOf(secondChannelId)).toBe(before + 1);

    const gone = await owner.call('POST', `/api/youtube/disconnect/${orgId}`, {
      integrationId: secondChannelId,
    });
    expect(gone.status).toBe(200);
    // An edit is not held back by the video it can no longer reach; that video stays on the post.
    const body = await multipart({
      integrationIds: JSON.stringify([xId]),
      content: 'Willow walk: down the park and back.',
      action: 'schedule',
      scheduledAt: at.toISOString(),
    });
    const edited = await send(t.app, owner.jar, {
      method: 'PUT',
      url: `${base()}/post/${postId}`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await targetOf(targetId)).toMatchObject({ status: 'UPLOADED', integrationId: null });

    // Reconnected: the target is the account's again, and goes with its post to draft.
    await connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'Walker' });
    const [again] = await t.database.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(and(eq(integrations.organizationId, orgId), eq(integrations.name, 'Walker')));
    secondChannelId = again!.id;
    expect((await targetOf(targetId)).integrationId).toBe(secondChannelId);
    const draft = await owner.call('PUT', `${base()}/posts/${postId}`, { scheduledAt: null });
    expect(draft.status).toBe(200);
    await t.publisher.run(targetId);
    expect(await videosOf('Willow walk')).toEqual([]);
    expect(await targetOf(targetId)).toMatchObject({ status: 'QUEUED', dueAt: null });
  });

  it('deletes a post whose video stays at YouTube, saying so', async () => {
    const { postId, targetId } = await schedule(
      'Poplar walk',
      inHours(18),
      {},
      [],
      secondChannelId,
    );
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const gone = await owner.call('POST', `/api/youtube/disconnect/${orgId}`, {
      integrationId: secondChannelId,
    });
    expect(gone.status).toBe(200);
    const deleted = await owner.call('DELETE', `${base()}/posts/${postId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.data.notice).toBe(
      'Herald could not delete the video it uploaded ahead from the YouTube account Walker (@walker), as that account was disconnected: it goes public at the time it was uploaded for unless you delete it there.',
    );
    expect(await videosOf('Poplar walk')).toHaveLength(1);
    await connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'Walker' });
    const [again] = await t.database.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(and(eq(integrations.organizationId, orgId), eq(integrations.name, 'Walker')));
    secondChannelId = again!.id;
  });

  it('counts an uploaded video whose time has passed unrecorded as overdue', async () => {
    const { targetId } = await schedule('Elm walk', inHours(19));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const before = await countOverdueTargets(t.database.db, 5);
    // As the database's clock reads it: its time passed half an hour ago and no run recorded it.
    await t.database.db
      .update(postTargets)
      .set({ dueAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(postTargets.id, targetId));
    expect(await countOverdueTargets(t.database.db, 5)).toBe(before + 1);
    await t.database.db
      .update(postTargets)
      .set({ dueAt: inHours(19) })
      .where(eq(postTargets.id, targetId));
  });

  it('replaces the uploaded video when the text of a post already out elsewhere changes', async () => {
    const { postId, targetId } = await schedule('Oak walk', inHours(20), {}, [xId]);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const [first] = await videosOf('Oak walk');
    const now = await owner.call('PATCH', `${base()}/post/${postId}/publish`, { platforms: ['X'] });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect((await getPost(postId)).status).toBe('partially_published');

    // Its run is asked for now, to follow the new text.
    const queued = vi.spyOn(t.publisher['deps'].queue, 'schedule');
    try {
      const edited = await owner.call('PUT', `${base()}/posts/${postId}`, {
        content: 'Oak walk: past the old oak instead.',
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(queued.mock.calls.map(([, id]) => id)).toContain(targetId);
    } finally {
      queued.mockRestore();
    }
    expect(await t.publisher.run(targetId)).toBe('RETRY_LATER');
    expect(await videosOf('Oak walk')).toEqual([]);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const again = await videosOf('Oak walk');
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(first!.id);
    expect(again[0]!.description).toBe('Oak walk: past the old oak instead.');
  });

  it('tries a withdrawal again until YouTube’s time when the account needs reconnecting, and at once when it is', async () => {
    const { postId, targetId } = await schedule('Pine walk', inHours(21));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const retried = vi.spyOn(t.publisher['deps'].queue, 'retryAt');
    try {
      await t.database.db
        .update(integrations)
        .set({ status: 'REFRESH_FAILED' })
        .where(eq(integrations.id, channelId));
      const draft = await owner.call('PUT', `${base()}/posts/${postId}`, { scheduledAt: null });
      expect(draft.status).toBe(200);
      expect(await t.publisher.run(targetId)).toBe('RETRY_LATER');
      const kept = await targetOf(targetId);
      expect(kept.status).toBe('UPLOADED');
      expect(kept.error).toMatch(/Herald tries again until then/);
      const [[id, at]] = retried.mock.calls as [[string, Date]];
      expect(id).toBe(targetId);
      expect(at.getTime()).toBeGreaterThan(now().getTime());
      expect(at.getTime()).toBeLessThanOrEqual(inHours(21).getTime());

      retried.mockClear();
      await connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'Planner' });
      expect(retried.mock.calls.map(([target]) => target)).toContain(targetId);
    } finally {
      retried.mockRestore();
      await t.database.db
        .update(integrations)
        .set({ status: 'CONNECTED' })
        .where(eq(integrations.id, channelId));
    }
    expect(await t.publisher.run(targetId)).toBe('RETRY_LATER');
    expect(await videosOf('Pine walk')).toEqual([]);
  });

  it('calls YouTube from one run at a time: a run that read the target before another took it does nothing', async () => {
    const { postId, targetId } = await schedule('Yew walk', inHours(22));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const draft = await owner.call('PUT', `${base()}/posts/${postId}`, { scheduledAt: null });
    expect(draft.status).toBe(200);
    const stale = (await loadTarget(t.database.db, targetId))!;
    // Another run took the target meanwhile (its own attempt).
    await t.database.db
      .update(postTargets)
      .set({ attemptId: randomUUID() })
      .where(eq(postTargets.id, targetId));
    expect(await t.publisher['followUploaded'](stale, true)).toBe('BUSY');
    // The video the target names is still at YouTube; the next run deletes it.
    expect(await videosOf('Yew walk')).toHaveLength(1);
    expect(await t.publisher.run(targetId)).toBe('RETRY_LATER');
    expect(await videosOf('Yew walk')).toEqual([]);
  });

  it('settles a crash between the last chunk and its record on the one video it made', async () => {
    const at = inHours(9);
    const { targetId } = await schedule('River walk', at);
    const loaded = (await loadTarget(t.database.db, targetId))!;
    const publishing = t.networks.get('youtube')!.adapter.publishing!;
    const account = toStoredAccount(t.cipher, loaded.integration!);
    // What the engine sends, as a run that dies after the visible call would have sent it.
    const request = await t.publisher['requestFor'](loaded);
    const state = await publishing.prepare(account, request);
    await publishing.check(account, state, request);
    const attemptId = randomUUID();
    await t.database.db
      .update(postTargets)
      .set({ status: 'PUBLISHING', attemptId, publishState: state })
      .where(eq(postTargets.id, targetId));
    await publishing.finalize(account, request, state);

    // The watchdog's look-up finds the video the session made: recorded, and nothing made again.
    expect(await t.publisher.reconcileStuck(targetId, attemptId)).toBe('PUBLISHED');
    const [made] = await videosOf('River walk');
    expect(await targetOf(targetId)).toMatchObject({
      status: 'UPLOADED',
      externalId: made!.id,
      dueAt: at,
    });
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('River walk')).toHaveLength(1);
  });

  it('publishes at once when Publish now comes before the time', async () => {
    const { postId, targetId } = await schedule('Lake walk', inHours(10));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const [made] = await videosOf('Lake walk');
    const res = await owner.call('PATCH', `${base()}/post/${postId}/publish`, {
      platforms: ['YouTube'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual({ YouTube: { status: 'success', error: null } });
    expect(await videosOf('Lake walk')).toEqual([
      expect.objectContaining({ id: made!.id, privacyStatus: 'public', publishAt: null }),
    ]);
  });

  it('fails with a sentence when the video was deleted at YouTube before its time', async () => {
    const { postId, targetId } = await schedule('Hill walk', inHours(12));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const target = await targetOf(targetId);
    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, channelId));
    // Deleted by hand in YouTube Studio.
    await t.networks.get('youtube')!.adapter.publishing!.withdraw!(
      toStoredAccount(t.cipher, row!),
      target.externalId!,
    );
    const res = await owner.call('PATCH', `${base()}/post/${postId}/publish`, {
      platforms: ['YouTube'],
    });
    expect(res.body.results.YouTube).toEqual({
      status: 'failed',
      error:
        'The video Herald uploaded ahead is no longer on YouTube (it was deleted there before its time). Publish the post to this account again to upload it anew.',
    });
    // Nothing of the old upload is kept: publishing again uploads anew.
    expect(await targetOf(targetId)).toMatchObject({
      status: 'FAILED',
      externalId: null,
      publishState: {},
    });
  });

  it('is published at its time even when its account needs reconnecting by then', async () => {
    const { postId, targetId } = await schedule('Dune walk', inHours(13));
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const target = await targetOf(targetId);
    // Its time has come (as the clocks would say), and the account's access was refused since.
    const past = new Date(now().getTime() - 60_000);
    await t.database.db
      .update(postTargets)
      .set({
        dueAt: past,
        publishState: {
          ...target.publishState,
          uploadedAhead: {
            ...(target.publishState.uploadedAhead as object),
            publishAt: past.toISOString(),
          },
        },
      })
      .where(eq(postTargets.id, targetId));
    await t.database.db
      .update(integrations)
      .set({ status: 'REFRESH_FAILED' })
      .where(eq(integrations.id, channelId));
    try {
      expect(await t.publisher.run(targetId)).toBe('PUBLISHED');
    } finally {
      await t.database.db
        .update(integrations)
        .set({ status: 'CONNECTED' })
        .where(eq(integrations.id, channelId));
    }
    expect((await getPost(postId)).platformPosts[0]).toMatchObject({
      status: 'PUBLISHED',
      externalId: target.externalId,
    });
  });

  it('keeps YouTube on a post whose video is uploaded until the post goes back to draft', async () => {
    const at = inHours(14);
    const { postId, targetId, mediaIds } = await schedule('Cliff walk', at, {}, [xId]);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    const body = await multipart({
      integrationIds: JSON.stringify([xId]),
      content: 'Cliff walk: X only now.',
      action: 'schedule',
      scheduledAt: at.toISOString(),
      keepMediaIds: JSON.stringify(mediaIds),
    });
    const res = await send(t.app, owner.jar, {
      method: 'PUT',
      url: `${base()}/post/${postId}`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      "YouTube already has this post's video, uploaded ahead for its time. Move the post to draft first (Herald then deletes that video), then remove the account.",
    );
    expect(await videosOf('Cliff walk')).toHaveLength(1);
  });

  it('takes a whole edit of a post that keeps its YouTube account, the day read in the edit', async () => {
    // Not ahead: the quota check of the edit reads the post's day inside the edit's transaction.
    const at = inHours(30);
    const { postId, mediaIds } = await schedule('Ridge walk', at, { scheduleOnYouTube: false });
    const body = await multipart({
      integrationIds: JSON.stringify([channelId]),
      content: 'Ridge walk: up and over.',
      action: 'schedule',
      scheduledAt: at.toISOString(),
      keepMediaIds: JSON.stringify(mediaIds),
      youtube: JSON.stringify(settings('Ridge walk', { scheduleOnYouTube: false })),
    });
    const res = await send(t.app, owner.jar, {
      method: 'PUT',
      url: `${base()}/post/${postId}`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.post.content).toBe('Ridge walk: up and over.');
  });

  it('is not uploaded while its post waits for approval, and is once approved', async () => {
    const { postId, targetId } = await schedule('Meadow walk', null);
    // As a member who must submit leaves it: waiting for an approver, with its time.
    await t.database.db
      .update(posts)
      .set({ status: 'pending_approval', scheduledAt: inHours(11) })
      .where(eq(posts.id, postId));
    // A stray run claims nothing: the post is not one that goes out.
    await t.publisher.run(targetId);
    expect(await targetOf(targetId)).toMatchObject({ status: 'QUEUED', publishState: {} });
    expect(await videosOf('Meadow walk')).toEqual([]);

    const approved = await owner.call('POST', `${base()}/approvals/${postId}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await t.publisher.run(targetId)).toBe('UPLOADED');
    expect(await videosOf('Meadow walk')).toEqual([
      expect.objectContaining({ privacyStatus: 'private' }),
    ]);
  });

  it('is counted on the Pacific day it is uploaded, not the day YouTube publishes it', async () => {
    const { targetId } = await schedule('Counted walk', inHours(72));
    const target = await targetOf(targetId);
    expect(pacificDay(target.dueAt!)).toBe(pacificDay(now()));
    const left = await t.runtime.youtubeQuota.leftOn(inHours(72));
    const today = await t.runtime.youtubeQuota.leftOn(now());
    expect(today.scheduled).toBeGreaterThanOrEqual(1);
    expect(left.scheduled).toBe(0);
  });
});

describe('the YouTube emulator, as YouTube', () => {
  const insert = async (status: Record<string, unknown>) => {
    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, channelId));
    const account = toStoredAccount(t.cipher, row!);
    return t.app.inject({
      method: 'POST',
      url: '/api/sandbox/youtube/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status',
      headers: {
        authorization: `Bearer ${account.tokens.accessToken}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': '1000',
        'x-upload-content-type': 'video/mp4',
      },
      payload: {
        snippet: { title: 'Refused walk', categoryId: '22' },
        status: { selfDeclaredMadeForKids: false, ...status },
      },
    });
  };

  it('refuses publishAt on a video that is not private, or at a time already past', async () => {
    const future = inHours(4).toISOString();
    for (const status of [
      { privacyStatus: 'public', publishAt: future },
      { privacyStatus: 'unlisted', publishAt: future },
      { privacyStatus: 'private', publishAt: new Date(now().getTime() - 60_000).toISOString() },
    ]) {
      const res = await insert(status);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.errors[0].reason).toBe('invalidPublishAt');
    }
    expect((await insert({ privacyStatus: 'private', publishAt: future })).statusCode).toBe(200);
  });
});
