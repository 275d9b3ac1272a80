import type { FastifyInstance } from 'fastify';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { handleOf } from '../kit/html.js';
import { emuTenant, type EmuTenant, notYours } from '../kit/tenant.js';
import { stableUserId, type XPublishingStore, type XTweet } from './store.js';
import type { XCommentInput } from './tweets.routes.js';

/**
 * Test-facing publishing endpoints (docs/networks.md#scenario-knobs):
 * - `GET /_emu/posts[?account=username|id][&replies=1]`: everything published through the API,
 *   oldest first, so tests can count publications;
 * - `POST /_emu/comments {postId, fromName, message, parentId?, likes?}`: another X user replies
 *   to a post (or to a reply of it).
 */
export interface XEmuDeps {
  oauth: SandboxOAuth;
  posts: XPublishingStore;
  addComment(input: XCommentInput): Promise<XTweet>;
}

const usernameOf = (name: string) => handleOf(name, 'x_user', 15);

/**
 * Whether a post concerns one of the tenant's accounts: it wrote the post or the conversation's
 * first post, or the post answers it.
 */
export async function ownsTweet(tenant: EmuTenant, posts: XPublishingStore, tweet: XTweet) {
  if (tenant.owns(tweet.authorId) || tenant.owns(tweet.inReplyToUserId)) return true;
  const root =
    tweet.conversationId === tweet.id ? null : await posts.getTweet(tweet.conversationId);
  return tenant.owns(root?.authorId);
}

export function registerXEmuRoutes(scope: FastifyInstance, deps: XEmuDeps) {
  scope.get('/_emu/posts', async (request) => {
    const tenant = emuTenant(request);
    const q = request.query as { account?: unknown; replies?: unknown };
    const ref = typeof q.account === 'string' ? q.account : '';
    const account = ref ? await deps.oauth.findAccount(ref) : null;
    if (ref && !account) return { posts: [] };
    const posts = (await deps.posts.allTweets())
      .filter((t) => t.viaApi && (q.replies === '1' || t.inReplyToTweetId === null))
      .filter((t) => tenant.owns(t.authorId) && (!account || t.authorId === account.id))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    // docs/product.md#alt-text: each file's alt text as X recorded it (null: none).
    const altTextOf = async (key: string) =>
      (await deps.posts.getMedia(key.slice(key.indexOf('_') + 1)))?.altText ?? null;
    const altTexts = await Promise.all(posts.map((t) => Promise.all(t.mediaKeys.map(altTextOf))));
    return {
      posts: posts.map((t, index) => ({
        id: t.id,
        accountId: t.authorId,
        account: t.author.username,
        text: t.text,
        mediaCount: t.mediaKeys.length,
        mediaKeys: t.mediaKeys,
        altTexts: altTexts[index],
        inReplyTo: t.inReplyToTweetId,
        createdAt: new Date(t.createdAt).toISOString(),
        deleted: t.deletedAt !== null,
      })),
    };
  });

  scope.post('/_emu/comments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fromName = typeof body.fromName === 'string' ? body.fromName.trim() : '';
    const message = typeof body.message === 'string' ? body.message : '';
    const targetId =
      typeof body.parentId === 'string' && body.parentId ? body.parentId : body.postId;
    if (!fromName || !message || typeof targetId !== 'string')
      return reply.status(400).send({ error: 'Send {postId, fromName, message[, parentId]}.' });
    const target = await deps.posts.getTweet(targetId);
    if (!target || target.deletedAt !== null)
      return reply.status(404).send({ error: `No live post ${targetId}.` });
    if (!(await ownsTweet(emuTenant(request), deps.posts, target))) throw notYours('post');
    const comment = await deps.addComment({
      target,
      fromName,
      message,
      likes: Math.max(0, Math.floor(Number(body.likes) || 0)),
      authorId: stableUserId(fromName),
      username: usernameOf(fromName),
    });
    return reply.status(201).send({
      id: comment.id,
      conversationId: comment.conversationId,
      inReplyTo: comment.inReplyToTweetId,
      authorId: comment.authorId,
      username: comment.author.username,
    });
  });
}
