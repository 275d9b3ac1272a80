import type { Integration, MediaConstraints, MeData, Platform, Post } from '@herald/contract';
import { screen } from '@testing-library/react';
import { createMe } from '@/testing/factories';
import { ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { installFakeMedia, type FakeMediaInfo } from '@/testing/fake-media';
import { installFakeXhr } from '@/testing/fake-xhr';
import {
  createIntegration,
  integrationRoutes,
  supportedPlatforms,
} from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const MB = 1024 * 1024;

/** Rules like the seeded networks' (apps/server platforms/<name>/limits.ts). */
export const RULES: Record<string, MediaConstraints> = {
  X: {
    text: { maxLength: 280, counting: 'x-weighted', textOnlyAllowed: true },
    image: {
      allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      maxFileSize: 5 * MB,
      maxCount: 4,
    },
    video: {
      allowedMimeTypes: ['video/mp4'],
      maxFileSize: 512 * MB,
      maxDuration: 140,
      maxCount: 1,
    },
    maxMediaPerPost: 4,
  },
  Instagram: {
    text: { maxLength: 2200, counting: 'codepoints', textOnlyAllowed: false },
    image: { allowedMimeTypes: ['image/jpeg'], maxFileSize: 8 * MB, maxCount: 10 },
    reel: {
      allowedMimeTypes: ['video/mp4', 'video/quicktime'],
      maxFileSize: 300 * MB,
      minDuration: 3,
      maxDuration: 900,
      maxCount: 1,
    },
    maxMediaPerPost: 10,
  },
  Facebook: {
    text: { maxLength: 63206, counting: 'codepoints', textOnlyAllowed: true },
    image: { allowedMimeTypes: ['image/jpeg', 'image/png'], maxFileSize: 4 * MB, maxCount: 10 },
    video: { allowedMimeTypes: ['video/mp4', 'video/quicktime'], maxCount: 1 },
    maxMediaPerPost: 10,
  },
};

/** Platform ids are UUIDs (the create call's contract checks it). */
export const PLATFORM_IDS: Record<string, string> = {
  X: '00000000-0000-4000-8000-00000000000a',
  Instagram: '00000000-0000-4000-8000-00000000000b',
  Facebook: '00000000-0000-4000-8000-00000000000c',
  Threads: '00000000-0000-4000-8000-00000000000d',
  TikTok: '00000000-0000-4000-8000-00000000000e',
  LinkedIn: '00000000-0000-4000-8000-00000000000f',
};
export const idOf = (name: string) => PLATFORM_IDS[name] as string;

/** The supported networks with the rules above (the others without any). */
export function platformsWithRules(): Platform[] {
  return supportedPlatforms().map((p) => ({
    ...p,
    id: idOf(p.name),
    mediaConstraints: RULES[p.name] ?? {},
  }));
}

let accountCount = 0;
/** A working account on the named network, with a UUID id as the server gives. */
export function account(
  name: string,
  metadata: Partial<Integration['metadata']> = {},
  overrides: Partial<Omit<Integration, 'metadata'>> = {},
): Integration {
  accountCount += 1;
  const id = `aaaaaaaa-0000-4000-8000-${String(accountCount).padStart(12, '0')}`;
  return createIntegration({ id, platform: { id: idOf(name), name }, metadata, ...overrides });
}

/** Accounts on X, Instagram and Facebook. */
export function connectedAccounts(): Integration[] {
  return [
    account('X', { name: 'Acme', username: 'acme' }),
    account('Instagram', { name: 'Acme Studio', username: 'acme.studio' }),
    account('Facebook', { name: 'Acme Page', username: null }),
  ];
}

/** A file of `size` bytes (not allocated: only the size is claimed). */
export function fileOf(name: string, type: string, size = 1024): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

export function createdPost(overrides: Partial<Post> = {}): Post {
  return {
    id: 'post_1',
    organizationId: 'org_1',
    title: null,
    status: 'scheduled',
    content: 'Hello',
    platforms: [{ id: idOf('X'), name: 'X' }],
    accounts: [],
    platformPosts: [],
    media: [],
    scheduledAt: null,
    publishedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    creator: { id: 'usr_1', displayName: 'Ada Lovelace' },
    ...overrides,
  };
}

export const created = (post: Post = createdPost()): FakeReply => ({
  status: 201,
  body: { status: 'success', data: { post } },
});

export const CREATE_ROUTE = 'POST /organizations/org_1/post';

interface RenderOptions {
  me?: MeData;
  platforms?: Platform[];
  integrations?: Integration[];
  routes?: Record<string, Handler | FakeReply>;
  path?: string;
  uploadSteps?: number[] | 'manual';
  /** What the browser would measure of each file, by name. */
  media?: Record<string, FakeMediaInfo>;
}

/** The composer on the real route tree, with a fake server behind fetch and XHR. */
export async function renderComposer({
  me = createMe(),
  platforms = platformsWithRules(),
  integrations = connectedAccounts(),
  routes = {},
  path = '/create-post',
  uploadSteps,
  media = {},
}: RenderOptions = {}) {
  const xhr = installFakeXhr({ uploadSteps });
  installFakeMedia(media);
  const server = mockServer({
    me,
    routes: {
      ...integrationRoutes({ platforms, integrations }),
      'GET /organizations/org_1/posts': {
        status: 200,
        body: {
          status: 'success',
          data: { posts: [] },
          meta: { page: 1, pageSize: 8, totalCount: 0 },
        },
      },
      'GET /organizations/org_1/subscription': ok({ subscription: null }),
      ...routes,
    },
  });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Create Social Post', level: 1 });
  return { ...app, server, xhr };
}

/** Waits for the platform tiles (the accounts have loaded). */
export const tile = (name: string) => screen.findByRole('checkbox', { name });
/** The main button, whatever it says (it names the chosen action: Save draft, Schedule…). */
export const MAIN_BUTTON = /^(Save draft|Schedule|Publish now|Submit for approval)$/;
export const createButton = () => screen.getByRole('button', { name: MAIN_BUTTON });
