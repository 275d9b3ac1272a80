import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyedLock } from '../kit/keyed-lock.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { canReadAs, canWriteAs, type Caller } from './access.js';
import { linkedInErrors } from './errors.js';
import {
  commentUrn,
  liNumericId,
  parseCommentUrn,
  type LiComment,
  type LinkedInPosts,
  type LiPost,
} from './posts-state.js';
import { linkedInRoute } from './rest.js';
import type { LinkedInState } from './state.js';

/**
 * The Comments API on `/rest/socialActions/{urn}/comments` (docs/networks.md#linkedin-comments, #linkedin-sandbox): list (one level: a
 * post's comments, or a comment's replies), create (a reply to a reply joins its top-level
 * comment), edit with a Rest.li partial update, delete. Comments carry URNs only, no names.
 */
export const LINKEDIN_COMMENTS = { maxLength: 1_250 } as const;

export interface LinkedInCommentsDeps {
  kit: EmuKit;
  state: LinkedInState;
  posts: LinkedInPosts;
  withLock: KeyedLock;
}

export function commentBody(c: LiComment) {
  return {
    id: c.id,
    commentUrn: c.urn,
    $URN: c.urn,
    actor: c.actor,
    created: { actor: c.actor, time: c.createdAt },
    lastModified: { actor: c.actor, time: c.modifiedAt },
    message: { text: c.text, attributes: [] },
    object: c.postUrn,
    ...(c.parentUrn ? { parentComment: c.parentUrn } : {}),
    likesSummary: { totalLikes: c.likes, likedByCurrentUser: false, selectedLikes: [] },
    commentsSummary: { aggregatedTotalComments: c.replies, totalFirstLevelComments: c.replies },
  };
}

export function registerLinkedInCommentRoutes(scope: FastifyInstance, deps: LinkedInCommentsDeps) {
  const { kit, state, posts, withLock } = deps;
  const authenticate = async (request: FastifyRequest): Promise<Caller> =>
    state.authenticate(request.headers.authorization);

  /** The post a socialActions URN is about, and the top-level comment when it is a comment. */
  async function targetOf(urn: string): Promise<{ post: LiPost; parent: LiComment | null }> {
    const asComment = parseCommentUrn(urn);
    let parent = asComment ? await posts.getComment(asComment.id) : null;
    if (asComment && !parent) throw linkedInErrors.notFound('Comment');
    // LinkedIn nests one level: a reply to a reply answers its top-level comment.
    if (parent?.parentUrn) parent = await posts.getComment(parseCommentUrn(parent.parentUrn)!.id);
    const post = await posts.getPost(parent?.postUrn ?? urn);
    if (!post) throw linkedInErrors.notFound('Post');
    return { post, parent };
  }

  async function bumpReplies(parentUrn: string | null, by: number) {
    const parsed = parentUrn ? parseCommentUrn(parentUrn) : null;
    if (!parsed) return;
    await withLock(`comment:${parsed.id}`, async () => {
      const parent = await posts.getComment(parsed.id);
      if (!parent) return;
      parent.replies = Math.max(0, parent.replies + by);
      await posts.saveComment(parent);
    });
  }

  /** A new comment (also used by `/_emu/comments` for other members). */
  async function addComment(input: {
    post: LiPost;
    parent: LiComment | null;
    actor: string;
    text: string;
    likes?: number;
  }) {
    const now = await kit.now();
    const id = liNumericId(now);
    const comment: LiComment = {
      id,
      urn: commentUrn(input.post.urn, id),
      postUrn: input.post.urn,
      parentUrn: input.parent?.urn ?? null,
      actor: input.actor,
      text: input.text,
      createdAt: now,
      modifiedAt: now,
      likes: input.likes ?? 0,
      replies: 0,
    };
    await posts.saveComment(comment);
    await bumpReplies(comment.parentUrn, 1);
    return comment;
  }

  const checkText = (text: unknown) => {
    if (typeof text !== 'string' || !text.trim())
      throw linkedInErrors.invalid('/message/text', 'field is required');
    if ([...text].length > LINKEDIN_COMMENTS.maxLength)
      throw linkedInErrors.invalid(
        '/message/text',
        `exceeds ${LINKEDIN_COMMENTS.maxLength} characters`,
      );
    return text;
  };

  scope.get(
    '/rest/socialActions/:urn/comments',
    linkedInRoute(true, async (request) => {
      const caller = await authenticate(request);
      const urn = (request.params as { urn: string }).urn;
      const { post, parent } = await targetOf(urn);
      if (!canReadAs(caller, post.author))
        throw linkedInErrors.denied('socialActions.comments.GET_ALL');
      const all = await posts.commentsUnder(parent?.urn ?? post.urn);
      const q = request.query as Record<string, string | undefined>;
      const start = Math.max(Number(q.start) || 0, 0);
      const count = Math.min(Math.max(Number(q.count) || 10, 1), 100);
      return {
        paging: { start, count, total: all.length, links: [] },
        elements: all.slice(start, start + count).map(commentBody),
      };
    }),
  );

  scope.post(
    '/rest/socialActions/:urn/comments',
    linkedInRoute(true, async (request, reply) => {
      const caller = await authenticate(request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const actor = typeof body.actor === 'string' ? body.actor : '';
      if (!actor || !canWriteAs(caller, actor))
        throw linkedInErrors.denied('socialActions.comments.CREATE');
      const text = checkText((body.message as { text?: unknown } | undefined)?.text);
      const urn = (request.params as { urn: string }).urn;
      const parentField = typeof body.parentComment === 'string' ? body.parentComment : null;
      const { post, parent } = await targetOf(parentField ?? urn);
      if (typeof body.object === 'string' && body.object !== post.urn)
        throw linkedInErrors.invalid('/object', `must be ${post.urn}, the post commented on`);
      const comment = await addComment({ post, parent, actor, text });
      return reply.status(201).header('x-restli-id', comment.id).send(commentBody(comment));
    }),
  );

  /** The comment named by the path, after checking it belongs to the path's entity. */
  async function ownComment(request: FastifyRequest, caller: Caller) {
    const { urn, id } = request.params as { urn: string; id: string };
    const comment = await posts.getComment(id);
    if (!comment || ![comment.postUrn, comment.parentUrn, comment.urn].includes(urn))
      throw linkedInErrors.notFound('Comment');
    const actor = (request.query as { actor?: string }).actor ?? '';
    if (!actor || !canWriteAs(caller, actor)) throw linkedInErrors.denied('socialActions.comments');
    return { comment, actor };
  }

  scope.post(
    '/rest/socialActions/:urn/comments/:id',
    linkedInRoute(true, async (request) => {
      const caller = await authenticate(request);
      const { comment, actor } = await ownComment(request, caller);
      if (comment.actor !== actor)
        throw linkedInErrors.denied('socialActions.comments.PARTIAL_UPDATE');
      const patch = (request.body as { patch?: { message?: { $set?: { text?: unknown } } } })
        ?.patch;
      comment.text = checkText(patch?.message?.$set?.text);
      comment.modifiedAt = await kit.now();
      await posts.saveComment(comment);
      return commentBody(comment);
    }),
  );

  scope.delete(
    '/rest/socialActions/:urn/comments/:id',
    linkedInRoute(true, async (request, reply) => {
      const caller = await authenticate(request);
      const { comment, actor } = await ownComment(request, caller);
      const post = await posts.getPost(comment.postUrn);
      // Authors may remove their own comments; a post's author may remove comments on it.
      if (comment.actor !== actor && post?.author !== actor)
        throw linkedInErrors.denied('socialActions.comments.DELETE');
      await posts.deleteComment(comment);
      await bumpReplies(comment.parentUrn, -1);
      return reply.status(204).send();
    }),
  );

  return { addComment, targetOf };
}
