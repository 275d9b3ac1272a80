import { postBodyProblems } from '@herald/contract';
import { asUnconfirmed, mediaBytes, PlatformError } from '../errors.js';
import type {
  NetworkComment,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  StoredAccount,
  WritePoints,
} from '../types.js';
import {
  accessOf,
  type BlobRef,
  type BlueskyApi,
  parseAtUri,
  pdsOf,
  type StrongRef,
  type ThreadViewPost,
} from './api.js';
import {
  BLUESKY_LIMITS,
  BLUESKY_SERVICE_AUTH_SECONDS,
  BLUESKY_VIDEO_TIMING,
  BLUESKY_WRITE_POINTS,
} from './limits.js';
import { type LinkCard, readLinkCard } from './link-card.js';
import { readVideoLimits, videoDayProblem } from './video-limits.js';
import { detectRichText, facetsOf, tidFor, tidTime } from './richtext.js';

const POST = 'app.bsky.feed.post';

/** What prepare made: the record key the post will have, and its uploaded files or card. */
interface BlueskyState {
  /** The post's record key, fixed before the visible call (docs/networks.md#bluesky-idempotency). */
  rkey: string;
  createdAt: string;
  images: Array<{ blob: BlobRef; alt: string; width: number | null; height: number | null }>;
  /** The video service's job, until it hands back the stored video's blob. */
  videoJob: string | null;
  /** The video's description and size, for its embed once the service is done. */
  videoMeta: { alt: string; width: number | null; height: number | null } | null;
  video: { blob: BlobRef; alt: string; width: number | null; height: number | null } | null;
  card: { uri: string; title: string; description: string; thumb: BlobRef | null } | null;
  preparedAt: string;
}

type Record_ = Record<string, unknown>;

const token = (account: StoredAccount) => accessOf(account);
const didOf = (account: StoredAccount) => account.externalId;

/** Refuses, before any call, what Bluesky's lexicon would refuse. */
function refuse(request: PublishRequest) {
  const problems = postBodyProblems('Bluesky', request).map((p) => p.message);
  if (problems.length) throw new PlatformError('bad_request', problems.join(' '));
}

const aspectRatio = (width: number | null, height: number | null) =>
  width && height ? { aspectRatio: { width, height } } : {};

/** The web address of a post: `{web}/profile/{did}/post/{rkey}`. */
export const permalinkOf = (web: string, uri: string) => {
  const { did, rkey } = parseAtUri(uri);
  return `${web.replace(/\/+$/, '')}/profile/${did}/post/${rkey}`;
};

/**
 * A follow-up's record key: the same part of the same post always gets the same one, a moment
 * after its parent's (TIDs sort by time, and so do the thread's parts).
 */
function followUpRkey(kind: string, parentUri: string, text: string) {
  const parentTime = tidTime(parseAtUri(parentUri).rkey) ?? Date.now();
  return tidFor(`${kind}:${parentUri}:${text}`, parentTime + 1);
}

/**
 * Bluesky publishing (docs/networks.md#bluesky-publishing, #bluesky-idempotency): prepare fixes the
 * post's record key (a TID) and uploads its images (`uploadBlob`), its video (through the video
 * service) or its link card's thumbnail; check waits for the video service; finalize writes the
 * `app.bsky.feed.post` record under that key with `createRecord`. A write sent again after a lost
 * answer is refused as a key already taken, and the record the first one made is read back
 * instead: the post exists once.
 */
export function createBlueskyPublishing(
  api: BlueskyApi,
  fetchPage: (url: string) => Promise<Response>,
  /**
   * Whether Herald's own rules refuse a post before any call (always, in the product); the drift
   * test turns it off so that the server alone judges what the rules judged.
   */
  {
    checksFirst = true,
    writePoints,
  }: {
    checksFirst?: boolean;
    /** Where the account's write points are counted (docs/networks.md#bluesky-limits). */
    writePoints?: WritePoints;
  } = {},
): PublishingAdapter {
  const refuseFirst = (request: PublishRequest) => {
    if (checksFirst) refuse(request);
  };

  /** The refusal of a write that would go over the account's points: it waits until `retryAt`. */
  const overPoints = (retryAt: Date) =>
    new PlatformError(
      'rate_limited',
      `This Bluesky account has used the writes Bluesky allows it for now (5,000 points an hour, 35,000 a day; a post costs 3). Herald sends it at ${retryAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      {
        code: 'RateLimitExceeded',
        retryAfterSeconds: Math.max(1, Math.ceil((retryAt.getTime() - Date.now()) / 1000)),
      },
    );

  /**
   * Takes a write's points from the account before it is sent; a write that would go over is
   * held back (a rate limit with its time) instead of tripping the PDS's limit.
   */
  async function spend(account: StoredAccount, points: number) {
    if (!writePoints) return;
    const taken = await writePoints.take(
      'bluesky',
      didOf(account),
      points,
      BLUESKY_WRITE_POINTS.windows,
    );
    if (!taken.ok) throw overPoints(taken.retryAt);
  }

  /** Before files are uploaded: whether the post's own write will fit now. */
  async function roomFor(account: StoredAccount, points: number) {
    if (!writePoints) return;
    const room = await writePoints.room(
      'bluesky',
      didOf(account),
      points,
      BLUESKY_WRITE_POINTS.windows,
    );
    if (!room.ok) throw overPoints(room.retryAt);
  }

  /** A 429 from the PDS names when it resets: no process writes for the account before then. */
  async function honour(account: StoredAccount, err: unknown) {
    const seconds = err instanceof PlatformError ? err.details.retryAfterSeconds : undefined;
    if (!writePoints || !(err instanceof PlatformError) || err.kind !== 'rate_limited' || !seconds)
      return;
    await writePoints
      .pause('bluesky', didOf(account), new Date(Date.now() + seconds * 1000))
      .catch(() => undefined);
  }
  const resolveMention = (handle: string) =>
    api
      .resolveIdentity(handle)
      .then((identity) => identity.did)
      .catch(() => null);

  async function recordOf(text: string, createdAt: string, extra: Record_ = {}): Promise<Record_> {
    const facets = await facetsOf(text, resolveMention);
    return {
      $type: POST,
      text,
      createdAt,
      ...(facets.length ? { facets } : {}),
      ...extra,
    };
  }

  /** The record at `rkey` when it exists; null when Bluesky says there is none. */
  async function existing(account: StoredAccount, rkey: string): Promise<StrongRef | null> {
    try {
      const found = await api.getRecord(pdsOf(account), didOf(account), POST, rkey);
      return { uri: found.uri, cid: found.cid };
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'bad_request') return null;
      throw err;
    }
  }

  /**
   * Writes a post under its key. A failed write may have been made all the same (a lost answer),
   * and writing a key already taken fails (the reference PDS answers 500): either way the record
   * under the key, when there is one, is the post.
   */
  async function write(account: StoredAccount, rkey: string, record: Record_): Promise<StrongRef> {
    await spend(account, BLUESKY_WRITE_POINTS.create);
    try {
      return await api.createRecord(pdsOf(account), token(account), {
        repo: didOf(account),
        collection: POST,
        rkey,
        record,
      });
    } catch (err) {
      if (err instanceof PlatformError && (err.kind === 'reauth' || err.kind === 'rate_limited')) {
        await honour(account, err);
        throw err;
      }
      const found = await existing(account, rkey).catch(() => null);
      if (found) return found;
      throw asUnconfirmed('Bluesky', err);
    }
  }

  const resultOf = (ref: StrongRef): PublishResult => ({
    externalId: ref.uri,
    permalink: permalinkOf(api.urls.web, ref.uri),
    extra: { cid: ref.cid },
  });

  const stateOf = (raw: Record_, request: PublishRequest): BlueskyState => {
    const now = new Date();
    return {
      rkey: typeof raw.rkey === 'string' ? raw.rkey : tidFor(request.idempotencyKey, now),
      createdAt: typeof raw.createdAt === 'string' ? raw.createdAt : now.toISOString(),
      images: Array.isArray(raw.images) ? (raw.images as BlueskyState['images']) : [],
      videoJob: typeof raw.videoJob === 'string' ? raw.videoJob : null,
      videoMeta: (raw.videoMeta as BlueskyState['videoMeta']) ?? null,
      video: (raw.video as BlueskyState['video']) ?? null,
      card: (raw.card as BlueskyState['card']) ?? null,
      preparedAt: typeof raw.preparedAt === 'string' ? raw.preparedAt : now.toISOString(),
    };
  };

  function embedOf(state: BlueskyState): Record_ {
    if (state.video)
      return {
        embed: {
          $type: 'app.bsky.embed.video',
          video: state.video.blob,
          ...(state.video.alt ? { alt: state.video.alt } : {}),
          ...aspectRatio(state.video.width, state.video.height),
        },
      };
    if (state.images.length)
      return {
        embed: {
          $type: 'app.bsky.embed.images',
          images: state.images.map((i) => ({
            image: i.blob,
            alt: i.alt,
            ...aspectRatio(i.width, i.height),
          })),
        },
      };
    if (state.card)
      return {
        embed: {
          $type: 'app.bsky.embed.external',
          external: {
            uri: state.card.uri,
            title: state.card.title,
            description: state.card.description,
            ...(state.card.thumb ? { thumb: state.card.thumb } : {}),
          },
        },
      };
    return {};
  }

  async function uploadCard(account: StoredAccount, card: LinkCard) {
    let thumb: BlobRef | null = null;
    if (card.image) {
      thumb = await api
        .uploadBlob(pdsOf(account), token(account), card.image.bytes, card.image.mimeType)
        .then((r) => r.blob)
        .catch(() => null);
    }
    return { uri: card.uri, title: card.title, description: card.description, thumb };
  }

  async function startVideo(account: StoredAccount, media: PublishMedia): Promise<string> {
    // The video service counts videos and bytes a day: a day that cannot carry this one is said
    // before the upload, in a sentence, rather than after it.
    const problem = videoDayProblem(await readVideoLimits(api, account), media.size);
    if (problem) throw new PlatformError('bad_request', problem, { code: 'VideoUploadLimit' });
    const pds = pdsOf(account);
    // The video service stores the processed video on the account's PDS, as the account.
    const aud = `did:web:${new URL(pds).hostname}`;
    const exp = Math.floor(Date.now() / 1000) + BLUESKY_SERVICE_AUTH_SECONDS;
    const auth = await api.getServiceAuth(
      pds,
      token(account),
      aud,
      'com.atproto.repo.uploadBlob',
      exp,
    );
    const job = await api.uploadVideo(
      auth.token,
      didOf(account),
      media.fileName,
      await mediaBytes(media),
    );
    return job.jobId;
  }

  /** The post a reply goes under, with the root of its thread. */
  async function replyRefs(account: StoredAccount, parentUri: string) {
    const { did, collection, rkey } = parseAtUri(parentUri);
    const parent = await api.getRecord<{ reply?: { root: StrongRef } }>(
      did === didOf(account) ? pdsOf(account) : (await api.resolveIdentity(did)).pds,
      did,
      collection,
      rkey,
    );
    const parentRef = { uri: parent.uri, cid: parent.cid };
    return { root: parent.value.reply?.root ?? parentRef, parent: parentRef };
  }

  async function reply(account: StoredAccount, kind: string, parentUri: string, text: string) {
    refuseFirst({ text, media: [], idempotencyKey: '' });
    const refs = await replyRefs(account, parentUri);
    const record = await recordOf(text, new Date().toISOString(), { reply: refs });
    return write(account, followUpRkey(kind, parentUri, text), record);
  }

  function toComment(node: ThreadViewPost, ownDid: string): NetworkComment | null {
    const post = node.post;
    if (!post) return null;
    return {
      id: post.uri,
      message: post.record.text ?? '',
      likes: post.likeCount ?? 0,
      createdTime: post.record.createdAt ?? post.indexedAt,
      from: {
        id: post.author.did,
        name: post.author.displayName || post.author.handle,
        pictureUrl: post.author.avatar ?? null,
      },
      isOwn: post.author.did === ownDid,
      replies: (node.replies ?? [])
        .map((r) => toComment(r, ownDid))
        .filter((c): c is NetworkComment => c !== null),
    };
  }

  return {
    // Without files or links, nothing is sent before the post itself.
    preparesLocally: (request) =>
      request.media.length === 0 && detectRichText(request.text).links.length === 0,

    async prepare(account, request) {
      refuseFirst(request);
      // Files uploaded for a post that must wait hours for its write would be gone by then.
      await roomFor(account, BLUESKY_WRITE_POINTS.create);
      const state = stateOf({}, request);
      const images = request.media.filter((m) => m.kind === 'image');
      const videos = request.media.filter((m) => m.kind === 'video');
      // A post record holds one embed: images, or one video. Anything else it cannot carry, and
      // no file is dropped without a word.
      if (videos.length > 1 || (videos.length === 1 && images.length > 0))
        throw new PlatformError(
          'bad_request',
          'A Bluesky post carries up to four images or one video, not both and not two videos.',
        );
      const video = videos[0];
      for (const media of images) {
        const bytes = await mediaBytes(media);
        const { blob } = await api.uploadBlob(
          pdsOf(account),
          token(account),
          bytes,
          media.mimeType,
        );
        state.images.push({
          blob,
          alt: media.altText ?? '',
          width: media.width,
          height: media.height,
        });
      }
      if (video) {
        state.videoJob = await startVideo(account, video);
        state.videoMeta = { alt: video.altText ?? '', width: video.width, height: video.height };
      }
      // A link card when the post shows no file: the first link's page, read through the guard.
      const link = request.media.length ? undefined : detectRichText(request.text).links[0];
      if (link) {
        const card = await readLinkCard(link.uri, fetchPage);
        if (card) state.card = await uploadCard(account, card);
      }
      return { ...state };
    },

    async check(account, raw) {
      const jobId = typeof raw.videoJob === 'string' ? raw.videoJob : null;
      if (!jobId || raw.video) return { status: 'ready' };
      const { jobStatus } = await api.videoJob(jobId);
      if (jobStatus.blob) {
        const meta = (raw.videoMeta as BlueskyState['videoMeta']) ?? {
          alt: '',
          width: null,
          height: null,
        };
        return { status: 'ready', state: { video: { blob: jobStatus.blob, ...meta } } };
      }
      if (jobStatus.state === 'JOB_STATE_FAILED')
        throw new PlatformError(
          'bad_request',
          `Bluesky could not process the video: ${jobStatus.message ?? jobStatus.error ?? 'it gave no reason'}.`,
        );
      const preparedAt =
        typeof raw.preparedAt === 'string' ? Date.parse(raw.preparedAt) : Date.now();
      if (Date.now() - preparedAt > BLUESKY_VIDEO_TIMING.giveUpMs)
        throw new PlatformError(
          'bad_request',
          'Bluesky was still processing the video fifteen minutes after Herald sent it. Try again, or with a shorter video.',
        );
      return { status: 'pending', retryAfterMs: BLUESKY_VIDEO_TIMING.pollMs };
    },

    async finalize(account, request, raw) {
      const state = stateOf(raw, request);
      const record = await recordOf(request.text, state.createdAt, embedOf(state));
      return resultOf(await write(account, state.rkey, record));
    },

    async reconcile(account, request, raw) {
      // The key was fixed before the lost call: the record is there, or it never was made.
      const found = await existing(account, stateOf(raw, request).rkey);
      return found ? resultOf(found) : null;
    },

    async followUp(account, { kind, postId, replyTo, text }) {
      const parent = kind === 'part' ? replyTo : postId;
      return resultOf(await reply(account, kind, parent, text));
    },

    async listComments(account, externalId) {
      const { thread } = await api.postThread(externalId, BLUESKY_LIMITS.threadDepth);
      const comments = (thread.replies ?? [])
        .map((r) => toComment(r, didOf(account)))
        .filter((c): c is NetworkComment => c !== null);
      return { comments, nextCursor: null };
    },

    async reply(account, target, message) {
      const ref = await reply(account, 'reply', target.commentId, message);
      return {
        id: ref.uri,
        message,
        likes: 0,
        createdTime: new Date().toISOString(),
        from: {
          id: didOf(account),
          name: String(account.extra.handle ?? didOf(account)),
          pictureUrl: null,
        },
        isOwn: true,
        replies: [],
      };
    },

    async deleteComment(account, commentId) {
      const { did, collection, rkey } = parseAtUri(commentId);
      if (did !== didOf(account))
        throw new PlatformError(
          'bad_request',
          'Bluesky lets an account delete only its own posts.',
        );
      await spend(account, BLUESKY_WRITE_POINTS.delete);
      await api
        .deleteRecord(pdsOf(account), token(account), did, collection, rkey)
        .catch(async (err: unknown) => {
          await honour(account, err);
          throw err;
        });
    },
  };
}
