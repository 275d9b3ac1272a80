import type { FastifyInstance } from 'fastify';
import { emuTenant } from '../kit/tenant.js';
import { grownCount } from '../kit/growth.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { tiktokAccess } from './access.js';
import { shareUrlOf, viewJob, type TikTokJob, type TikTokPublishState } from './publish-state.js';
import { tiktokError, tiktokOk } from './responses.js';

const VIDEO_FIELDS = new Set([
  'id',
  'create_time',
  'cover_image_url',
  'share_url',
  'video_description',
  'duration',
  'height',
  'width',
  'title',
  'embed_html',
  'embed_link',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
]);

/**
 * A published job as a Display API video object (docs/networks.md#tiktok-video-list); its counts
 * grow with the emulator's clock (docs/analytics.md#sandbox).
 */
function videoObject(job: TikTokJob, publishedAt: number, now: number): Record<string, unknown> {
  const id = job.postId;
  const age = now - publishedAt;
  const shareUrl = shareUrlOf(job);
  return {
    id: job.postId,
    create_time: Math.floor(publishedAt / 1000),
    cover_image_url: `${shareUrl}/cover.jpg`,
    share_url: shareUrl,
    video_description: job.description || job.title,
    duration: job.mediaType === 'VIDEO' ? 15 : 0,
    height: 1920,
    width: 1080,
    title: job.title,
    embed_html: `<blockquote class="tiktok-embed" cite="${shareUrl}" data-video-id="${job.postId}"></blockquote>`,
    embed_link: `https://www.tiktok.com/embed/v2/${job.postId}`,
    like_count: grownCount(id, 'like_count', age, 120),
    comment_count: grownCount(id, 'comment_count', age, 15),
    share_count: grownCount(id, 'share_count', age, 8),
    view_count: grownCount(id, 'view_count', age, 3000),
  };
}

/**
 * `POST /v2/video/list/` (scope video.list, docs/networks.md#tiktok-video-list: what reconciliation reads) and the assertions
 * endpoint `GET /_emu/posts[?account=]`: every post TikTok actually published, oldest first.
 */
export function registerTikTokVideoRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  state: TikTokPublishState,
) {
  scope.post('/v2/video/list/', async (request, reply) => {
    const access = await tiktokAccess(request, reply, oauth, 'video.list');
    if (!access) return reply;
    const fields = String((request.query as Record<string, unknown>).fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const unknown = fields.find((f) => !VIDEO_FIELDS.has(f));
    if (!fields.length || unknown)
      return tiktokError(reply, 400, 'invalid_params', `Invalid fields: ${unknown ?? '(none)'}.`);
    const body = (request.body ?? {}) as { cursor?: unknown; max_count?: unknown };
    const max = Math.min(Math.max(Number(body.max_count) || 10, 1), 20);
    const cursor = Number(body.cursor) || Number.MAX_SAFE_INTEGER;
    const now = access.now;
    const published = (await state.jobsOf(access.account.id))
      .map((job) => ({ job, view: viewJob(job, now) }))
      .filter(({ view }) => view.postId !== null && view.doneAt! < cursor)
      .sort((a, b) => b.view.doneAt! - a.view.doneAt!);
    const page = published.slice(0, max);
    const videos = page.map(({ job, view }) => {
      const video = videoObject(job, view.doneAt!, now);
      return Object.fromEntries(fields.map((f) => [f, video[f]]));
    });
    return tiktokOk({
      videos,
      cursor: page.length ? page[page.length - 1]!.view.doneAt : 0,
      has_more: published.length > page.length,
    });
  });

  /** `POST /v2/video/query/ {filters:{video_ids}}`: the caller's own published videos, ≤ 20 ids. */
  scope.post('/v2/video/query/', async (request, reply) => {
    const access = await tiktokAccess(request, reply, oauth, 'video.list');
    if (!access) return reply;
    const fields = String((request.query as Record<string, unknown>).fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const unknown = fields.find((f) => !VIDEO_FIELDS.has(f));
    if (!fields.length || unknown)
      return tiktokError(reply, 400, 'invalid_params', `Invalid fields: ${unknown ?? '(none)'}.`);
    const ids = (request.body as { filters?: { video_ids?: unknown } } | null)?.filters?.video_ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20)
      return tiktokError(reply, 400, 'invalid_params', 'filters.video_ids must list 1 to 20 ids.');
    const now = access.now;
    const videos = (await state.jobsOf(access.account.id))
      .map((job) => ({ job, view: viewJob(job, now) }))
      .filter(({ view }) => view.postId !== null && ids.includes(view.postId))
      .map(({ job, view }) => {
        const video = videoObject(job, view.doneAt!, now);
        return Object.fromEntries(fields.map((f) => [f, video[f]]));
      });
    return tiktokOk({ videos, cursor: 0, has_more: false });
  });

  scope.get('/_emu/posts', async (request) => {
    const tenant = emuTenant(request);
    const query = (request.query as { account?: unknown }).account;
    const ref = typeof query === 'string' ? query : '';
    const account = ref ? await oauth.findAccount(ref) : null;
    if (ref && !account) return { posts: [] };
    const now = await oauth.now();
    const posts = (await state.allJobs())
      .filter((job) => tenant.owns(job.accountId) && (!account || job.accountId === account.id))
      .map((job) => ({ job, view: viewJob(job, now) }))
      .filter(({ view }) => view.status === 'PUBLISH_COMPLETE')
      .sort((a, b) => a.view.doneAt! - b.view.doneAt!)
      .map(({ job, view }) => ({
        id: job.postId,
        publishId: job.publishId,
        account: job.username,
        accountId: job.accountId,
        text: job.description || job.title,
        mediaType: job.mediaType,
        mediaCount: job.mediaType === 'PHOTO' ? job.photoCount : 1,
        privacyLevel: job.privacyLevel,
        postInfo: job.postInfo ?? {},
        public: view.postId !== null,
        createdAt: new Date(view.doneAt!).toISOString(),
      }));
    return { posts };
  });

  /** Assertions: the drafts delivered to an account's TikTok inbox (MEDIA_UPLOAD), oldest first. */
  scope.get('/_emu/inbox', async (request) => {
    const tenant = emuTenant(request);
    const query = (request.query as { account?: unknown }).account;
    const ref = typeof query === 'string' ? query : '';
    const account = ref ? await oauth.findAccount(ref) : null;
    if (ref && !account) return { drafts: [] };
    const now = await oauth.now();
    const drafts = (await state.allJobs())
      .filter((job) => tenant.owns(job.accountId) && (!account || job.accountId === account.id))
      .filter((job) => viewJob(job, now).status === 'SEND_TO_USER_INBOX')
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((job) => ({
        publishId: job.publishId,
        account: job.username,
        mediaType: job.mediaType,
        source: job.source,
        title: job.title,
        privacyLevel: job.privacyLevel,
      }));
    return { drafts };
  });
}
