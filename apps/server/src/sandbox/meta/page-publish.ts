import { GraphFailure, graphErrors } from './errors.js';
import { parseFields, pickFields } from './fields.js';
import {
  answerVisible,
  mediaUrlProblem,
  paginate,
  requireScope,
  type PublishDeps,
} from './helpers.js';
import { newNumericId, type FbPhoto, type FbPost, type FbVideo } from './objects.js';
import { addPageViews, videoPermalink } from './page-views.js';
import type { GraphRequest, GraphRouter } from './router.js';
import type { Authenticated, SandboxPage } from './state.js';
import { readUploadedFile } from './uploads.js';

const MESSAGE_MAX = 63_206;
const PHOTOS_PER_POST = 10;

/** Publishing as a Page needs that Page's token and pages_manage_posts (docs/networks.md#facebook-oauth). */
function actingPage(auth: Authenticated, pageId: string, method: 'get' | 'post') {
  if (auth.page?.id === pageId) {
    if (!auth.token.scopes.includes('pages_manage_posts')) throw graphErrors.pagePublishing();
    // "sufficient administrative permission": the CREATE_CONTENT task on the Page.
    if (auth.page.tasks && !auth.page.tasks.includes('CREATE_CONTENT'))
      throw graphErrors.pagePublishing();
    return auth.page;
  }
  if (auth.user.pages.some((p) => p.id === pageId)) throw graphErrors.pagePublishing();
  throw graphErrors.notFound(pageId, method);
}

/** A Page the token may read: its own Page, or one its user manages. */
function readablePage(auth: Authenticated, pageId: string) {
  const pages = auth.page ? [auth.page] : auth.user.pages;
  const page = pages.find((p) => p.id === pageId);
  if (!page) throw graphErrors.notFound(pageId);
  return page;
}

/** `attached_media=[{"media_fbid":"1"}]` or `attached_media[0]={"media_fbid":"1"}`. */
function attachedMedia(params: Record<string, string>): string[] {
  const values: string[] = [];
  if (params.attached_media) {
    try {
      const list = JSON.parse(params.attached_media) as Array<{ media_fbid?: unknown }>;
      if (Array.isArray(list)) values.push(...list.map((m) => String(m?.media_fbid ?? '')));
    } catch {
      throw graphErrors.invalidParam('(#100) param attached_media must be an array.');
    }
  }
  const indexed = Object.keys(params)
    .map((key) => /^attached_media\[(\d+)\]$/.exec(key))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]));
  for (const m of indexed) {
    try {
      values.push(String((JSON.parse(params[m[0]]!) as { media_fbid?: unknown }).media_fbid ?? ''));
    } catch {
      values.push('');
    }
  }
  return values;
}

/** What `/feed` refuses before looking anything up. */
function checkFeedParams(p: Record<string, string>, message: string, photoIds: string[]) {
  if (!message && !p.link && photoIds.length === 0) {
    throw graphErrors.invalidParam('(#100) Missing message or attachment.');
  }
  if ([...message].length > MESSAGE_MAX) {
    throw graphErrors.invalidParam('(#100) The message is too long.');
  }
  if (p.link && mediaUrlProblem(p.link, 0) === 'invalid') throw badUrl('link');
  if (p.published === 'false') {
    throw graphErrors.invalidParam(
      '(#100) The sandbox publishes right away: unpublished and scheduled posts are not emulated.',
    );
  }
  if (photoIds.length > PHOTOS_PER_POST) {
    throw graphErrors.invalidParam(`(#100) A post takes at most ${PHOTOS_PER_POST} photos.`);
  }
}

/** How `/_emu/posts` names the kind of post. */
const postKind = (post: Pick<FbPost, 'photoIds' | 'link'>) =>
  post.photoIds.length > 1
    ? 'album'
    : post.photoIds.length
      ? 'photo'
      : post.link
        ? 'link'
        : 'status';

const badUrl = (name: string) =>
  graphErrors.invalidParam(`(#100) ${name} URL is not properly formatted`);
const unreadableImage = () =>
  new GraphFailure(400, 324, '(#324) Missing or invalid image file', undefined, 'OAuthException', {
    userTitle: 'Image could not be read',
    userMsg: 'Facebook could not download the photo from its URL.',
  });

/** Page posts: `/feed`, `/photos`, `/videos` (from an upload handle), and the lists reconciliation reads (docs/networks.md#facebook-publishing). */
export function addPagePublishing(router: GraphRouter, deps: PublishDeps) {
  const { ctx, kit, state, objects, views } = deps;

  async function newPost(
    page: SandboxPage,
    fields: Pick<FbPost, 'message' | 'link' | 'statusType' | 'photoIds'>,
    now: number,
    altTexts: Array<string | null> = [],
  ): Promise<FbPost> {
    const postPart = newNumericId(16);
    const post: FbPost = {
      type: 'fb_post',
      id: `${page.id}_${postPart}`,
      owner: page.id,
      createdAt: now,
      pageName: page.name,
      permalink: `https://www.facebook.com/${page.id}/posts/${postPart}`,
      ...fields,
    };
    await objects.put(post);
    await objects.recordPost({
      id: post.id,
      network: 'facebook',
      account: page.id,
      accountName: page.name,
      kind: postKind(fields),
      text: post.message,
      mediaCount: fields.photoIds.length,
      createdAt: now,
      permalink: post.permalink,
      altTexts,
    });
    return post;
  }

  async function rejectDuplicate(auth: Authenticated, pageId: string, message: string) {
    if (!message || !auth.scenario.isOn('duplicate_reject')) return;
    const [last] = await objects.listPosts({ account: pageId, network: 'facebook' });
    if (last?.text === message) throw graphErrors.duplicate();
  }

  /** The unpublished photos of this Page that a post may attach. */
  async function attachable(pageId: string, ids: string[]) {
    const photos: FbPhoto[] = [];
    for (const [i, id] of ids.entries()) {
      const photo = await objects.get(id);
      const usable =
        photo?.type === 'fb_photo' && photo.owner === pageId && !photo.published && !photo.postId;
      if (!usable) {
        throw graphErrors.invalidParam(`(#100) param attached_media[${i}] has invalid media_fbid`);
      }
      photos.push(photo);
    }
    return photos;
  }

  async function feed(req: GraphRequest, pageId: string) {
    const auth = await state.authenticate(req.token, [pageId]);
    const page = actingPage(auth, pageId, 'post');
    const p = req.params;
    const message = p.message ?? '';
    const photoIds = attachedMedia(p);
    checkFeedParams(p, message, photoIds);
    const photos = await attachable(page.id, photoIds);
    await rejectDuplicate(auth, page.id, message);
    const statusType = photos.length
      ? 'added_photos'
      : p.link
        ? 'shared_story'
        : 'mobile_status_update';
    const post = await newPost(
      page,
      { message, link: p.link ?? null, statusType, photoIds },
      await kit.now(),
      photos.map((photo) => photo.altText ?? null),
    );
    for (const photo of photos) await objects.put({ ...photo, published: true, postId: post.id });
    const wantsLink = parseFields(p.fields, 'id').some((s) => s.name === 'permalink_url');
    return answerVisible(auth.scenario, {
      id: post.id,
      ...(wantsLink ? { permalink_url: post.permalink } : {}),
    });
  }

  async function photo(req: GraphRequest, pageId: string) {
    const auth = await state.authenticate(req.token, [pageId]);
    const page = actingPage(auth, pageId, 'post');
    const p = req.params;
    if (!p.url) throw graphErrors.requiresUpload();
    const now = await kit.now();
    const problem = mediaUrlProblem(p.url, now, ctx.runsLocally);
    if (problem === 'invalid') throw badUrl('url');
    if (problem) throw unreadableImage();
    const published = p.published !== 'false';
    const caption = p.caption ?? p.message ?? '';
    if ([...caption].length > MESSAGE_MAX) {
      throw graphErrors.invalidParam('(#100) The message is too long.');
    }
    const made: FbPhoto = {
      type: 'fb_photo',
      id: newNumericId(16),
      owner: page.id,
      createdAt: now,
      url: p.url,
      caption,
      published,
      altText: p.alt_text_custom ?? null,
      postId: null,
    };
    if (!published) {
      await objects.put(made);
      return { json: { id: made.id } };
    }
    await rejectDuplicate(auth, page.id, caption);
    const post = await newPost(
      page,
      { message: caption, link: null, statusType: 'added_photos', photoIds: [made.id] },
      now,
      [made.altText ?? null],
    );
    await objects.put({ ...made, postId: post.id });
    return answerVisible(auth.scenario, { id: made.id, post_id: post.id });
  }

  /**
   * A video from a Resumable Upload API handle (`fbuploader_video_file_chunk`), the one way the
   * Video API documents: Facebook no longer takes the file by URL here, so a request without a
   * handle has no file (324).
   */
  async function video(req: GraphRequest, pageId: string) {
    const auth = await state.authenticate(req.token, [pageId]);
    const page = actingPage(auth, pageId, 'post');
    requireScope(auth, 'publish_video');
    const p = req.params;
    const handle = p.fbuploader_video_file_chunk;
    if (!handle) throw graphErrors.requiresUpload();
    const file = await readUploadedFile(ctx.store, handle);
    // A handle is the uploading person's: a Page token of someone else cannot use it.
    if (!file || file.userId !== auth.user.id)
      throw graphErrors.videoUploadFailed('Facebook has no finished upload for this file handle.');
    if (file.fileType !== 'video/mp4')
      throw graphErrors.videoUploadFailed(`The uploaded file is ${file.fileType}, not a video.`);
    const now = await kit.now();
    const made: FbVideo = {
      type: 'fb_video',
      id: newNumericId(16),
      owner: page.id,
      createdAt: now,
      pageName: page.name,
      fileName: file.fileName,
      title: p.title ?? '',
      description: p.description ?? '',
      published: p.published !== 'false',
    };
    await objects.put(made);
    if (!made.published) return { json: { id: made.id } };
    await objects.recordPost({
      id: made.id,
      network: 'facebook',
      account: page.id,
      accountName: page.name,
      kind: 'video',
      text: made.description,
      mediaCount: 1,
      createdAt: now,
      permalink: `https://www.facebook.com${videoPermalink(made)}`,
    });
    return answerVisible(auth.scenario, { id: made.id });
  }

  async function listOf(
    req: GraphRequest,
    pageId: string,
    edge: string,
    kinds: (k: string) => boolean,
  ) {
    const auth = await state.authenticate(req.token, [pageId]);
    const page = readablePage(auth, pageId);
    const posts = (await objects.listPosts({ account: page.id, network: 'facebook' })).filter(
      (post) => kinds(post.kind),
    );
    const { slice, paging } = paginate(ctx, req, `${page.id}/${edge}`, posts);
    const specs = parseFields(
      req.params.fields,
      edge === 'videos' ? 'id' : 'id,message,created_time',
    );
    const data = [];
    for (const post of slice) {
      const node = await objects.get(post.id);
      const view = node && views.get(node.type);
      if (node && view) data.push(pickFields(await view.view(node, specs), specs, view.nodeType));
    }
    return { json: { data, paging } };
  }

  router.add('POST', ':id/feed', (req, path) => feed(req, path.id!));
  router.add('POST', ':id/photos', (req, path) => photo(req, path.id!));
  router.add('POST', ':id/videos', (req, path) => video(req, path.id!));
  for (const edge of ['feed', 'published_posts', 'posts']) {
    router.add('GET', `:id/${edge}`, (req, path) =>
      listOf(req, path.id!, edge, (k) => k !== 'video'),
    );
  }
  router.add('GET', ':id/videos', (req, path) =>
    listOf(req, path.id!, 'videos', (k) => k === 'video'),
  );

  addPageViews(views, { now: () => kit.now(), objects });
}
