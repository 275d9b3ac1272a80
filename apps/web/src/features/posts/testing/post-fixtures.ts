import type { PlatformPost, Post, PostMedia } from '@herald/contract';
import { ok, type FakeReply, type FakeRequest, type Handler } from '@/testing/fake-server';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${++sequence}`;

/** One file of a post: an image with a thumbnail, unless told otherwise. */
export function createMedia(overrides: Partial<PostMedia> = {}): PostMedia {
  const id = overrides.id ?? nextId('med');
  return {
    id,
    mediaUrl: `https://media.example/${id}.jpg`,
    thumbnailUrl: `https://media.example/${id}-thumb.jpg`,
    mimeType: 'image/jpeg',
    fileName: `${id}.jpg`,
    kind: 'image',
    size: 1024,
    width: 1080,
    height: 1080,
    durationSec: null,
    platformIds: null,
    ...overrides,
  };
}

export function createPlatformPost(overrides: Partial<PlatformPost> = {}): PlatformPost {
  return {
    id: nextId('pp'),
    platformId: 'plt_x',
    platformName: 'X',
    status: 'QUEUED',
    externalId: null,
    permalink: null,
    error: null,
    publishedAt: null,
    dueAt: null,
    integrationId: 'int_x',
    accountName: 'Ada Posts',
    accountUsername: 'ada_posts',
    accountPictureUrl: null,
    ...overrides,
  };
}

/** A draft for X in org_1, written by Ada, unless told otherwise. */
export function createPost(overrides: Partial<Post> = {}): Post {
  return {
    id: nextId('post'),
    organizationId: 'org_1',
    title: null,
    status: 'draft',
    content: 'Hello from Herald',
    platforms: [{ id: 'plt_x', name: 'X' }],
    accounts: [
      {
        id: 'int_x',
        platformId: 'plt_x',
        platformName: 'X',
        name: 'Ada Posts',
        username: 'ada_posts',
        pictureUrl: null,
        connected: true,
      },
    ],
    platformPosts: [],
    media: [],
    scheduledAt: null,
    publishedAt: null,
    createdAt: '2026-03-02T09:00:00.000Z',
    updatedAt: '2026-03-02T09:00:00.000Z',
    creator: { id: 'usr_ada', displayName: 'Ada Lovelace' },
    ...overrides,
  };
}

/** The list answer: a page of posts with the paging meta the server sends beside it. */
export function postsPage(
  posts: Post[],
  meta: { page?: number; pageSize?: number; totalCount?: number } = {},
): FakeReply {
  return {
    status: 200,
    body: {
      status: 'success',
      data: { posts },
      meta: {
        page: meta.page ?? 1,
        pageSize: meta.pageSize ?? Math.max(posts.length, 1),
        totalCount: meta.totalCount ?? posts.length,
      },
    },
  };
}

/**
 * `GET /organizations/org_1/posts` as the server does it: status, case-insensitive search on
 * the default text, from (inclusive) and to (exclusive) on the post's time, and paging when asked.
 */
export function postsListHandler(all: () => Post[]): Handler {
  return ({ query }: FakeRequest) => {
    const status = query.get('status');
    const q = query.get('q')?.toLowerCase();
    const from = query.get('from');
    const to = query.get('to');
    const platformId = query.get('platformId');
    const when = (post: Post) => Date.parse(post.scheduledAt ?? post.createdAt);
    const matching = all().filter((post) => {
      const text = typeof post.content === 'string' ? post.content : (post.content.default ?? '');
      if (status && post.status !== status) return false;
      if (query.get('unscheduled') === 'true' && post.scheduledAt) return false;
      if (platformId && !post.platforms.some((p) => p.id === platformId)) return false;
      if (q && !text.toLowerCase().includes(q)) return false;
      if (from && when(post) < Date.parse(from)) return false;
      if (to && when(post) >= Date.parse(to)) return false;
      return true;
    });
    const page = Number(query.get('page') ?? 1);
    const pageSize = Number(query.get('pageSize') ?? 500);
    return postsPage(matching.slice((page - 1) * pageSize, page * pageSize), {
      page,
      pageSize,
      totalCount: matching.length,
    });
  };
}

export const postRoute = (post: Post): Record<string, FakeReply> => ({
  [`GET /organizations/org_1/posts/${post.id}`]: ok({ post }),
});
