import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callFault } from '../kit/call-knobs.js';
import { MEDIA_HEAD_BYTES, readReceivedMedia } from '../kit/media-facts.js';
import { bearerToken } from '../kit/consent.js';
import type { AccessCheck, SandboxOAuth } from '../kit/oauth-state.js';
import { randomToken } from '../kit/secrets.js';
import { emuTenant } from '../kit/tenant.js';
import type { SandboxStore } from '../store.js';
import type { YouTubeChannels } from './channels.js';
import {
  authError,
  commentId,
  FORCE_SSL_SCOPE,
  googleError,
  READ_SCOPES,
  UPLOAD_SCOPE,
  videoId,
} from './google.js';

type Access = Extract<AccessCheck, { ok: true }>;
type Query = Record<string, string | undefined>;

/** What the emulator keeps of a received body: its length and first bytes, never the bytes. */
interface Received {
  bytes: number;
  head: Buffer;
}

export interface SandboxVideo {
  id: string;
  accountId: string;
  channelId: string;
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  privacyStatus: string;
  madeForKids: boolean;
  publishAt: string | null;
  size: number;
  mimeType: string;
  thumbnail: { mimeType: string; bytes: number } | null;
  /** Vertical or square and at most three minutes, as read from the file's head: a Short. */
  short?: boolean;
  views: number;
  likes: number;
  publishedAt: number;
}

interface UploadSession {
  id: string;
  accountId: string;
  channelId: string;
  total: number;
  committed: number;
  mimeType: string;
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  videoId: string | null;
  /** The file's first bytes (base64), where a video says its size and duration. */
  head?: string;
}

interface SandboxComment {
  id: string;
  videoId: string;
  channelId: string;
  parentId: string | null;
  authorChannelId: string;
  authorName: string;
  text: string;
  likes: number;
  publishedAt: number;
  updatedAt: number;
}

/** What the first chunk keeps of a video: room for its `moov` box, placed first. */
const VIDEO_HEAD_BYTES = Math.min(MEDIA_HEAD_BYTES, 256 * 1024);
/** snippet.title: 100 characters; snippet.description: 5,000 bytes; snippet.tags: 500 characters. */
const TITLE_MAX = 100;
const DESCRIPTION_MAX_BYTES = 5000;
const TAGS_MAX = 500;
/** The categories videoCategories.list answers assignable (region US). */
const CATEGORIES = new Set([
  '1',
  '2',
  '10',
  '15',
  '17',
  '19',
  '20',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
]);
const PRIVACY = new Set(['public', 'unlisted', 'private']);
/** A vertical or square video of at most three minutes becomes a Short. */
const SHORT_MAX_SECONDS = 180;

/**
 * How YouTube counts snippet.tags against its 500 characters: the commas between tags count,
 * and a tag with a space counts as if it were quoted.
 */
const tagsLength = (tags: string[]) =>
  tags.reduce((sum, tag) => sum + [...tag].length + (tag.includes(' ') ? 2 : 0), 0) +
  Math.max(0, tags.length - 1);

/** A video scheduled with status.publishAt is public once that time has come. */
const privacyAt = (v: SandboxVideo, now: number) =>
  v.publishAt && v.privacyStatus === 'private' && Date.parse(v.publishAt) <= now
    ? 'public'
    : v.privacyStatus;
/** The uploads a channel may make in a day before `uploadLimitExceeded` (knob `publish_cap`). */
const CHANNEL_DAILY_UPLOADS = 100;

/**
 * What videos.insert refuses in the video resource, with YouTube's reason
 * (https://developers.google.com/youtube/v3/docs/videos/insert#errors): title, description,
 * tags, category, the made-for-kids answer, privacy and the scheduled publishing time.
 */
function metadataRefusal(
  snippet: Record<string, unknown>,
  status: Record<string, unknown>,
  now: number,
): { reason: string; message: string } | null {
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  if (!title.trim() || [...title].length > TITLE_MAX || /[<>]/.test(title))
    return {
      reason: 'invalidTitle',
      message: 'The request metadata specifies an invalid or empty video title.',
    };
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES || /[<>]/.test(description))
    return {
      reason: 'invalidDescription',
      message: 'The request metadata specifies an invalid video description.',
    };
  const tags = Array.isArray(snippet.tags) ? snippet.tags.map(String) : [];
  if (tagsLength(tags) > TAGS_MAX || tags.some((t) => /[<>]/.test(t)))
    return {
      reason: 'invalidTags',
      message: 'The request metadata specifies invalid video keywords.',
    };
  if (!CATEGORIES.has(String(snippet.categoryId ?? '22')))
    return {
      reason: 'invalidCategoryId',
      message: 'The snippet.categoryId property specifies an invalid category ID.',
    };
  if (typeof status.selfDeclaredMadeForKids !== 'boolean')
    return {
      reason: 'invalidVideoMetadata',
      message:
        'The request metadata does not say whether the video is made for kids (status.selfDeclaredMadeForKids).',
    };
  const privacy = status.privacyStatus ?? 'public';
  if (typeof privacy !== 'string' || !PRIVACY.has(privacy))
    return {
      reason: 'invalidVideoMetadata',
      message: `Invalid value for status.privacyStatus: ${String(privacy)}. Expected public, unlisted or private.`,
    };
  if (status.publishAt !== undefined) {
    const at = typeof status.publishAt === 'string' ? Date.parse(status.publishAt) : NaN;
    // Only a private video can be scheduled, and only for a time still to come.
    if (privacy !== 'private' || !Number.isFinite(at) || at <= now)
      return {
        reason: 'invalidPublishAt',
        message: 'The request metadata specifies an invalid scheduled publishing time.',
      };
  }
  return null;
}

/**
 * The YouTube Data API v3 as the emulator plays it (docs/networks.md#youtube-sandbox): channels,
 * videos (resumable uploads with their 308 progress answers), thumbnails, comment threads and
 * replies, with Google's error shape. Knobs: `quota_exceeded` answers `quotaExceeded` (403) to
 * every call; `upload_interrupt_bytes` cuts the next chunk after that many bytes; `no_channel`
 * is a Google account without a channel; `publish_cap` sets the channel's daily uploads.
 */
export function registerYouTubeApiRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  store: SandboxStore,
  channels: YouTubeChannels,
  publicBase: string,
) {
  // Counted as they stream past: a chunk is never held in memory.
  const count = (
    _request: FastifyRequest,
    payload: NodeJS.ReadableStream,
    done: (err: Error | null, body?: Received) => void,
  ) => {
    let bytes = 0;
    const head: Buffer[] = [];
    payload.on('data', (piece: Buffer) => {
      if (bytes < VIDEO_HEAD_BYTES) head.push(piece.subarray(0, VIDEO_HEAD_BYTES - bytes));
      bytes += piece.length;
    });
    payload.on('end', () => done(null, { bytes, head: Buffer.concat(head) }));
    payload.on('error', (err: Error) => done(err));
  };
  scope.addContentTypeParser('application/octet-stream', count);
  // Any image or video arrives; the routes say which YouTube takes.
  scope.addContentTypeParser(/^(video|image)\//, count);

  /** The Bearer token, the per-call knobs and the scope: Google's answer and null when refused. */
  async function access(
    request: FastifyRequest,
    reply: FastifyReply,
    scopes: string[],
  ): Promise<Access | null> {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) {
      authError(reply);
      return null;
    }
    if (check.scenario.isOn('quota_exceeded')) {
      googleError(
        reply,
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
      );
      return null;
    }
    const fault = await callFault(check.scenario);
    if (fault === 'rate_limit') {
      googleError(
        reply,
        429,
        'rateLimitExceeded',
        'The request cannot be completed because you have exceeded your rate limit.',
      );
      return null;
    }
    if (fault === 'fail') {
      googleError(reply, 500, 'backendError', 'Backend Error', 'global');
      return null;
    }
    if (!scopes.some((s) => check.scopes.includes(s))) {
      googleError(
        reply,
        403,
        'insufficientPermissions',
        'Request had insufficient authentication scopes.',
        'global',
      );
      return null;
    }
    if (check.scenario.isOn('no_channel')) {
      googleError(reply, 401, 'youtubeSignupRequired', 'Unauthorized', 'youtube.header');
      return null;
    }
    return check;
  }

  const getVideo = (id: string) => store.get<SandboxVideo>('video', id);
  const putVideo = (v: SandboxVideo) => store.put('video', v.id, v);

  function videoResource(v: SandboxVideo, parts: string[], now: number) {
    const channelTitle = v.channelId;
    return {
      kind: 'youtube#video',
      etag: randomToken(8),
      id: v.id,
      ...(parts.includes('snippet')
        ? {
            snippet: {
              publishedAt: new Date(v.publishedAt).toISOString(),
              channelId: v.channelId,
              title: v.title,
              description: v.description,
              thumbnails: {
                default: {
                  url: `https://i.ytimg.com/vi/${v.id}/default.jpg`,
                  width: 120,
                  height: 90,
                },
              },
              channelTitle,
              tags: v.tags,
              categoryId: v.categoryId,
              liveBroadcastContent: 'none',
            },
          }
        : {}),
      ...(parts.includes('status')
        ? {
            status: {
              uploadStatus: 'uploaded',
              privacyStatus: privacyAt(v, now),
              // Once the video is public, its schedule is spent.
              ...(v.publishAt && privacyAt(v, now) === 'private' ? { publishAt: v.publishAt } : {}),
              license: 'youtube',
              embeddable: true,
              publicStatsViewable: true,
              madeForKids: v.madeForKids,
              selfDeclaredMadeForKids: v.madeForKids,
            },
          }
        : {}),
      ...(parts.includes('statistics')
        ? {
            statistics: {
              viewCount: String(v.views),
              likeCount: String(v.likes),
              favoriteCount: '0',
              commentCount: String(0),
            },
          }
        : {}),
    };
  }

  // channels.list?mine=true: every channel of the Google account (its own, then brand accounts).
  scope.get('/youtube/v3/channels', async (request, reply) => {
    const a = await access(request, reply, READ_SCOPES);
    if (!a) return reply;
    const q = request.query as Query;
    if (q.mine !== 'true')
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: mine, id, forHandle.',
      );
    const list = await channels.ensure(a.account);
    const videos = (await store.list<SandboxVideo>('video')).map((r) => r.data);
    return {
      kind: 'youtube#channelListResponse',
      pageInfo: { totalResults: list.length, resultsPerPage: list.length },
      items: list.map((c) => ({
        kind: 'youtube#channel',
        id: c.id,
        snippet: {
          title: c.title,
          customUrl: c.handle,
          thumbnails: {
            default: { url: `https://yt3.ggpht.com/${c.id}=s88`, width: 88, height: 88 },
          },
        },
        statistics: {
          subscriberCount: String(c.subscribers),
          viewCount: String(
            videos.filter((v) => v.channelId === c.id).reduce((s, v) => s + v.views, 0),
          ),
          videoCount: String(videos.filter((v) => v.channelId === c.id).length),
        },
        status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: 'allowed' },
      })),
    };
  });

  scope.get('/youtube/v3/videos', async (request, reply) => {
    const a = await access(request, reply, READ_SCOPES);
    if (!a) return reply;
    const q = request.query as Query;
    const parts = (q.part ?? '').split(',').map((p) => p.trim());
    if (!q.part) return googleError(reply, 400, 'required', 'Required parameter: part', 'global');
    const ids = (q.id ?? '').split(',').filter(Boolean).slice(0, 50);
    const items = [];
    for (const id of ids) {
      const v = await getVideo(id);
      // Another account's private video is not found, as on YouTube.
      if (!v || (privacyAt(v, a.now) === 'private' && v.accountId !== a.account.id)) continue;
      const resource = videoResource(v, parts, a.now);
      if (parts.includes('statistics') && 'statistics' in resource)
        resource.statistics!.commentCount = String(
          (await comments()).filter((c) => c.videoId === v.id).length,
        );
      items.push(resource);
    }
    return {
      kind: 'youtube#videoListResponse',
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      items,
    };
  });

  // videos.update (part=status): the scheduled time of a video that is still private.
  scope.put('/youtube/v3/videos', async (request, reply) => {
    const a = await access(request, reply, [
      FORCE_SSL_SCOPE,
      `https://www.googleapis.com/auth/youtube`,
    ]);
    if (!a) return reply;
    const q = request.query as Query;
    if (q.part !== 'status')
      return googleError(reply, 400, 'invalidPart', 'The emulator updates the status part only.');
    const body = (request.body ?? {}) as { id?: string; status?: Record<string, unknown> };
    const v = body.id ? await getVideo(body.id) : null;
    if (!v || v.accountId !== a.account.id)
      return googleError(
        reply,
        404,
        'videoNotFound',
        'The video that you are trying to update cannot be found.',
      );
    const status = body.status ?? {};
    const privacy = status.privacyStatus ?? privacyAt(v, a.now);
    const refused = metadataRefusal(
      { title: v.title, description: v.description, tags: v.tags, categoryId: v.categoryId },
      { selfDeclaredMadeForKids: v.madeForKids, ...status, privacyStatus: privacy },
      a.now,
    );
    if (refused) return googleError(reply, 400, refused.reason, refused.message);
    // A video once public cannot be scheduled again.
    if (status.publishAt !== undefined && privacyAt(v, a.now) !== 'private')
      return googleError(
        reply,
        400,
        'invalidPublishAt',
        'The request metadata specifies an invalid scheduled publishing time.',
      );
    const updated: SandboxVideo = {
      ...v,
      privacyStatus: String(privacy),
      publishAt: typeof status.publishAt === 'string' ? status.publishAt : null,
    };
    await putVideo(updated);
    return videoResource(updated, ['status'], a.now);
  });

  // videos.delete
  scope.delete('/youtube/v3/videos', async (request, reply) => {
    const a = await access(request, reply, [
      FORCE_SSL_SCOPE,
      `https://www.googleapis.com/auth/youtube`,
    ]);
    if (!a) return reply;
    const q = request.query as Query;
    const v = q.id ? await getVideo(q.id) : null;
    if (!v || v.accountId !== a.account.id)
      return googleError(
        reply,
        404,
        'videoNotFound',
        'The video that you are trying to delete cannot be found.',
      );
    await store.delete('video', v.id);
    return reply.status(204).send();
  });

  // videos.insert, resumable: the session URI in Location.
  scope.post('/upload/youtube/v3/videos', async (request, reply) => {
    const a = await access(request, reply, [
      UPLOAD_SCOPE,
      `https://www.googleapis.com/auth/youtube`,
    ]);
    if (!a) return reply;
    const q = request.query as Query;
    if (q.uploadType !== 'resumable')
      return googleError(
        reply,
        400,
        'invalidArgument',
        'The emulator takes resumable uploads only (uploadType=resumable).',
        'global',
      );
    const total = Number(request.headers['x-upload-content-length']);
    const mimeType = String(request.headers['x-upload-content-type'] ?? '');
    if (!Number.isInteger(total) || total <= 0)
      return googleError(
        reply,
        400,
        'mediaBodyRequired',
        'The request does not include the video content.',
      );
    if (!/^video\/|^application\/octet-stream$/.test(mimeType))
      return googleError(
        reply,
        400,
        'badContent',
        `Media type '${mimeType || '(none)'}' is not supported. Valid media types: [video/*, application/octet-stream]`,
        'global',
      );
    const body = (request.body ?? {}) as {
      snippet?: Record<string, unknown>;
      status?: Record<string, unknown>;
    };
    const refused = metadataRefusal(body.snippet ?? {}, body.status ?? {}, a.now);
    if (refused) return googleError(reply, 400, refused.reason, refused.message);
    const snippet = body.snippet ?? {};
    const status = body.status ?? {};
    const own = await channels.ensure(a.account);
    const channelId = typeof snippet.channelId === 'string' ? snippet.channelId : own[0]!.id;
    if (!own.some((c) => c.id === channelId))
      return googleError(
        reply,
        403,
        'forbidden',
        'The request is not properly authorized to upload to this channel.',
      );
    const cap = a.scenario.value('publish_cap') ?? CHANNEL_DAILY_UPLOADS;
    const today = (await store.list<SandboxVideo>('video')).filter(
      (r) => r.data.channelId === channelId && r.data.publishedAt > a.now - 86_400_000,
    ).length;
    if (today >= cap)
      return googleError(
        reply,
        400,
        'uploadLimitExceeded',
        'The user has exceeded the number of videos they may upload.',
      );
    const session: UploadSession = {
      id: randomToken(24),
      accountId: a.account.id,
      channelId,
      total,
      committed: 0,
      mimeType,
      resource: { snippet, status },
      videoId: null,
    };
    await store.put('upload', session.id, session);
    const location = `${publicBase}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${session.id}`;
    return reply
      .status(200)
      .header('location', location)
      .header('x-guploader-uploadid', session.id)
      .send();
  });

  /** The session's bytes: 308 with `Range` while incomplete, 200 with the video once whole. */
  scope.put(
    '/upload/youtube/v3/videos',
    { bodyLimit: 64 * 1024 * 1024 },
    async (request, reply) => {
      const q = request.query as Query;
      const session = q.upload_id ? await store.get<UploadSession>('upload', q.upload_id) : null;
      const check = await oauth.verifyAccess(bearerToken(request));
      if (!check.ok) return authError(reply);
      if (!session || session.accountId !== check.account.id)
        return googleError(
          reply,
          404,
          'notFound',
          'The upload session was not found or has expired.',
          'global',
        );
      const answerProgress = async (s: UploadSession) => {
        if (s.videoId) {
          const v = await getVideo(s.videoId);
          return reply.status(200).send(videoResource(v!, ['snippet', 'status'], check.now));
        }
        if (s.committed > 0) reply.header('range', `bytes=0-${s.committed - 1}`);
        return reply.status(308).send();
      };
      const range = String(request.headers['content-range'] ?? '');
      const query = /^bytes \*\/(\d+)$/.exec(range);
      if (query) return answerProgress(session);
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
      const received = (request.body as Received | undefined) ?? {
        bytes: 0,
        head: Buffer.alloc(0),
      };
      if (!m)
        return googleError(
          reply,
          400,
          'badContent',
          'Content-Range is missing or malformed.',
          'global',
        );
      const [first, last, total] = m.slice(1).map(Number) as [number, number, number];
      if (session.videoId) return answerProgress(session);
      if (
        total !== session.total ||
        first !== session.committed ||
        last - first + 1 !== received.bytes
      )
        return googleError(
          reply,
          400,
          'badContent',
          `The chunk does not continue the upload: YouTube has ${session.committed} of ${session.total} bytes.`,
          'global',
        );
      if (last + 1 < total && received.bytes % (256 * 1024) !== 0)
        return googleError(
          reply,
          400,
          'badContent',
          'Chunks other than the last must be a multiple of 256 KiB.',
          'global',
        );
      const cut = await check.scenario.takeValue('upload_interrupt_bytes');
      if (cut !== null) {
        // The connection breaks part-way: what arrived before the cut is kept, the caller hears nothing.
        const kept = Math.min(Math.max(cut, 0), received.bytes);
        await store.put('upload', session.id, { ...session, committed: session.committed + kept });
        reply.hijack();
        reply.raw.destroy();
        request.raw.destroy();
        return;
      }
      const updated: UploadSession = {
        ...session,
        committed: session.committed + received.bytes,
        ...(session.committed === 0 ? { head: received.head.toString('base64') } : {}),
      };
      if (updated.committed < updated.total) {
        await store.put('upload', session.id, updated);
        return answerProgress(updated);
      }
      const s = session.resource.snippet;
      const st = session.resource.status;
      // YouTube has no Shorts flag: it reads the file, vertical or square and at most 3 minutes.
      const facts = updated.head
        ? await readReceivedMedia(Buffer.from(updated.head, 'base64'), updated.total)
        : null;
      const short =
        !!facts?.width &&
        !!facts.height &&
        !!facts.durationSec &&
        facts.height >= facts.width &&
        facts.durationSec <= SHORT_MAX_SECONDS;
      const video: SandboxVideo = {
        id: videoId(),
        accountId: session.accountId,
        channelId: session.channelId,
        title: String(s.title),
        description: typeof s.description === 'string' ? s.description : '',
        tags: Array.isArray(s.tags) ? (s.tags as string[]) : [],
        categoryId: String(s.categoryId ?? '22'),
        privacyStatus: typeof st.privacyStatus === 'string' ? st.privacyStatus : 'public',
        madeForKids: st.selfDeclaredMadeForKids === true,
        publishAt: typeof st.publishAt === 'string' ? st.publishAt : null,
        size: session.total,
        mimeType: session.mimeType,
        thumbnail: null,
        short,
        views: 0,
        likes: 0,
        publishedAt: await oauth.now(),
      };
      await putVideo(video);
      const done = { ...updated, videoId: video.id };
      await store.put('upload', session.id, done);
      // finalize_timeout: the video is made, then the answer is lost.
      if (await check.scenario.takeValue('finalize_timeout').then((v) => v !== null)) {
        reply.hijack();
        reply.raw.destroy();
        request.raw.destroy();
        return;
      }
      return answerProgress(done);
    },
  );

  scope.post('/upload/youtube/v3/thumbnails/set', async (request, reply) => {
    const a = await access(request, reply, [UPLOAD_SCOPE, FORCE_SSL_SCOPE]);
    if (!a) return reply;
    const q = request.query as Query;
    const v = q.videoId ? await getVideo(q.videoId) : null;
    if (!v || v.accountId !== a.account.id)
      return googleError(
        reply,
        404,
        'videoNotFound',
        'The video that you are trying to update cannot be found.',
      );
    const type = String(request.headers['content-type'] ?? '');
    const received = request.body as Received | undefined;
    if (!/^image\/(jpeg|png)$/.test(type) || !received)
      return googleError(reply, 400, 'invalidImage', 'The provided image content is invalid.');
    if (received.bytes > 2 * 1024 * 1024)
      return googleError(reply, 400, 'mediaBodyTooLarge', 'The thumbnail is larger than 2 MB.');
    // Custom thumbnails of Shorts are set in YouTube Studio only.
    if (v.short)
      return googleError(
        reply,
        403,
        'forbidden',
        'Custom thumbnails cannot be set on a Short through the API.',
      );
    await putVideo({ ...v, thumbnail: { mimeType: type, bytes: received.bytes } });
    return {
      kind: 'youtube#thumbnailSetResponse',
      items: [
        { default: { url: `https://i.ytimg.com/vi/${v.id}/default.jpg`, width: 120, height: 90 } },
      ],
    };
  });

  /** An organization's videos: those of the channels it connected (or of their Google account). */
  const ownsVideo = (tenant: { owns(id: string): boolean }, v: SandboxVideo) =>
    tenant.owns(v.channelId) || tenant.owns(v.accountId);

  const comments = async () => (await store.list<SandboxComment>('comment')).map((r) => r.data);

  async function commentResource(c: SandboxComment) {
    return {
      kind: 'youtube#comment',
      etag: randomToken(8),
      id: c.id,
      snippet: {
        videoId: c.videoId,
        channelId: c.channelId,
        textDisplay: c.text,
        textOriginal: c.text,
        authorDisplayName: c.authorName,
        authorProfileImageUrl: `https://yt3.ggpht.com/${c.authorChannelId}=s48`,
        authorChannelUrl: `http://www.youtube.com/channel/${c.authorChannelId}`,
        authorChannelId: { value: c.authorChannelId },
        canRate: true,
        viewerRating: 'none',
        likeCount: c.likes,
        publishedAt: new Date(c.publishedAt).toISOString(),
        updatedAt: new Date(c.updatedAt).toISOString(),
        ...(c.parentId ? { parentId: c.parentId } : {}),
      },
    };
  }

  scope.get('/youtube/v3/commentThreads', async (request, reply) => {
    const a = await access(request, reply, [FORCE_SSL_SCOPE, ...READ_SCOPES]);
    if (!a) return reply;
    const q = request.query as Query;
    const all = await comments();
    let top = all.filter((c) => c.parentId === null);
    if (q.videoId) {
      const v = await getVideo(q.videoId);
      if (!v)
        return googleError(
          reply,
          404,
          'videoNotFound',
          'The video identified by the videoId parameter could not be found.',
        );
      top = top.filter((c) => c.videoId === q.videoId);
    } else if (q.allThreadsRelatedToChannelId) {
      top = top.filter((c) => c.channelId === q.allThreadsRelatedToChannelId);
    } else
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: videoId, allThreadsRelatedToChannelId, id.',
      );
    top.sort((x, y) => y.publishedAt - x.publishedAt);
    const max = Math.min(Number(q.maxResults ?? 20) || 20, 100);
    const start = q.pageToken ? Number(Buffer.from(q.pageToken, 'base64url').toString()) || 0 : 0;
    const page = top.slice(start, start + max);
    const items = [];
    for (const c of page) {
      const replies = all
        .filter((r) => r.parentId === c.id)
        .sort((x, y) => x.publishedAt - y.publishedAt);
      items.push({
        kind: 'youtube#commentThread',
        id: c.id,
        snippet: {
          channelId: c.channelId,
          videoId: c.videoId,
          topLevelComment: await commentResource(c),
          canReply: true,
          totalReplyCount: replies.length,
          isPublic: true,
        },
        // A thread carries only some of its replies; comments.list has them all.
        ...(replies.length
          ? { replies: { comments: await Promise.all(replies.slice(0, 5).map(commentResource)) } }
          : {}),
      });
    }
    const next =
      start + max < top.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return {
      kind: 'youtube#commentThreadListResponse',
      ...(next ? { nextPageToken: next } : {}),
      pageInfo: { totalResults: top.length, resultsPerPage: max },
      items,
    };
  });

  scope.get('/youtube/v3/comments', async (request, reply) => {
    const a = await access(request, reply, [FORCE_SSL_SCOPE, ...READ_SCOPES]);
    if (!a) return reply;
    const q = request.query as Query;
    if (!q.parentId)
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: parentId, id.',
      );
    const replies = (await comments())
      .filter((c) => c.parentId === q.parentId)
      .sort((x, y) => x.publishedAt - y.publishedAt);
    return {
      kind: 'youtube#commentListResponse',
      items: await Promise.all(replies.map(commentResource)),
    };
  });

  /** comments.insert: a reply under a top-level comment, by the channel of the token. */
  scope.post('/youtube/v3/comments', async (request, reply) => {
    const a = await access(request, reply, [FORCE_SSL_SCOPE]);
    if (!a) return reply;
    const body = (request.body ?? {}) as { snippet?: { parentId?: string; textOriginal?: string } };
    const parentId = body.snippet?.parentId ?? '';
    const text = body.snippet?.textOriginal ?? '';
    const parent = (await comments()).find((c) => c.id === parentId && c.parentId === null);
    if (!parent)
      return googleError(
        reply,
        404,
        'parentCommentNotFound',
        'The specified parent comment could not be found.',
      );
    if (!text.trim() || text.length > 10_000)
      return googleError(
        reply,
        400,
        'commentTextRequired',
        'The comment resource being inserted must specify a value for the snippet.textOriginal property.',
      );
    const own = await channels.ensure(a.account);
    const video = await getVideo(parent.videoId);
    const author = own.find((c) => c.id === video?.channelId) ?? own[0]!;
    const now = await oauth.now();
    const made: SandboxComment = {
      id: `${parent.id}.${commentId().slice(2, 24)}`,
      videoId: parent.videoId,
      channelId: parent.channelId,
      parentId: parent.id,
      authorChannelId: author.id,
      authorName: author.title,
      text,
      likes: 0,
      publishedAt: now,
      updatedAt: now,
    };
    await store.put('comment', made.id, made);
    return commentResource(made);
  });

  scope.put('/youtube/v3/comments', async (request, reply) => {
    const a = await access(request, reply, [FORCE_SSL_SCOPE]);
    if (!a) return reply;
    const body = (request.body ?? {}) as { id?: string; snippet?: { textOriginal?: string } };
    const c = body.id ? await store.get<SandboxComment>('comment', body.id) : null;
    const own = await channels.ensure(a.account);
    if (!c)
      return googleError(
        reply,
        404,
        'commentNotFound',
        'The specified comment could not be found.',
      );
    if (!own.some((ch) => ch.id === c.authorChannelId))
      return googleError(
        reply,
        403,
        'forbidden',
        'The comment could not be updated due to insufficient permissions.',
      );
    const updated = {
      ...c,
      text: body.snippet?.textOriginal ?? c.text,
      updatedAt: await oauth.now(),
    };
    await store.put('comment', c.id, updated);
    return commentResource(updated);
  });

  scope.delete('/youtube/v3/comments', async (request, reply) => {
    const a = await access(request, reply, [FORCE_SSL_SCOPE]);
    if (!a) return reply;
    const q = request.query as Query;
    const c = q.id ? await store.get<SandboxComment>('comment', q.id) : null;
    if (!c)
      return googleError(
        reply,
        404,
        'commentNotFound',
        'The specified comment could not be found.',
      );
    const own = await channels.ensure(a.account);
    const video = await getVideo(c.videoId);
    if (!own.some((ch) => ch.id === c.authorChannelId || ch.id === video?.channelId))
      return googleError(
        reply,
        403,
        'forbidden',
        'The comment could not be deleted due to insufficient permissions.',
      );
    await store.delete('comment', c.id);
    return reply.status(204).send();
  });

  /** Test control: a viewer comments on a video (or replies to a comment). */
  scope.post('/_emu/comments', async (request, reply) => {
    const tenant = emuTenant(request);
    const body = (request.body ?? {}) as {
      videoId?: string;
      text?: string;
      author?: string;
      parentId?: string;
    };
    const v = body.videoId ? await getVideo(body.videoId) : null;
    if (!v || !ownsVideo(tenant, v))
      return reply.status(404).send({ error: 'No video of your sandbox channels has this id.' });
    const now = await oauth.now();
    const author = body.author?.trim() || 'A viewer';
    const made: SandboxComment = {
      id: body.parentId ? `${body.parentId}.${commentId().slice(2, 24)}` : commentId(),
      videoId: v.id,
      channelId: v.channelId,
      parentId: body.parentId ?? null,
      authorChannelId: `UCviewer${Buffer.from(author).toString('hex').slice(0, 16)}`,
      authorName: author,
      text: body.text?.trim() || 'Nice video!',
      likes: 0,
      publishedAt: now,
      updatedAt: now,
    };
    await store.put('comment', made.id, made);
    return { comment: await commentResource(made) };
  });

  /** Test control: views and likes of a video. */
  scope.post('/_emu/stats', async (request, reply) => {
    const tenant = emuTenant(request);
    const body = (request.body ?? {}) as { videoId?: string; views?: number; likes?: number };
    const v = body.videoId ? await getVideo(body.videoId) : null;
    if (!v || !ownsVideo(tenant, v))
      return reply.status(404).send({ error: 'No video of your sandbox channels has this id.' });
    await putVideo({
      ...v,
      views: Number(body.views ?? v.views),
      likes: Number(body.likes ?? v.likes),
    });
    return { ok: true };
  });

  /**
   * Assertions: the videos of the caller's sandbox channels, oldest first, as they are by the
   * emulator's clock (a scheduled video whose publishAt has come is public).
   */
  scope.get('/_emu/videos', async (request) => {
    const tenant = emuTenant(request);
    const now = await oauth.now();
    const videos = (await store.list<SandboxVideo>('video'))
      .map((r) => r.data)
      .filter((v) => ownsVideo(tenant, v))
      .sort((x, y) => x.publishedAt - y.publishedAt)
      .map((v) => {
        const privacyStatus = privacyAt(v, now);
        return { ...v, privacyStatus, publishAt: privacyStatus === 'private' ? v.publishAt : null };
      });
    return { videos };
  });
}
