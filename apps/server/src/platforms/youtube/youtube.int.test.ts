import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrations, networkQuotaUsage, platforms, posts, postTargets } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { settleYouTubeSettings } from '../../modules/posts/youtube-settings.js';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { emuInject, expectPlatformError, useHarness } from '../../test/network-tests.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { publishMediaFromBytes, publishMediaOf } from '../../test/publish-media.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, PublishRequest, StoredAccount } from '../types.js';
import { YOUTUBE_CHUNK_BYTES } from './limits.js';
import {
  createYouTubeQuota,
  pacificDay,
  youtubeQuotaFinding,
} from '../../modules/youtube/quota.js';

/** Herald and its YouTube sandbox (Google's consent page and token endpoint, the Data API). */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 12).toString('base64') }),
);
let adapter: PlatformAdapter;
beforeAll(() => {
  adapter = t.networks.get('youtube')!.adapter;
});

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'youtube', method, path, payload)).json();

const settings = {
  title: 'A walk in the park',
  tags: ['walk', 'park'],
  categoryId: '19',
  privacyStatus: 'public',
  madeForKids: false,
  notifySubscribers: true,
};

/** A video of `bytes` bytes (the emulator counts them; it does not decode them). */
const video = (bytes: number) =>
  publishMediaFromBytes(randomBytes(bytes), {
    kind: 'video',
    mimeType: 'video/mp4',
    fileName: 'walk.mp4',
    width: 1920,
    height: 1080,
    durationSec: 600,
  });

const request = (media: PublishRequest['media'], extra: object = {}): PublishRequest => ({
  text: 'Down the park and back.',
  media,
  idempotencyKey: `key-${randomBytes(4).toString('hex')}`,
  settings: { ...settings, ...extra },
});

async function connect(email: string, account: string, brands?: string) {
  const { owner, orgId } = await createOrg(t.app, email);
  const done = await connectThroughSandbox(t.app, owner, 'youtube', orgId, {
    account,
    ...(brands !== undefined ? { fields: { brand_channels: brands } } : {}),
  });
  return { owner, orgId, done };
}

async function storedOf(orgId: string): Promise<StoredAccount[]> {
  const rows = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return rows.map((row) => toStoredAccount(t.cipher, row));
}

async function videosOf(title?: string) {
  const { videos } = (await emu('GET', 'videos')) as {
    videos: Array<{ id: string; title: string; size: number; thumbnail: unknown }>;
  };
  return title ? videos.filter((v) => v.title === title) : videos;
}

describe('YouTube through Herald and its sandbox', () => {
  let channel: StoredAccount;

  it('connects a Google account’s channel, with PKCE and a refresh token', async () => {
    const { orgId, done } = await connect('yt.int.one@example.com', 'Walker');
    expect(done).toBe(`${TEST_PUBLIC_URL}/settings?connected=YouTube`);
    [channel] = (await storedOf(orgId)) as [StoredAccount];
    expect(channel.externalId).toMatch(/^UC[\w-]{22}$/);
    expect(channel.tokens.refreshToken).toMatch(/^1\/\//);
    expect(channel.tokens.scopes).toContain('https://www.googleapis.com/auth/youtube.upload');
  });

  it('keeps a Google account whose channel one organization connected from another', async () => {
    const { owner, orgId } = await createOrg(t.app, 'yt.int.other@example.com');
    await expect(
      connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'Walker' }),
    ).rejects.toThrow(/consent submit/);
    expect(await storedOf(orgId)).toEqual([]);
  });

  it('lets a person who manages brand channels choose among them', async () => {
    const { owner, orgId, done } = await connect(
      'yt.int.brands@example.com',
      'Brand Owner',
      'Cooking Corner, Garden Talk',
    );
    const pick = new URL(done).searchParams.get('pick');
    expect(pick).toBeTruthy();
    const pending = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
    );
    const offered = pending.body.data.accounts as Array<{ externalId: string; name: string }>;
    expect(offered.map((a) => a.name)).toEqual(['Brand Owner', 'Cooking Corner', 'Garden Talk']);
    const chosen = await owner.call(
      'POST',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
      { externalIds: [offered[1]!.externalId] },
    );
    expect(chosen.status).toBeLessThan(300);
    const [stored] = await storedOf(orgId);
    expect(stored!.externalId).toBe(offered[1]!.externalId);

    // The video goes to the chosen brand channel, not the Google account's own.
    const result = await publishInOneGo(
      adapter.publishing!,
      stored!,
      request([video(1000)], { title: 'Soup' }),
    );
    const { videos } = (await emu('GET', 'videos')) as {
      videos: Array<{ id: string; channelId: string }>;
    };
    expect(videos.find((v) => v.id === result.externalId)?.channelId).toBe(offered[1]!.externalId);
  });

  it('says so when the Google account has no channel, in Google’s words', async () => {
    const { owner, orgId } = await createOrg(t.app, 'yt.int.nochannel@example.com');
    await connectThroughSandbox(t.app, owner, 'youtube', orgId, { account: 'No Channel' });
    await emu('POST', 'scenario', { account: 'no_channel', knob: 'no_channel', on: true });
    const again = await connectThroughSandbox(t.app, owner, 'youtube', orgId, {
      account: 'No Channel',
    });
    expect(new URL(again).searchParams.get('connectError')).toMatch(
      /has no YouTube channel yet.*YouTube said: Unauthorized/,
    );
  });

  it('uploads a video in chunks with the resumable protocol, then sets its thumbnail', async () => {
    const file = video(YOUTUBE_CHUNK_BYTES + 300 * 1024);
    const thumb = publishMediaOf(await jpeg(1280, 720), { kind: 'image', mimeType: 'image/jpeg' });
    const result = await publishInOneGo(
      adapter.publishing!,
      channel,
      request([file, thumb], { title: 'Chunked walk' }),
    );
    expect(result.permalink).toBe(`https://www.youtube.com/watch?v=${result.externalId}`);
    expect(result.extra).toEqual({ privacyStatus: 'public' });
    const [made] = await videosOf('Chunked walk');
    expect(made).toMatchObject({ id: result.externalId, size: file.size });
    expect(made!.thumbnail).toMatchObject({ mimeType: 'image/jpeg' });
    // check sent the first chunk; finalize asked where the upload stood, then sent the rest.
    expect(file.opened).toEqual([
      { start: 0, end: YOUTUBE_CHUNK_BYTES - 1 },
      { start: YOUTUBE_CHUNK_BYTES, end: file.size - 1 },
    ]);
    // Counted against the project's day: one upload, the thumbnail's 50 units and the queries.
    const rows = await t.database.db
      .select()
      .from(networkQuotaUsage)
      .where(eq(networkQuotaUsage.day, pacificDay(new Date())));
    expect(rows.find((r) => r.bucket === 'uploads')?.used).toBeGreaterThanOrEqual(1);
    expect(rows.find((r) => r.bucket === 'units')?.used).toBeGreaterThanOrEqual(50);
  });

  it('resumes a cut upload from the bytes YouTube has, not from the start', async () => {
    const file = video(2 * YOUTUBE_CHUNK_BYTES + 1000);
    await emu('POST', 'scenario', {
      account: 'walker',
      knob: 'upload_interrupt_bytes',
      on: true,
      value: 512 * 1024,
    });
    const result = await publishInOneGo(
      adapter.publishing!,
      channel,
      request([file], { title: 'Cut walk' }),
    );
    const made = await videosOf('Cut walk');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id: result.externalId, size: file.size });
    // After the cut at 512 KiB the next chunk starts there.
    expect(file.opened[0]).toEqual({ start: 0, end: YOUTUBE_CHUNK_BYTES - 1 });
    expect(file.opened[1]).toEqual({
      start: 512 * 1024,
      end: 512 * 1024 + YOUTUBE_CHUNK_BYTES - 1,
    });
  });

  it('makes one video when the answer to the last chunk is lost, or Herald crashes before recording it', async () => {
    const publishing = adapter.publishing!;
    const lostReq = request([video(4000)], { title: 'Lost answer' });
    const lostState = await publishing.prepare(channel, lostReq);
    await publishing.check(channel, lostState, lostReq);
    await emu('POST', 'scenario', {
      account: 'walker',
      knob: 'finalize_timeout',
      on: true,
      value: 1,
    });
    // The video is made and the answer never arrives: Herald asks the session, which names it.
    const recovered = await publishing.finalize(channel, lostReq, lostState);
    const lost = await videosOf('Lost answer');
    expect(lost).toHaveLength(1);
    expect(recovered.externalId).toBe(lost[0]!.id);

    // A crash between the call and its record: the engine only has the state prepare kept.
    const crashReq = request([video(5000)], { title: 'Crash walk' });
    const state = await publishing.prepare(channel, crashReq);
    await publishing.check(channel, state, crashReq);
    await publishing.finalize(channel, crashReq, state);
    const found = await publishing.reconcile!(channel, crashReq, state);
    const again = await publishing.finalize(channel, crashReq, state);
    const made = await videosOf('Crash walk');
    expect(made).toHaveLength(1);
    expect(found?.externalId).toBe(made[0]!.id);
    expect(again.externalId).toBe(made[0]!.id);

    // Before the last chunk, reconcile says no video exists: the retry resumes the upload.
    const earlyReq = request([video(6000)], { title: 'Not yet' });
    const early = await publishing.prepare(channel, earlyReq);
    expect(await publishing.reconcile!(channel, earlyReq, early)).toBeNull();
    expect(await videosOf('Not yet')).toHaveLength(0);
  });

  it('refuses before any call what YouTube would refuse, and says the made-for-kids answer is required', async () => {
    const unanswered = await expectPlatformError(
      publishInOneGo(adapter.publishing!, channel, request([video(100)], { madeForKids: null })),
    );
    expect(unanswered.kind).toBe('bad_request');
    expect(unanswered.message).toMatch(/made for kids/);
    const noVideo = await expectPlatformError(
      publishInOneGo(adapter.publishing!, channel, request([])),
    );
    expect(noVideo.message).toMatch(/exactly one video/);
  });

  it('passes on YouTube’s quota refusal in its own words, waiting for Pacific midnight', async () => {
    await emu('POST', 'scenario', { account: 'walker', knob: 'quota_exceeded', on: true });
    const refused = await expectPlatformError(
      publishInOneGo(adapter.publishing!, channel, request([video(100)])),
    );
    await emu('POST', 'scenario', { account: 'walker', knob: 'quota_exceeded', on: false });
    expect(refused.kind).toBe('rate_limited');
    expect(refused.details.code).toBe('quotaExceeded');
    expect(refused.message).toMatch(/YouTube said: The request cannot be completed/);
    expect(refused.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.details.retryAfterSeconds).toBeLessThanOrEqual(24 * 3600);
  });

  it('refuses at writing time a post the project’s day cannot carry', async () => {
    const day = pacificDay(new Date());
    await t.database.db
      .insert(networkQuotaUsage)
      .values({ network: 'youtube', day, bucket: 'uploads', used: 100 })
      .onConflictDoUpdate({
        target: [networkQuotaUsage.network, networkQuotaUsage.day, networkQuotaUsage.bucket],
        set: { used: 100 },
      });
    const target = {
      integrationId: 'a',
      networkName: 'YouTube',
      label: 'YouTube',
      media: [{ fileName: 'v.mp4', mimeType: 'video/mp4', size: 10, durationSec: 30 }],
    };
    const read = (at: Date) => t.runtime.youtubeQuota.leftOn(at);
    await expect(
      settleYouTubeSettings([target], { a: settings as never }, false, {
        read,
        goesOutAt: new Date(),
      }),
    ).rejects.toThrow(/can upload 0 more videos today \(\w+, \w+ \d+, Pacific time\)/);
    // Tomorrow's quota is whole.
    const tomorrow = new Date(Date.now() + 36 * 3600_000);
    await expect(
      settleYouTubeSettings([target], { a: settings as never }, false, {
        read,
        goesOutAt: tomorrow,
      }),
    ).resolves.toBeInstanceOf(Map);
    await t.database.db.delete(networkQuotaUsage).where(eq(networkQuotaUsage.day, day));
  });

  it('renews the access token with the refresh token, and asks to reconnect on invalid_grant', async () => {
    const renewed = await adapter.refresh!(channel);
    expect(renewed.accessToken).not.toBe(channel.tokens.accessToken);
    // Google keeps the refresh token.
    expect(renewed.refreshToken).toBe(channel.tokens.refreshToken);
    channel = { ...channel, tokens: renewed };

    await emu('POST', 'scenario', { account: 'walker', knob: 'refresh_fails', on: true });
    const refused = await expectPlatformError(adapter.refresh!(channel));
    await emu('POST', 'scenario', { account: 'walker', knob: 'refresh_fails', on: false });
    expect(refused).toBeInstanceOf(PlatformError);
    expect(refused.kind).toBe('reauth');
    expect(refused.message).toMatch(/Token has been expired or revoked.*Reconnect/);
  });

  it('reads a video’s comments, replies under them, and sees them in the inbox', async () => {
    const posted = await publishInOneGo(
      adapter.publishing!,
      channel,
      request([video(500)], { title: 'Talk to me' }),
    );
    const { comment } = (await emu('POST', 'comments', {
      videoId: posted.externalId,
      text: 'Lovely park!',
      author: 'Viewer Vi',
    })) as { comment: { id: string } };
    for (let i = 0; i < 6; i++)
      await emu('POST', 'comments', {
        videoId: posted.externalId,
        parentId: comment.id,
        text: `reply ${i}`,
        author: 'Viewer Vo',
      });
    const listed = await adapter.publishing!.listComments!(channel, posted.externalId, {
      limit: 20,
    });
    expect(listed.comments).toHaveLength(1);
    expect(listed.comments[0]).toMatchObject({ message: 'Lovely park!', isOwn: false });
    // The thread carries five replies; the sixth comes from comments.list.
    expect(listed.comments[0]!.replies).toHaveLength(6);

    // A reply to a reply goes under the thread's top-level comment, as YouTube nests them.
    const reply = await adapter.publishing!.reply!(
      channel,
      { externalId: posted.externalId, commentId: listed.comments[0]!.replies[0]!.id },
      'Thank you!',
    );
    expect(reply).toMatchObject({ message: 'Thank you!', isOwn: true });
    expect(reply.id.startsWith(`${comment.id}.`)).toBe(true);

    const polled = await adapter.inbox!.poll(channel, null);
    const texts = polled.events.map((e) => e.text);
    expect(texts).toContain('Lovely park!');
    expect(polled.events.find((e) => e.text === 'Thank you!')?.direction).toBe('out');
    // Read again from its cursor: nothing new.
    expect((await adapter.inbox!.poll(channel, polled.cursor)).events).toEqual([]);
  });

  it('reads views, likes and comments of videos as metrics', async () => {
    const posted = await publishInOneGo(
      adapter.publishing!,
      channel,
      request([video(500)], { title: 'Counted' }),
    );
    await emu('POST', 'stats', { videoId: posted.externalId, views: 1234, likes: 56 });
    await emu('POST', 'comments', { videoId: posted.externalId, text: 'First' });
    const metrics = await adapter.metrics!.postMetricsBatch!(channel, [
      { externalId: posted.externalId, publishedAt: new Date() },
    ]);
    expect(metrics.get(posted.externalId)).toMatchObject({
      views: 1234,
      likes: 56,
      comments: 1,
      interactions: 57,
    });
    const account = await adapter.metrics!.accountMetrics(channel);
    expect(account?.views).toBeGreaterThanOrEqual(1234);
  });
  it('asks YouTube to publish at the post’s time (private with publishAt), and moves or deletes the video until then', async () => {
    const at = new Date(Date.now() + 2 * 24 * 3600_000);
    const result = await publishInOneGo(adapter.publishing!, channel, {
      ...request([video(800)], { title: 'Saturday walk', scheduleOnYouTube: true }),
      scheduledAt: at,
    });
    // Herald keeps when YouTube will make it public, to show the post as scheduled on YouTube.
    expect(result.extra).toEqual({ privacyStatus: 'private', publishAt: at.toISOString() });
    const [made] = (await videosOf('Saturday walk')) as unknown as Array<{
      privacyStatus: string;
      publishAt: string;
    }>;
    expect(made).toMatchObject({ privacyStatus: 'private', publishAt: at.toISOString() });

    // Until then the video follows its post: a new time (videos.update), or gone (videos.delete).
    const later = new Date(at.getTime() + 3600_000);
    await adapter.publishing!.reschedule!(channel, result.externalId, later);
    expect((await videosOf('Saturday walk'))[0]).toMatchObject({
      privacyStatus: 'private',
      publishAt: later.toISOString(),
    });
    await adapter.publishing!.withdraw!(channel, result.externalId);
    expect(await videosOf('Saturday walk')).toEqual([]);

    // The time already passed when the upload runs (a late run): it goes up public at once.
    const late = await publishInOneGo(adapter.publishing!, channel, {
      ...request([video(800)], { title: 'Late walk', scheduleOnYouTube: true }),
      scheduledAt: new Date(Date.now() - 60_000),
    });
    expect(late.extra).toEqual({ privacyStatus: 'public' });
    // A video already public cannot be scheduled again: YouTube says so in its words.
    const moved = await expectPlatformError(
      adapter.publishing!.reschedule!(channel, late.externalId, later),
    );
    expect(moved.details.code).toBe('invalidPublishAt');

    // Only a public video can wait for YouTube's schedule: Herald says so before any call.
    const unlisted = await expectPlatformError(
      publishInOneGo(adapter.publishing!, channel, {
        ...request([video(800)], { privacyStatus: 'unlisted', scheduleOnYouTube: true }),
        scheduledAt: at,
      }),
    );
    expect(unlisted.message).toMatch(/only to make it public; this one is unlisted/);
    // (YouTube's own refusals of publishAt, unlisted or past, are the drift test's.)
  });

  it('refuses at writing time an upload a Pacific day cannot carry, counting the uploads already scheduled that day', async () => {
    // A quota of 6 uploads a day; a Saturday ten days ahead already carries 6 scheduled uploads.
    const day = new Date(Date.now() + 10 * 24 * 3600_000);
    day.setUTCHours(18, 0, 0, 0);
    const quota = createYouTubeQuota(
      t.database.db,
      { unitsPerDay: 10_000, uploadsPerDay: 6 },
      () => new Date(),
    );
    const { orgId } = await createOrg(t.app, 'yt.int.quota.days@example.com');
    const [platform] = await t.database.db
      .select({ id: platforms.id })
      .from(platforms)
      .where(eq(platforms.name, 'YouTube'));
    const schedulePost = async (
      at: Date | null,
      status: 'scheduled' | 'draft' = 'scheduled',
      target: 'QUEUED' | 'PUBLISHED' = 'QUEUED',
    ) => {
      const [post] = await t.database.db
        .insert(posts)
        .values({ organizationId: orgId, status, scheduledAt: at, content: 'A video' })
        .returning({ id: posts.id });
      await t.database.db.insert(postTargets).values({
        postId: post!.id,
        organizationId: orgId,
        platformId: platform!.id,
        status: target,
        dueAt: at,
      });
      return post!.id;
    };
    const six = [];
    for (let i = 0; i < 6; i++) six.push(await schedulePost(new Date(day.getTime() + i * 60_000)));
    // Not counted: a draft, a video already out, and the next day.
    await schedulePost(day, 'draft');
    await schedulePost(day, 'scheduled', 'PUBLISHED');
    await schedulePost(new Date(day.getTime() + 24 * 3600_000));

    const target = {
      integrationId: 'a',
      networkName: 'YouTube',
      label: 'YouTube',
      media: [{ fileName: 'v.mp4', mimeType: 'video/mp4', size: 10, durationSec: 30 }],
    };
    const settle = (goesOutAt: Date, exceptPostId?: string) =>
      settleYouTubeSettings([target], { a: settings as never }, false, {
        read: (at, except) => quota.leftOn(at, except),
        goesOutAt,
        exceptPostId,
      });
    const words = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      timeZone: 'America/Los_Angeles',
    }).format(day);
    await expect(settle(day)).rejects.toThrow(
      `YouTube: Herald's API project can upload 0 more videos on ${words} (Pacific time), counting the 6 uploads already scheduled that day, and this post needs 1. Choose another day.`,
    );
    // Editing one of the six moves nothing: it is counted as its new version only.
    await expect(settle(day, six[0])).resolves.toBeInstanceOf(Map);
    // The next day carries one upload: five are left.
    expect(await quota.leftOn(new Date(day.getTime() + 24 * 3600_000))).toMatchObject({
      scheduled: 1,
      uploadsLeft: 5,
    });

    // Units too: each scheduled upload holds the units around it (thumbnail, list calls).
    const tight = createYouTubeQuota(
      t.database.db,
      { unitsPerDay: 6 * 52 + 10, uploadsPerDay: 100 },
      () => new Date(),
    );
    await expect(
      settleYouTubeSettings([target], { a: settings as never }, false, {
        read: (at, except) => tight.leftOn(at, except),
        goesOutAt: day,
      }),
    ).rejects.toThrow(
      `YouTube: Herald's API project has 10 quota units left on ${words} (Pacific time), counting the 6 uploads already scheduled that day, fewer than this post needs (52). Choose another day.`,
    );

    // Operators read the day with what is scheduled for the rest of it counted.
    const onTheDay = createYouTubeQuota(
      t.database.db,
      { unitsPerDay: 10_000, uploadsPerDay: 6 },
      () => new Date(day.getTime() - 2 * 3600_000),
    );
    const finding = await youtubeQuotaFinding(onTheDay);
    expect(finding.level).toBe('warning');
    expect(finding.message).toMatch(
      /: 9,688 of 10,000 units and 0 of 6 uploads left, counting the 6 uploads still scheduled today/,
    );
  });
});
