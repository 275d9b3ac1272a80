import type { FastifyInstance } from 'fastify';
import { emuTenant, notYours } from '../kit/tenant.js';
import type { GraphComment, GraphObjects } from './objects.js';

interface Deps {
  objects: GraphObjects;
  comments: {
    addVisitorComment(input: {
      postId: string;
      fromName: string;
      message: string;
    }): Promise<GraphComment | null>;
  };
  /** Sends the comment's webhook (messaging-core.ts) when the Page subscribed the app. */
  onVisitorComment?: (comment: GraphComment) => Promise<void>;
}

/**
 * The test-facing side of publishing (docs/networks.md#scenario-knobs assertions API):
 * - `GET /_emu/posts[?account=id|name]`: everything actually published, oldest first, so a
 *   test can prove one scheduled post made exactly one publication;
 * - `POST /_emu/comments {postId, fromName, message}`: another person comments on a post (or,
 *   with a comment id as `postId`, replies to that comment).
 */
export function registerEmuPublishRoutes(
  scope: FastifyInstance,
  { objects, comments, onVisitorComment }: Deps,
) {
  scope.get('/_emu/posts', async (request) => {
    const tenant = emuTenant(request);
    const query = (request.query as Record<string, unknown>).account;
    const account = typeof query === 'string' ? query : '';
    const posts = (await objects.listPosts())
      .filter((p) => tenant.owns(p.account))
      .filter((p) => !account || p.account === account || p.accountName === account)
      .reverse();
    return {
      posts: posts.map((p) => ({
        id: p.id,
        network: p.network,
        account: p.account,
        accountName: p.accountName,
        kind: p.kind,
        text: p.text,
        mediaCount: p.mediaCount,
        altTexts: p.altTexts ?? [],
        permalink: p.permalink,
        createdAt: new Date(p.createdAt).toISOString(),
      })),
    };
  });

  scope.post('/_emu/comments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const postId = typeof body.postId === 'string' ? body.postId : '';
    const fromName = typeof body.fromName === 'string' ? body.fromName.trim() : '';
    const message = typeof body.message === 'string' ? body.message : '';
    if (!postId || !fromName || !message.trim()) {
      return reply.status(400).send({ error: 'Send {postId, fromName, message}.' });
    }
    const target = await objects.get(postId);
    if (target && !emuTenant(request).owns(target.owner)) throw notYours('post or comment');
    const comment = await comments.addVisitorComment({ postId, fromName, message });
    if (!comment) return reply.status(404).send({ error: `No post or comment ${postId}.` });
    await onVisitorComment?.(comment);
    return reply.status(201).send({
      id: comment.id,
      postId: comment.root,
      parentId: comment.parentId,
      from: { id: comment.fromId, name: comment.fromName },
      message: comment.message,
    });
  });
}
