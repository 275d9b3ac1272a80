import { describe, expect, it } from 'vitest';
import { fail, fakeServer, ok } from '@/testing/fake-server';
import { installFakeXhr } from '@/testing/fake-xhr';
import { isApiError } from '@/lib/api-error';
import { uploadPost } from './upload-post';

const ROUTE = 'POST /organizations/org_1/post';

describe('uploadPost', () => {
  it('reports upload progress and answers the created post', async () => {
    installFakeXhr({ uploadSteps: [0.25, 1] });
    const post = {
      id: 'p1',
      organizationId: 'org_1',
      title: null,
      status: 'draft',
      content: 'Hi',
      platforms: [],
      accounts: [],
      platformPosts: [],
      media: [],
      scheduledAt: null,
      publishedAt: null,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      creator: null,
    };
    fakeServer({ [ROUTE]: { status: 201, body: { status: 'success', data: { post } } } });
    const progress: number[] = [];
    const body = new FormData();
    body.append('content', 'x'.repeat(100));

    const created = await uploadPost('org_1', body, {
      onProgress: (f) => progress.push(f),
    });

    expect(created.id).toBe('p1');
    expect(progress).toEqual([0.25, 1]);
  });

  it('gives up with the 401 when the refresh fails, without a second upload', async () => {
    installFakeXhr();
    const server = fakeServer({
      [ROUTE]: fail(401, 'UNAUTHENTICATED', 'Please sign in.'),
      'POST /auth/refreshToken': fail(401, 'UNAUTHENTICATED', 'Your session has ended.'),
    });

    const error = await uploadPost('org_1', new FormData()).catch((e: unknown) => e);

    expect(isApiError(error) && error.status).toBe(401);
    expect(server.count(ROUTE)).toBe(1);
    expect(server.count('POST /auth/refreshToken')).toBe(1);
  });

  it('replays once only: a second 401 is the answer', async () => {
    installFakeXhr();
    const server = fakeServer({
      [ROUTE]: fail(401, 'UNAUTHENTICATED', 'Please sign in.'),
      'POST /auth/refreshToken': ok({}),
    });

    const error = await uploadPost('org_1', new FormData()).catch((e: unknown) => e);

    expect(isApiError(error) && error.message).toBe('Please sign in.');
    expect(server.count(ROUTE)).toBe(2);
  });

  it('says the server could not be reached when the connection fails', async () => {
    installFakeXhr();
    const server = fakeServer();
    server.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));

    const error = await uploadPost('org_1', new FormData()).catch((e: unknown) => e);

    expect(isApiError(error) && error.code).toBe('NETWORK_ERROR');
  });
});
