import { blueskyVideoAllowanceSentence } from '@herald/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { emuInject, useHarness } from '../../test/network-tests.js';
import { testMedia } from '../../test/publish-media.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import { videoDayProblem } from './video-limits.js';

/**
 * Bluesky's daily video allowance (docs/networks.md#bluesky-limits): Herald asks the video
 * service (`app.bsky.video.getUploadLimits`) before each upload, refuses in a sentence when the
 * day cannot carry the video, and shows what is left in the composer.
 */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 14).toString('base64') }),
);

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'bluesky', method, path, payload)).json();

async function connect(email: string, identifier: string) {
  const { owner, orgId } = await createOrg(t.app, email);
  const res = await owner.call(
    'POST',
    `/api/organizations/${orgId}/integrations/bluesky/app-password`,
    { identifier, appPassword: 'abcd-efgh-ijkl-mnop' },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return { owner, orgId, integrationId: row!.id, account: toStoredAccount(t.cipher, row!) };
}

const clip = () => testMedia('video');

describe('Bluesky’s daily video allowance', () => {
  it('is read for the composer, counts down with each upload and runs out', async () => {
    const { owner, orgId, integrationId, account } = await connect(
      'bsky.video.one@example.com',
      'vid.bsky.sandbox',
    );
    const path = `/api/organizations/${orgId}/integrations/${integrationId}/bluesky/video-limits`;
    const before = await owner.call('GET', path);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.data.limits).toEqual({
      canUpload: true,
      remainingDailyVideos: 25,
      remainingDailyBytes: 10_000_000_000,
      message: null,
    });
    expect(blueskyVideoAllowanceSentence(before.body.data.limits)).toBe(
      'Bluesky lets this account upload 25 videos (10.0 GB) more today.',
    );

    const adapter = t.networks.get('bluesky')!.adapter;
    const video = clip();
    await publishInOneGo(adapter.publishing!, account, {
      text: 'One clip',
      media: [video],
      idempotencyKey: 'video-one',
    });
    const after = (await owner.call('GET', path)).body.data.limits;
    expect(after.remainingDailyVideos).toBe(24);
    expect(after.remainingDailyBytes).toBe(10_000_000_000 - video.size);

    // The day's videos are used up: the next one is refused before it is uploaded.
    await emu('POST', 'video-day', { did: account.externalId, videos: 25, bytes: 0 });
    const out = (await owner.call('GET', path)).body.data.limits;
    expect(out).toMatchObject({ canUpload: false, remainingDailyVideos: 0 });
    expect(blueskyVideoAllowanceSentence(out)).toBe(
      'Bluesky lets this account upload no more videos today: You have reached your daily upload limit',
    );
    const refused = await publishInOneGo(adapter.publishing!, account, {
      text: 'Another clip',
      media: [clip()],
      idempotencyKey: 'video-two',
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).kind).toBe('bad_request');
    expect((refused as PlatformError).message).toBe(
      'Bluesky lets this account upload no more videos today (“You have reached your daily upload limit”). Publish the post tomorrow, or without its video.',
    );
    const { posts } = await emu('GET', `posts?did=${encodeURIComponent(account.externalId)}`);
    expect(posts).toHaveLength(1);
  });

  it('refuses a video larger than the bytes the day has left, in a sentence', async () => {
    const { account } = await connect('bsky.video.two@example.com', 'vid2.bsky.sandbox');
    const video = clip();
    await emu('POST', 'video-day', {
      did: account.externalId,
      videos: 3,
      bytes: 10_000_000_000 - video.size + 1,
    });
    const refused = await publishInOneGo(t.networks.get('bluesky')!.adapter.publishing!, account, {
      text: 'Too big for today',
      media: [video],
      idempotencyKey: 'video-three',
    }).catch((e: unknown) => e);
    expect((refused as PlatformError).kind).toBe('bad_request');
    expect((refused as PlatformError).message).toMatch(
      /^This video is [\d.]+ MB, and Bluesky lets this account upload [\d.]+ MB more today\. Publish the post tomorrow, or with a smaller video\.$/,
    );
  });

  it('says nothing against a day that can carry the video', () => {
    const limits = {
      canUpload: true,
      remainingDailyVideos: 1,
      remainingDailyBytes: 5_000_000,
      message: null,
    };
    expect(videoDayProblem(limits, 5_000_000)).toBeNull();
    expect(videoDayProblem(limits, 5_000_001)).toMatch(/upload 5\.0 MB more today/);
    expect(videoDayProblem({ ...limits, remainingDailyVideos: 0 }, 1)).toMatch(/no more videos/);
  });

  it('is not offered for an account of another network', async () => {
    const { owner, orgId } = await createOrg(t.app, 'bsky.video.three@example.com');
    const res = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/00000000-0000-4000-8000-000000000000/bluesky/video-limits`,
    );
    expect(res.status).toBe(404);
  });
});
