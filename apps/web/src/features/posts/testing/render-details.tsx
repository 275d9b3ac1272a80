import type { Comment, Integration, MeData, Post } from '@herald/contract';
import { screen } from '@testing-library/react';
import { createMe } from '@/testing/factories';
import { ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { createIntegration } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

export const postPath = (post: Post) => `/organizations/org_1/posts/${post.id}`;
export const publishPath = (post: Post) => `/organizations/org_1/post/${post.id}/publish`;
export const commentsPath = (post: Post, platformId: string) =>
  `${postPath(post)}/comments/${platformId}`;
export const commentPath = (platformId: string, commentId: string) =>
  `/organization/org_1/platform/${platformId}/comment/${commentId}`;

/** Connected accounts for the named networks (ids `plt_{name}` as in the fixtures). */
export function connectedTo(...names: string[]): Integration[] {
  return names.map((name) =>
    createIntegration({ platform: { id: `plt_${name.toLowerCase()}`, name } }),
  );
}

let sequence = 0;

/** A comment as the server answers it: by someone else, no likes, no replies. */
export function createComment(overrides: Partial<Comment> = {}): Comment {
  sequence += 1;
  return {
    id: `cmt_${sequence}`,
    message: `Comment ${sequence}`,
    likes: 0,
    created_time: new Date(Date.now() - 3 * 60_000).toISOString(),
    from: { id: `author_${sequence}`, name: 'Grace Hopper', picture: { data: { url: null } } },
    isOwn: false,
    replies: [],
    ...overrides,
  };
}

/** A page of comments as `GET …/comments/{platformId}` answers it. */
export function commentsPage(comments: Comment[], nextCursor: string | null = null): FakeReply {
  return { status: 200, body: { status: 'success', data: { comments }, meta: { nextCursor } } };
}

/**
 * Opens /content/{postId} (after /content, so Close has somewhere to go back to) against a fake
 * server that serves the post as it is at each request: tests may change it in place.
 */
export async function renderDetails(
  post: Post,
  {
    me = createMe(),
    integrations = connectedTo('X'),
    routes = {},
  }: {
    me?: MeData;
    integrations?: Integration[];
    routes?: Record<string, Handler | FakeReply>;
  } = {},
) {
  const server = mockServer({
    me,
    routes: {
      [`GET ${postPath(post)}`]: () => ok({ post }),
      'GET /organizations/org_1/integrations': ok({ platforms: integrations }),
      'GET /organizations/org_1/posts': ok({ posts: [] }),
      ...routes,
    },
  });
  const app = renderApp(['/content', `/content/${post.id}`]);
  await screen.findByRole('heading', { name: 'Post Details', level: 1 });
  return { ...app, server };
}
