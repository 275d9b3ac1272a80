import { createFacebookAdapter } from '../../platforms/facebook/adapter.js';
import { network as facebook } from '../../platforms/facebook/index.js';
import { createInstagramAdapter } from '../../platforms/instagram/adapter.js';
import { network as instagram } from '../../platforms/instagram/index.js';
import { createLinkedInAdapter } from '../../platforms/linkedin/adapter.js';
import { network as mastodon } from '../../platforms/mastodon/index.js';
import { network as bluesky } from '../../platforms/bluesky/index.js';
import { network as googlebusiness } from '../../platforms/googlebusiness/index.js';
import { createBlueskyApi } from '../../platforms/bluesky/api.js';
import { createBlueskyPublishing } from '../../platforms/bluesky/publishing.js';
import { network as linkedin } from '../../platforms/linkedin/index.js';
import { network as pinterest } from '../../platforms/pinterest/index.js';
import { PlatformError } from '../../platforms/errors.js';
import { publishInOneGo } from '../../platforms/publish-steps.js';
import { createThreadsAdapter } from '../../platforms/threads/adapter.js';
import { network as threads } from '../../platforms/threads/index.js';
import { THREADS_TIMING } from '../../platforms/threads/limits.js';
import { createTikTokAdapter } from '../../platforms/tiktok/adapter.js';
import { network as tiktok } from '../../platforms/tiktok/index.js';
import { TIKTOK_TIMING } from '../../platforms/tiktok/limits.js';
import { createXAdapter } from '../../platforms/x/adapter.js';
import { network as x } from '../../platforms/x/index.js';
import { createYouTubeApi } from '../../platforms/youtube/api.js';
import { network as youtube } from '../../platforms/youtube/index.js';
import { createYouTubePublishing } from '../../platforms/youtube/publishing.js';
import type {
  ConnectableAccount,
  PublishingAdapter,
  PublishMedia,
  StoredAccount,
} from '../../platforms/types.js';
import { startSandboxHarness as startGraphHarness } from '../graph-harness.js';
import { pkcePair, startSandboxHarness } from '../sandbox-harness.js';

/**
 * One network's emulator, mounted as the server mounts it, with its real adapter connected as one
 * account whose caps are lifted (the drift test publishes hundreds of posts) and whose media
 * process at once. `publish` sends a post and its follow-ups the way the engine does.
 */
export interface Driver {
  publish(post: {
    text: string;
    media: PublishMedia[];
    threadParts: string[];
    firstComment: string | null;
    key: string;
    /** This post's own settings for the account (YouTube's), instead of the driver's. */
    settings?: Record<string, unknown>;
    /** The post's scheduled time, for networks that can be asked to publish at it. */
    scheduledAt?: Date | null;
  }): Promise<{ accepted: true } | { accepted: false; message: string }>;
  close(): Promise<void>;
}

const stored = (a: ConnectableAccount): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: a.secrets ?? {},
});

const UNCAPPED = 1_000_000;

function driverOf(
  publishing: PublishingAdapter,
  account: StoredAccount,
  close: () => Promise<void>,
  settings?: Record<string, unknown>,
): Driver {
  return {
    close,
    async publish(post) {
      try {
        const request = {
          text: post.text,
          media: post.media,
          idempotencyKey: post.key,
          settings: post.settings ?? settings,
          scheduledAt: post.scheduledAt ?? null,
        };
        const done = await publishInOneGo(publishing, account, request, {
          maxChecks: 400,
          maxWaitMs: 10,
        });
        let replyTo = done.externalId;
        for (const text of post.threadParts) {
          const part = await publishing.followUp!(account, {
            kind: 'part',
            postId: done.externalId,
            replyTo,
            text,
          });
          replyTo = part.externalId;
        }
        if (post.firstComment !== null)
          await publishing.followUp!(account, {
            kind: 'first_comment',
            postId: done.externalId,
            replyTo,
            text: post.firstComment,
          });
        return { accepted: true };
      } catch (err) {
        if (!(err instanceof PlatformError) || err.kind !== 'bad_request') throw err;
        return { accepted: false, message: err.message };
      }
    },
  };
}

type MediaOrigin = () => string;

export async function xDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(x, { heraldStandIn: media });
  const { account } = await h.connectAs('Drift Poster');
  for (const knob of ['publish_cap', 'processing_ms'])
    await h.setKnob('drift_poster', knob, true, knob === 'publish_cap' ? UNCAPPED : 0);
  // Replies to one's own posts are allowed anyway; the switch keeps other rules out of the way.
  await h.setKnob('drift_poster', 'reply_open', true);
  const adapter = createXAdapter(h.settings, { finalizeTimeoutMs: 10_000 }).publishing!;
  return driverOf(adapter, stored(account), () => h.close());
}

export async function threadsDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(threads, { heraldStandIn: media });
  const { account } = await h.connectAs('Drift Poster');
  await h.setKnob('drift_poster', 'publish_cap', true, UNCAPPED);
  await h.setKnob('drift_poster', 'processing_ms', true, 0);
  const adapter = createThreadsAdapter(h.settings, {
    ...THREADS_TIMING,
    firstLookMs: 0,
    pollMs: 5,
    giveUpMs: 10_000,
    publishTimeoutMs: 10_000,
    replyReadyMs: 2000,
  }).publishing!;
  return driverOf(adapter, stored(account), () => h.close());
}

export async function tiktokDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(tiktok, { heraldStandIn: media });
  const { account } = await h.connectAs('Drift Poster');
  for (const [knob, value] of [
    ['publish_cap', UNCAPPED],
    ['processing_ms', 0],
    ['moderation_ms', 0],
  ] as const)
    await h.setKnob('drift_poster', knob, true, value);
  const adapter = createTikTokAdapter(h.settings, {
    ...TIKTOK_TIMING,
    statusFirstDelayMs: 0,
    statusMaxDelayMs: 10,
    statusBudgetMs: 10_000,
  }).publishing!;
  return driverOf(adapter, stored(account), () => h.close(), {
    privacyLevel: 'PUBLIC_TO_EVERYONE',
    allowComments: true,
    allowDuet: true,
    allowStitch: true,
  });
}

async function metaDriver(
  module: typeof instagram | typeof facebook,
  make: typeof createInstagramAdapter | typeof createFacebookAdapter,
  media: MediaOrigin,
): Promise<Driver> {
  const h = await startGraphHarness(module, { heraldStandIn: media });
  const { code } = await h.authorize({
    fields: { account: 'Drift Poster', pages: 'Drift Page', instagram: 'drift_poster' },
  });
  const [account] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  await h.setKnob('Drift Poster', 'publish_cap', UNCAPPED);
  await h.setKnob('Drift Poster', 'processing_ms', 1);
  const adapter = make(h.settings, {
    imagePollMs: 1,
    videoPollMs: 1,
    maxPollMs: 5,
    finalizeTimeoutMs: 10_000,
  }).publishing!;
  return driverOf(adapter, stored(account!), () => h.close());
}

export const instagramDriver = (media: MediaOrigin) =>
  metaDriver(instagram, createInstagramAdapter, media);
export const facebookDriver = (media: MediaOrigin) =>
  metaDriver(facebook, createFacebookAdapter, media);

export async function linkedinDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startGraphHarness(linkedin, { heraldStandIn: media });
  const { code } = await h.authorize({
    fields: { account: 'Drift Poster', organizations: '' },
    kind: 'person',
  });
  const [account] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
    kind: 'person',
  });
  await h.setKnob('Drift Poster', 'publish_cap', UNCAPPED);
  await h.setKnob('Drift Poster', 'processing_ms', 1);
  const adapter = createLinkedInAdapter(h.settings, { finalizeTimeoutMs: 10_000 }).publishing!;
  return driverOf(adapter, stored(account!), () => h.close());
}

/**
 * Mastodon's `social.example`, whose limits are a stock server's (the rules' numbers). The
 * account's stored limits are lifted so that the adapter's own check, made with the shared rules,
 * lets every post through to the server, which alone judges it.
 */
export async function mastodonDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(mastodon, { heraldStandIn: media });
  const server = {
    instance: 'social.example',
    ...(await h.adapter.registerServerApp!('social.example', h.redirectUri)),
  };
  const { verifier, challenge } = pkcePair();
  const landed = await h.authorize({ server, account: 'Drift Poster', codeChallenge: challenge });
  const [account] = await h.adapter.connect({
    code: landed.searchParams.get('code')!,
    redirectUri: h.redirectUri,
    codeVerifier: verifier,
    server,
  });
  const held = stored(account!);
  held.extra = {
    ...held.extra,
    limits: {
      maxCharacters: UNCAPPED,
      maxMedia: 100,
      imageSizeLimit: 1024 ** 3,
      videoSizeLimit: 1024 ** 3,
      descriptionLimit: UNCAPPED,
    },
  };
  return driverOf(h.adapter.publishing!, held, () => h.close());
}

/**
 * Bluesky's sandbox PDS, signed in to with an app password as a person connects. The sandbox's
 * DID documents name the PDS at Herald's public address; the harness listens elsewhere.
 */
export async function blueskyDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(bluesky, { heraldStandIn: media });
  const publicOrigin = new URL(h.heraldApi).origin;
  const http: typeof fetch = (url, init) =>
    fetch(String(url).replace(publicOrigin, h.origin), init);
  const adapter = h.adapterWith({ http });
  const [account] = await adapter.connectWithPassword!({
    identifier: 'drift-poster.bsky.sandbox',
    password: 'abcd-efgh-ijkl-mnop',
  });
  // The same publishing without Herald's own check first: the sandbox's lexicon alone judges.
  const publishing = createBlueskyPublishing(
    createBlueskyApi({ ...h.settings, http }),
    () => Promise.reject(new Error('no linked pages in the drift test')),
    { checksFirst: false },
  );
  const driver = driverOf(publishing, stored(account!), () => h.close());
  return {
    ...driver,
    // Each shape starts with a whole day of video uploads and write points: the drift is about
    // what one post may carry, not about how many a day allows.
    async publish(post) {
      const did = account!.externalId;
      await h.emu('POST', 'video-day', { did, videos: 0, bytes: 0 });
      await h.emu('POST', 'spend-write-points', { did, reset: true });
      return driver.publish(post);
    },
  };
}

/**
 * YouTube's Data API emulator, with the publishing that skips Herald's own check of the video's
 * settings: the emulator alone judges the video resource. A thumbnail YouTube refuses leaves the
 * video published (the adapter says why in the result); here it counts as a refusal, since the
 * rules refuse such a post.
 */
export async function youtubeDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(youtube, { heraldStandIn: media });
  const { account } = await h.connectAs('Drift Poster');
  await h.setKnob('drift_poster', 'publish_cap', true, UNCAPPED);
  // The upload session's address is at Herald's public address; the harness listens elsewhere.
  const publicOrigin = new URL(h.heraldApi).origin;
  const http: typeof fetch = (url, init) =>
    fetch(String(url).replace(publicOrigin, h.origin), init);
  const publishing = createYouTubePublishing(createYouTubeApi({ ...h.settings, http }), {
    unaudited: false,
    checksFirst: false,
  });
  const strict: PublishingAdapter = {
    ...publishing,
    async finalize(account, request, state) {
      const result = await publishing.finalize(account, request, state);
      const problem = result.extra?.thumbnailProblem;
      if (typeof problem === 'string') throw new PlatformError('bad_request', problem);
      return result;
    },
  };
  return driverOf(strict, stored(account), () => h.close());
}

/**
 * A Google Business Profile location of the sandbox's: the adapter sends every post as it is (it
 * checks nothing Google checks), and the emulator's localPosts rules alone judge it.
 */
export async function googleBusinessDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(googlebusiness, { heraldStandIn: media });
  const { account } = await h.connectAs('Drift Poster');
  return driverOf(h.adapter.publishing!, stored(account), () => h.close());
}

/**
 * Pinterest's emulator with a board to pin on. The emulator names its upload storage at its
 * public address (Herald's API URL); the harness listens elsewhere, so the adapter's requests to
 * that address go to the harness. Videos process at once.
 */
export async function pinterestDriver(media: MediaOrigin): Promise<Driver> {
  const h = await startSandboxHarness(pinterest, { heraldStandIn: media });
  const publicOrigin = new URL(h.heraldApi).origin;
  const http: typeof fetch = (url, init) =>
    fetch(String(url).replace(publicOrigin, h.origin), init);
  const adapter = h.adapterWith({ http });
  const { account } = await h.connectAs('Drift Poster');
  await h.setKnob('drift_poster', 'processing_ms', true, 0);
  const held = stored(account);
  const [board] = await adapter.boards!(held);
  return driverOf(adapter.publishing!, held, () => h.close(), {
    boardId: board!.id,
    title: 'Drift',
    link: 'https://example.com/drift',
  });
}
