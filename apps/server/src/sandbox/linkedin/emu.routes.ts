import type { FastifyInstance } from 'fastify';
import { alphaId } from '../kit/emu-kit.js';
import { emuTenant, notYours } from '../kit/tenant.js';
import { renderLittleText } from './little-text.js';
import type { LiComment, LinkedInPosts, LiPost } from './posts-state.js';
import type { LinkedInState } from './state.js';

/**
 * Test-facing publishing endpoints (docs/networks.md#scenario-knobs):
 * - `GET /_emu/posts[?author=<urn>|account=<member name>]`: every post published, oldest first;
 * - `POST /_emu/comments {postId, fromName, message, parentId?, likes?}`: another member
 *   comments on a post (or replies to a comment: `parentId` is its URN).
 */
export interface LinkedInEmuDeps {
  state: LinkedInState;
  posts: LinkedInPosts;
  targetOf(urn: string): Promise<{ post: LiPost; parent: LiComment | null }>;
  addComment(input: {
    post: LiPost;
    parent: LiComment | null;
    actor: string;
    text: string;
    likes?: number;
  }): Promise<LiComment>;
}

const mediaCount = (post: LiPost) =>
  post.content.kind === 'media'
    ? 1
    : post.content.kind === 'multiImage'
      ? post.content.ids.length
      : 0;

export function registerLinkedInEmuRoutes(scope: FastifyInstance, deps: LinkedInEmuDeps) {
  scope.get('/_emu/posts', async (request) => {
    const tenant = emuTenant(request);
    const q = request.query as { author?: unknown; account?: unknown };
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const members = await deps.state.listMembers();
    const member = text(q.account) ? members.find((m) => m.account === q.account) : undefined;
    const author = text(q.author) ?? (member ? `urn:li:person:${member.sub}` : undefined);
    if (text(q.account) && !member) return { posts: [] };
    const all = (await deps.posts.allPosts())
      .filter((p) => tenant.owns(p.author) && (!author || p.author === author))
      .sort((a, b) => a.createdAt - b.createdAt || (a.urn < b.urn ? -1 : 1));
    // The comments under each post (a first comment shows here), oldest first.
    const comments = await Promise.all(all.map((p) => deps.posts.commentsUnder(p.urn)));
    return {
      posts: all.map((p, i) => ({
        comments: comments[i]!.map((c) => ({ id: c.urn, actor: c.actor, text: c.text })),
        id: p.urn,
        author: p.author,
        account: members.find((m) => m.sub === p.sub)?.account ?? null,
        text: renderLittleText(p.commentary),
        commentary: p.commentary,
        contentType: p.content.kind,
        mediaCount: mediaCount(p),
        mediaIds:
          p.content.kind === 'media'
            ? [p.content.id]
            : p.content.kind === 'multiImage'
              ? p.content.ids
              : [],
        altTexts: p.content.kind === 'none' ? [] : (p.content.altTexts ?? []),
        createdAt: new Date(p.createdAt).toISOString(),
      })),
    };
  });

  scope.post('/_emu/comments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fromName = typeof body.fromName === 'string' ? body.fromName.trim() : '';
    const message = typeof body.message === 'string' ? body.message : '';
    const target = typeof body.parentId === 'string' && body.parentId ? body.parentId : body.postId;
    if (!fromName || !message || typeof target !== 'string')
      return reply.status(400).send({ error: 'Send {postId, fromName, message[, parentId]}.' });
    let found;
    try {
      found = await deps.targetOf(target);
    } catch {
      return reply.status(404).send({ error: `No post or comment ${target}.` });
    }
    if (!emuTenant(request).owns(found.post.author)) throw notYours('post');
    const comment = await deps.addComment({
      ...found,
      actor: `urn:li:person:${alphaId(`commenter:${fromName}`)}`,
      text: message,
      likes: Math.max(0, Math.floor(Number(body.likes) || 0)),
    });
    return reply.status(201).send({
      id: comment.urn,
      commentId: comment.id,
      actor: comment.actor,
      parentComment: comment.parentUrn,
    });
  });
}
