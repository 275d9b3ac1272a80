import { numericId } from '../kit/emu-kit.js';
import { graphErrors } from './errors.js';
import { parseFields, pickFields, type FieldSpec } from './fields.js';
import { paginate, requireScope, wants, type PublishDeps } from './helpers.js';
import {
  graphTime,
  newNumericId,
  ownersOf,
  type GraphComment,
  type GraphObject,
} from './objects.js';
import type { GraphAnswer, GraphRequest, GraphRouter } from './router.js';
import type { Authenticated } from './state.js';

const IG_FIELDS = 'id,text,timestamp';
const FB_FIELDS = 'id,message,created_time,from{id,name}';
/**
 * The longest comment each network takes: Facebook's 8,000 characters, counted here in UTF-16
 * units (Graph does not say how it counts; an emoji-heavy comment is refused at the stricter
 * reading), and Instagram's 2,200 characters, its comments' limit in the app as in the API.
 */
const commentTooLong = (network: Network, message: string) =>
  network === 'instagram' ? [...message].length > 2200 : message.length > 8000;

type Network = GraphComment['network'];
const networkOf = (object: GraphObject): Network | null =>
  object.type === 'comment'
    ? object.network
    : object.type === 'ig_media'
      ? 'instagram'
      : object.type === 'fb_post' || object.type === 'fb_photo' || object.type === 'fb_video'
        ? 'facebook'
        : null;

/** Someone else's comment, for `POST /_emu/comments`: stable ids per commenter name. */
export function visitorOf(network: Network, name: string) {
  return network === 'instagram'
    ? { id: numericId(`ig-commenter:${name}`, 17), name }
    : { id: numericId(`fb-commenter:${name}`, 15), name };
}

/**
 * Comment threads on Instagram media and Page posts (docs/networks.md#instagram-comments, #facebook-comments): list, reply, edit (Facebook),
 * hide and delete. A reply to a reply joins its top-level comment, as on both networks.
 */
export function addGraphComments(router: GraphRouter, deps: PublishDeps) {
  const { ctx, kit, state, objects, views } = deps;

  /** The post or comment at `id`, if this token's accounts own it. */
  async function ownedObject(auth: Authenticated, id: string, method: 'get' | 'post' | 'delete') {
    const object = await objects.get(id);
    if (!object || !ownersOf(auth).has(object.owner) || !networkOf(object)) {
      throw graphErrors.notFound(id, method);
    }
    return object;
  }

  function requireCommentScope(auth: Authenticated, network: Network, write: boolean) {
    if (network === 'instagram') return requireScope(auth, 'instagram_manage_comments');
    requireScope(auth, write ? 'pages_manage_engagement' : 'pages_read_engagement');
    // Facebook comments are written as the Page, with its token.
    if (write && !auth.page) throw graphErrors.pagePublishing();
  }

  function viewComment(
    c: GraphComment,
    specs: FieldSpec[],
    thread: GraphComment[] = [],
  ): Record<string, unknown> {
    const replies = c.parentId ? [] : thread.filter((r) => r.parentId === c.id);
    const nested = (name: string, defaults: string) => {
      const spec = specs.find((s) => s.name === name);
      const sub = spec?.sub ?? parseFields(undefined, defaults);
      return { data: replies.map((r) => pickFields(viewComment(r, sub), sub, 'Comment')) };
    };
    if (c.network === 'instagram') {
      return {
        id: c.id,
        text: c.message,
        timestamp: graphTime(c.createdAt),
        username: c.fromName,
        from: { id: c.fromId, username: c.fromName },
        like_count: c.likeCount,
        hidden: c.hidden,
        parent_id: c.parentId ?? undefined,
        media: { id: c.root },
        replies: c.parentId || !wants(specs, 'replies') ? undefined : nested('replies', IG_FIELDS),
      };
    }
    return {
      id: c.id,
      message: c.message,
      created_time: graphTime(c.createdAt),
      from: { id: c.fromId, name: c.fromName },
      like_count: c.likeCount,
      comment_count: replies.length,
      parent: c.parentId ? { id: c.parentId } : undefined,
      is_hidden: c.hidden,
      can_remove: true,
      permalink_url: `https://www.facebook.com/${c.root}?comment_id=${c.id}`,
      object: { id: c.root },
      comments: c.parentId || !wants(specs, 'comments') ? undefined : nested('comments', FB_FIELDS),
    };
  }

  async function list(req: GraphRequest, id: string, edge: 'comments' | 'replies') {
    const auth = await state.authenticate(req.token);
    const object = await ownedObject(auth, id, 'get');
    const network = networkOf(object)!;
    if (edge === 'replies' && (object.type !== 'comment' || network !== 'instagram')) {
      throw graphErrors.unknownPath(`${id}/replies`);
    }
    if (edge === 'comments' && object.type === 'comment' && network === 'instagram') {
      throw graphErrors.unknownPath(`${id}/comments`);
    }
    requireCommentScope(auth, network, false);
    const root = object.type === 'comment' ? object.root : object.id;
    const thread = await objects.thread(root);
    const stream = network === 'facebook' && req.params.filter === 'stream';
    let items =
      object.type === 'comment'
        ? thread.filter((c) => c.parentId === object.id)
        : thread.filter((c) => stream || !c.parentId);
    if (req.params.order === 'reverse_chronological') items = [...items].reverse();
    const { slice, paging } = paginate(ctx, req, `${id}/${edge}`, items);
    const specs = parseFields(req.params.fields, network === 'instagram' ? IG_FIELDS : FB_FIELDS);
    const data = slice.map((c) => pickFields(viewComment(c, specs, thread), specs, 'Comment'));
    const summary =
      req.params.summary === 'true'
        ? { summary: { total_count: items.length, order: req.params.order ?? 'chronological' } }
        : {};
    return { json: { data, paging, ...summary } };
  }

  /** A comment by the account itself (a reply, or a first comment on its own post). */
  async function create(req: GraphRequest, id: string, edge: 'comments' | 'replies') {
    const auth = await state.authenticate(req.token);
    const target = await ownedObject(auth, id, 'post');
    const network = networkOf(target)!;
    if ((edge === 'replies') !== (target.type === 'comment' && network === 'instagram')) {
      throw graphErrors.unknownPath(`${id}/${edge}`);
    }
    requireCommentScope(auth, network, true);
    const message = req.params.message ?? '';
    if (!message.trim()) throw graphErrors.missingParam('message');
    if (commentTooLong(network, message)) {
      throw graphErrors.invalidParam('(#100) The comment is too long.');
    }
    const pages = auth.page ? [auth.page] : auth.user.pages;
    const author =
      network === 'instagram'
        ? pages.map((p) => p.instagram).find((ig) => ig?.id === target.owner)
        : pages.find((p) => p.id === target.owner);
    const comment = await addComment(target, {
      fromId: author?.id ?? target.owner,
      fromName: (author && 'username' in author ? author.username : author?.name) ?? '',
      message,
    });
    return { json: { id: comment.id } };
  }

  async function addComment(
    target: GraphObject,
    input: { fromId: string; fromName: string; message: string },
  ): Promise<GraphComment> {
    const network = networkOf(target)!;
    if (target.type === 'comment' && target.hidden) {
      throw graphErrors.invalidParam('(#100) Replies to a hidden comment are not allowed.');
    }
    const root = target.type === 'comment' ? target.root : target.id;
    const comment: GraphComment = {
      type: 'comment',
      id:
        network === 'instagram' ? newNumericId(17) : `${root.split('_').pop()}_${newNumericId(16)}`,
      network,
      owner: target.owner,
      createdAt: await kit.now(),
      root,
      parentId: target.type === 'comment' ? (target.parentId ?? target.id) : null,
      likeCount: 0,
      hidden: false,
      ...input,
    };
    await objects.addComment(comment);
    return comment;
  }

  async function update(req: GraphRequest, id: string): Promise<GraphAnswer> {
    const auth = await state.authenticate(req.token);
    const object = await ownedObject(auth, id, 'post');
    if (object.type !== 'comment') throw graphErrors.notFound(id, 'post');
    requireCommentScope(auth, object.network, true);
    const p = req.params;
    const hide = object.network === 'instagram' ? p.hide : p.is_hidden;
    if (hide === 'true' || hide === 'false') {
      await objects.put({ ...object, hidden: hide === 'true' });
      return { json: { success: true } };
    }
    if (object.network === 'facebook' && p.message !== undefined) {
      if (object.fromId !== object.owner) {
        throw graphErrors.invalidParam('(#100) Only the author of a comment can edit it.');
      }
      if (!p.message.trim()) throw graphErrors.missingParam('message');
      await objects.put({ ...object, message: p.message });
      return { json: { success: true } };
    }
    throw graphErrors.invalidParam(
      object.network === 'instagram'
        ? '(#100) Instagram comments can only be hidden or deleted.'
        : '(#100) Send message or is_hidden.',
    );
  }

  async function remove(req: GraphRequest, id: string): Promise<GraphAnswer> {
    const auth = await state.authenticate(req.token);
    const object = await ownedObject(auth, id, 'delete');
    if (object.type !== 'comment') throw graphErrors.notFound(id, 'delete');
    requireCommentScope(auth, object.network, true);
    await objects.removeComment(object);
    return { json: { success: true } };
  }

  router.add('GET', ':id/comments', (req, path) => list(req, path.id!, 'comments'));
  router.add('GET', ':id/replies', (req, path) => list(req, path.id!, 'replies'));
  router.add('POST', ':id/comments', (req, path) => create(req, path.id!, 'comments'));
  router.add('POST', ':id/replies', (req, path) => create(req, path.id!, 'replies'));
  router.add('POST', ':id', (req, path) => update(req, path.id!));
  router.add('DELETE', ':id', (req, path) => remove(req, path.id!));

  views.set('comment', {
    nodeType: 'Comment',
    defaults: 'id',
    async view(object, specs) {
      const c = object as GraphComment;
      const needsThread = wants(specs, 'replies') || wants(specs, 'comments');
      return viewComment(c, specs, needsThread ? await objects.thread(c.root) : []);
    },
  });

  return {
    /** `POST /_emu/comments`: someone else comments on a post, or replies to a comment. */
    async addVisitorComment(input: { postId: string; fromName: string; message: string }) {
      const target = await objects.get(input.postId);
      const network = target && networkOf(target);
      if (!target || !network) return null;
      const visitor = visitorOf(network, input.fromName);
      return addComment(target, {
        fromId: visitor.id,
        fromName: visitor.name,
        message: input.message,
      });
    },
  };
}
