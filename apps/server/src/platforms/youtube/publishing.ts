import {
  YouTubePostSettingsSchema,
  youtubeSettingsIssues,
  type YouTubePostSettings,
} from '@herald/contract';
import { PlatformError } from '../errors.js';
import type {
  NetworkComment,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import type { UploadProgress, YouTubeApi, YouTubeComment, YouTubeVideo } from './api.js';
import { YOUTUBE_CHUNK_BYTES, YOUTUBE_RESUME_TRIES } from './limits.js';

/** What prepare made at YouTube: the upload session, and how far its bytes got. */
interface YouTubeState {
  sessionUri: string;
  total: number;
  committed: number;
}

const token = (account: StoredAccount) => account.tokens.accessToken;
const videoOf = (request: PublishRequest) => request.media.find((m) => m.kind === 'video');
const thumbnailOf = (request: PublishRequest) => request.media.find((m) => m.kind === 'image');

function readState(state: PublishState): YouTubeState {
  const s = state as Partial<YouTubeState>;
  if (typeof s.sessionUri !== 'string' || typeof s.total !== 'number')
    throw new PlatformError('bad_request', 'The YouTube upload was not started; prepare it again.');
  return { sessionUri: s.sessionUri, total: s.total, committed: Number(s.committed ?? 0) };
}

export interface YouTubePublishingOptions {
  unaudited: boolean;
  /**
   * Herald's own check of the settings before any call (default true). The drift test turns it
   * off so that YouTube (its emulator) alone judges the video resource.
   */
  checksFirst?: boolean;
  now?: () => Date;
}

/** The settings chosen in the composer, checked again before anything goes to YouTube. */
function settingsOf(request: PublishRequest, app: YouTubePublishingOptions): YouTubePostSettings {
  const parsed = YouTubePostSettingsSchema.safeParse(request.settings ?? {});
  if (!parsed.success)
    throw new PlatformError('bad_request', 'The YouTube settings of this post are not valid.');
  const settings = parsed.data;
  const videos = request.media.filter((m) => m.kind === 'video');
  // One upload carries one video: a post of another shape has no call to make.
  if (videos.length > 1 || request.media.length - videos.length > 1)
    throw new PlatformError(
      'bad_request',
      'A YouTube post is one video, with at most one image as its thumbnail.',
    );
  if (app.checksFirst === false) return settings;
  const problems = youtubeSettingsIssues(settings, request.media).map((i) => i.message);
  if (videos.length !== 1) problems.unshift('A YouTube post needs exactly one video.');
  if (app.unaudited && settings.privacyStatus !== 'private')
    problems.push(
      "Herald's YouTube API project has not passed YouTube's audit yet, so YouTube keeps every upload private. Choose Private for this video.",
    );
  if (problems.length) throw new PlatformError('bad_request', problems.join(' '));
  return settings;
}

async function bytesOf(media: PublishMedia, start: number, end: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const piece of await media.open({ start, end }))
    chunks.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as unknown as Uint8Array));
  return Buffer.concat(chunks);
}

const resultOf = (video: YouTubeVideo, thumbnailProblem?: string): PublishResult => ({
  externalId: video.id,
  permalink: `https://www.youtube.com/watch?v=${video.id}`,
  extra: {
    privacyStatus: video.status?.privacyStatus ?? null,
    // YouTube makes the video public at this time (scheduled on YouTube's side).
    ...(video.status?.publishAt ? { publishAt: video.status.publishAt } : {}),
    ...(thumbnailProblem ? { thumbnailProblem } : {}),
  },
});

function toComment(c: YouTubeComment, channelId: string, replies: NetworkComment[] = []) {
  const author = c.snippet.authorChannelId?.value ?? '';
  return {
    id: c.id,
    message: c.snippet.textOriginal ?? c.snippet.textDisplay ?? '',
    likes: c.snippet.likeCount ?? 0,
    createdTime: c.snippet.publishedAt ?? new Date(0).toISOString(),
    from: {
      id: author,
      name: c.snippet.authorDisplayName ?? 'YouTube user',
      pictureUrl: c.snippet.authorProfileImageUrl ?? null,
    },
    isOwn: author !== '' && author === channelId,
    replies,
  } satisfies NetworkComment;
}

/** The top-level comment a reply hangs under: YouTube reply ids are `{parent}.{reply}`. */
export const parentCommentOf = (commentId: string) => commentId.split('.')[0]!;

/**
 * YouTube publishing with the resumable upload protocol (docs/networks.md#youtube-publishing,
 * #youtube-idempotency). prepare opens the upload session (videos.insert, nothing visible: a
 * session without its bytes never becomes a video) and the session URI is kept with the target;
 * check sends every byte but the last chunk, resuming from what YouTube says it has after a cut;
 * finalize sends the last chunk, which makes the video. When that answer is lost, reconcile asks
 * the same session (`Content-Range: bytes * /total`): it answers the video it made, or how far
 * the bytes got, so a retry resumes the one upload and never makes a second video.
 */
export function createYouTubePublishing(
  api: YouTubeApi,
  app: YouTubePublishingOptions,
): PublishingAdapter {
  const now = app.now ?? (() => new Date());

  /**
   * The video's status. With `scheduleOnYouTube`, a public video goes up private with
   * `publishAt` the post's time, and YouTube makes it public then; when that time has already
   * passed (the upload ran late), it goes up public at once like any other.
   */
  function statusOf(settings: YouTubePostSettings, request: PublishRequest) {
    const status = {
      privacyStatus: settings.privacyStatus as string,
      selfDeclaredMadeForKids: settings.madeForKids,
    };
    if (!settings.scheduleOnYouTube || !request.scheduledAt) return status;
    const at = request.scheduledAt;
    if (app.checksFirst !== false && at.getTime() <= now().getTime()) return status;
    return {
      ...status,
      privacyStatus: settings.privacyStatus === 'public' ? 'private' : settings.privacyStatus,
      publishAt: at.toISOString(),
    };
  }

  /** The video's status part (videos.list, 1 unit); null when YouTube has no such video. */
  const statusRead = async (account: StoredAccount, externalId: string) =>
    (await api.videos(token(account), [externalId], 'status'))[0] ?? null;

  /** Where the upload stands, asked of the session itself. */
  const progress = (account: StoredAccount, s: YouTubeState) =>
    api.queryUpload(s.sessionUri, token(account), s.total);

  /**
   * Sends the bytes from what YouTube has up to `until` (exclusive), chunk by chunk; after a cut
   * it asks the session how far it got and goes on from there, a few times.
   */
  async function sendUntil(
    account: StoredAccount,
    s: YouTubeState,
    video: PublishMedia,
    until: number,
    committed: number,
  ): Promise<UploadProgress> {
    let at = committed;
    let tries = 0;
    let last: UploadProgress = { done: false, committed: at };
    while (at < until) {
      const end = Math.min(at + YOUTUBE_CHUNK_BYTES, until);
      try {
        last = await api.putChunk(
          s.sessionUri,
          token(account),
          await bytesOf(video, at, end - 1),
          at,
          s.total,
        );
      } catch (err) {
        if (!(err instanceof PlatformError) || err.kind !== 'transient') throw err;
        tries += 1;
        if (tries > YOUTUBE_RESUME_TRIES) throw err;
        last = await progress(account, s);
      }
      if (last.done) return last;
      at = last.committed;
    }
    return last;
  }

  async function withThumbnail(
    account: StoredAccount,
    request: PublishRequest,
    video: YouTubeVideo,
  ): Promise<PublishResult> {
    const thumbnail = thumbnailOf(request);
    if (!thumbnail) return resultOf(video);
    try {
      const bytes = await bytesOf(thumbnail, 0, thumbnail.size - 1);
      await api.setThumbnail(token(account), video.id, bytes, thumbnail.mimeType);
      return resultOf(video);
    } catch (err) {
      // The video is out: a refused thumbnail is said, not a failed publication.
      const why = err instanceof Error ? err.message : 'YouTube refused the thumbnail.';
      return resultOf(video, why);
    }
  }

  async function comments(account: StoredAccount, videoId: string, cursor?: string) {
    const channelId = account.externalId;
    const page = await api.commentThreads(token(account), { videoId }, cursor);
    const out: NetworkComment[] = [];
    for (const thread of page.threads) {
      let replies = thread.replies?.comments ?? [];
      // The thread holds only some replies: the rest are read from comments.list.
      if ((thread.snippet.totalReplyCount ?? 0) > replies.length)
        replies = await api.replies(token(account), thread.snippet.topLevelComment.id);
      out.push(
        toComment(
          thread.snippet.topLevelComment,
          channelId,
          replies.map((r) => toComment(r, channelId)),
        ),
      );
    }
    return { comments: out, nextCursor: page.nextPageToken };
  }

  return {
    async prepare(account, request) {
      const settings = settingsOf(request, app);
      const video = videoOf(request);
      const sessionUri = await api.startUpload(token(account), {
        // Without a video (only when Herald does not check first), YouTube answers that the
        // upload has no content.
        total: video?.size ?? 0,
        mimeType: video?.mimeType ?? 'video/*',
        notifySubscribers: settings.notifySubscribers,
        resource: {
          snippet: {
            // The channel chosen at connect, when one Google account manages several.
            channelId: account.externalId,
            title: settings.title.trim(),
            description: request.text,
            tags: settings.tags,
            categoryId: settings.categoryId,
          },
          status: statusOf(settings, request),
        },
      });
      return { sessionUri, total: video?.size ?? 0, committed: 0 };
    },

    async check(account, state, request) {
      const s = readState(state);
      const video = request ? videoOf(request) : undefined;
      if (!video) return { status: 'ready' };
      // Everything but the last chunk: the last one makes the video, and that is finalize's.
      const lastChunk = s.total - (((s.total - 1) % YOUTUBE_CHUNK_BYTES) + 1);
      const now = await progress(account, s);
      if (now.done) return { status: 'ready', state: { committed: s.total } };
      const sent = await sendUntil(account, s, video, lastChunk, now.committed);
      return {
        status: 'ready',
        state: { committed: sent.done ? s.total : sent.committed },
      };
    },

    async finalize(account, request, state) {
      const s = readState(state);
      const video = videoOf(request)!;
      let now: UploadProgress;
      try {
        now = await progress(account, s);
        if (!now.done) now = await sendUntil(account, s, video, s.total, now.committed);
      } catch (err) {
        // The last bytes may have arrived and made the video: reconcile asks the session.
        if (err instanceof PlatformError && (err.kind === 'transient' || !err.details.status))
          throw new PlatformError(
            'unknown_outcome',
            `YouTube did not confirm the upload (${err.message}). Herald will ask YouTube before trying again.`,
            err.details,
          );
        throw err;
      }
      if (!now.done)
        throw new PlatformError(
          'unknown_outcome',
          'YouTube has every byte but did not answer with the video. Herald will ask YouTube before trying again.',
        );
      return withThumbnail(account, request, now.video);
    },

    async reconcile(account, request, state) {
      const s = readState(state);
      const now = await progress(account, s);
      // Not finished: no video exists; the next finalize resumes from what YouTube has.
      if (!now.done) return null;
      return withThumbnail(account, request, now.video);
    },

    // videos.update of the status part replaces it whole: the made-for-kids answer goes again.
    async reschedule(account, externalId, at) {
      const video = await statusRead(account, externalId);
      if (!video)
        throw new PlatformError('bad_request', 'This video is no longer on YouTube.', {
          code: 'videoNotFound',
        });
      const madeForKids = video.status?.selfDeclaredMadeForKids ?? false;
      await api.updateVideoStatus(
        token(account),
        externalId,
        // No time: public now (Publish now of a video waiting for YouTube's schedule).
        at
          ? {
              privacyStatus: 'private',
              publishAt: at.toISOString(),
              selfDeclaredMadeForKids: madeForKids,
            }
          : { privacyStatus: 'public', selfDeclaredMadeForKids: madeForKids },
      );
    },

    async withdraw(account, externalId) {
      try {
        await api.deleteVideo(token(account), externalId);
      } catch (err) {
        // Deleted already (a retry after a lost answer, or by hand in YouTube Studio): done.
        if (err instanceof PlatformError && err.details.code === 'videoNotFound') return;
        throw err;
      }
    },

    async lookUpScheduled(account, externalId) {
      const video = await statusRead(account, externalId);
      return video ? resultOf(video) : null;
    },

    listComments: (account, externalId, page) => comments(account, externalId, page.cursor),

    async reply(account, target, message) {
      const made = await api.insertReply(
        token(account),
        parentCommentOf(target.commentId),
        message,
      );
      return toComment(made, account.externalId);
    },

    async editComment(account, commentId, message) {
      await api.updateComment(token(account), commentId, message);
    },

    async deleteComment(account, commentId) {
      await api.deleteComment(token(account), commentId);
    },
  };
}
