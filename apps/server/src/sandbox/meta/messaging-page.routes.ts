import { graphErrors } from './errors.js';
import { parseFields, pickFields } from './fields.js';
import { paginate, requireScope } from './helpers.js';
import { graphTime, newNumericId, ownersOf } from './objects.js';
import type { IgTag, MessagingCore } from './messaging-core.js';
import type { GraphRequest, GraphRouter } from './router.js';

/**
 * A Page's webhook subscriptions, likes as the Page, blocking (Facebook), and tags and mention
 * replies (Instagram).
 */
export function addMessagingPageRoutes(router: GraphRouter, core: MessagingCore) {
  const { ctx, kit, state, objects, store, webhooks, instagram, accountOf } = core;

  // Webhook subscriptions of a Page (the Instagram account's webhooks come through its Page).
  router.add('GET', ':id/subscribed_apps', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page } = accountOf(auth, path.id!, 'get');
    const sub = await webhooks.subscription(page.id);
    const specs = parseFields(req.params.fields, 'id,name,subscribed_fields');
    const app = {
      // Meta's app id is the client id of the Login dialog.
      id: ctx.clientId,
      name: ctx.clientId,
      category: 'Business',
      link: `https://www.facebook.com/games/?app_id=${ctx.clientId}`,
      subscribed_fields: sub?.fields ?? [],
    };
    return { json: { data: sub ? [pickFields(app, specs, 'Application')] : [] } };
  });
  router.add('POST', ':id/subscribed_apps', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page } = accountOf(auth, path.id!, 'post');
    requireScope(auth, 'pages_manage_metadata');
    if (!auth.page) throw graphErrors.pagePublishing();
    const fields = (req.params.subscribed_fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0) throw graphErrors.missingParam('subscribed_fields');
    await webhooks.subscribe(page.id, fields);
    return { json: { success: true } };
  });
  router.add('DELETE', ':id/subscribed_apps', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page } = accountOf(auth, path.id!, 'delete');
    requireScope(auth, 'pages_manage_metadata');
    await webhooks.unsubscribe(page.id);
    return { json: { success: true } };
  });

  async function ownComment(req: GraphRequest, id: string, method: 'post' | 'delete') {
    const auth = await state.authenticate(req.token);
    const comment = await objects.get(id);
    if (comment?.type !== 'comment' || !ownersOf(auth).has(comment.owner)) {
      throw graphErrors.notFound(id, method);
    }
    return { auth, comment };
  }

  // Likes as the Page: Facebook only (Instagram's API cannot like a comment).
  router.add('POST', ':id/likes', async (req, path) => {
    const { auth, comment } = await ownComment(req, path.id!, 'post');
    if (comment.network !== 'facebook') throw graphErrors.unknownPath(`${path.id}/likes`);
    requireScope(auth, 'pages_manage_engagement');
    if (!auth.page) throw graphErrors.pagePublishing();
    if (!(await store.get('page_like', comment.id))) {
      await store.put('page_like', comment.id, { pageId: auth.page.id });
      await objects.put({ ...comment, likeCount: comment.likeCount + 1 });
    }
    return { json: { success: true } };
  });
  router.add('DELETE', ':id/likes', async (req, path) => {
    const { auth, comment } = await ownComment(req, path.id!, 'delete');
    if (comment.network !== 'facebook') throw graphErrors.unknownPath(`${path.id}/likes`);
    requireScope(auth, 'pages_manage_engagement');
    if (await store.get('page_like', comment.id)) {
      await store.delete('page_like', comment.id);
      await objects.put({ ...comment, likeCount: Math.max(0, comment.likeCount - 1) });
    }
    return { json: { success: true } };
  });

  if (!instagram) {
    // Blocking a person from the Page (`POST /{page}/blocked?user=PSID`).
    router.add('POST', ':id/blocked', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { page } = accountOf(auth, path.id!, 'post');
      if (!auth.page) throw graphErrors.pagePublishing();
      const user = req.params.user ?? req.params.psid ?? '';
      if (!user) throw graphErrors.missingParam('user');
      await store.put('blocked', `${page.id}:${user}`, { at: await kit.now() });
      return { json: { [user]: true } };
    });
    router.add('GET', ':id/blocked', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { page } = accountOf(auth, path.id!, 'get');
      const ids = (await store.list('blocked'))
        .map((e) => e.id)
        .filter((k) => k.startsWith(`${page.id}:`))
        .map((k) => ({ id: k.slice(page.id.length + 1) }));
      return { json: { data: ids } };
    });
  } else {
    // Media other accounts tagged this Instagram account in.
    router.add('GET', ':id/tags', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { accountId } = accountOf(auth, path.id!, 'get');
      requireScope(auth, 'instagram_basic');
      const tags = (await store.list<IgTag>(`tags:${accountId}`))
        .map((e) => e.data)
        .filter((t) => !t.commentId)
        .sort((a, b) => b.createdAt - a.createdAt);
      const { slice, paging } = paginate(ctx, req, `${accountId}/tags`, tags);
      const specs = parseFields(req.params.fields, 'id');
      const data = slice.map((t) =>
        pickFields(
          {
            id: t.id,
            caption: t.caption,
            media_type: 'IMAGE',
            media_product_type: 'FEED',
            permalink: `https://www.instagram.com/p/${t.id.slice(-10)}/`,
            timestamp: graphTime(t.createdAt),
            username: t.username,
            like_count: 0,
            comments_count: 0,
          },
          specs,
          'IGMedia',
        ),
      );
      return { json: { data, paging } };
    });
    // A reply to a mention: a comment on the other account's media (or under its comment).
    router.add('POST', ':id/mentions', async (req, path) => {
      const auth = await state.authenticate(req.token, [path.id]);
      const { accountId, page } = accountOf(auth, path.id!, 'post');
      requireScope(auth, 'instagram_manage_comments');
      const mediaId = req.params.media_id ?? '';
      if (!mediaId) throw graphErrors.missingParam('media_id');
      const message = req.params.message ?? '';
      if (!message.trim()) throw graphErrors.missingParam('message');
      const tag = await store.get<IgTag>(`tags:${accountId}`, mediaId);
      if (!tag) throw graphErrors.notFound(mediaId, 'post');
      const id = newNumericId(17);
      await store.put(`mention_replies:${accountId}`, id, {
        mediaId,
        commentId: req.params.comment_id ?? null,
        message,
        from: page.instagram!.username,
        createdAt: await kit.now(),
      });
      return { json: { id } };
    });
  }
}
