import type { Post } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { createPlatformPost, createPost } from '../../testing/post-fixtures';
import { outcomesOf, publishRows, publishToasts, type RowState } from './publish-rows';

function post(overrides: Partial<Post> = {}): Post {
  return createPost({
    platforms: [
      { id: 'plt_x', name: 'X' },
      { id: 'plt_fb', name: 'Facebook' },
    ],
    platformPosts: [
      createPlatformPost({ id: 'pp_x', platformId: 'plt_x' }),
      createPlatformPost({ id: 'pp_fb', platformId: 'plt_fb', platformName: 'Facebook' }),
    ],
    ...overrides,
  });
}

const states = (rows: ReturnType<typeof publishRows>): RowState[] => rows.map((r) => r.state);
const both = new Set(['plt_x', 'plt_fb']);

describe('publishRows', () => {
  it('shows a video uploaded ahead as waiting for the network’s own time, with any problem since', () => {
    const uploaded = (error: string | null) =>
      post({
        status: 'scheduled',
        platforms: [{ id: 'plt_yt', name: 'YouTube' }],
        platformPosts: [
          createPlatformPost({
            id: 'pp_yt',
            platformId: 'plt_yt',
            platformName: 'YouTube',
            status: 'UPLOADED',
            externalId: 'vid123',
            dueAt: '2030-03-02T15:00:00.000Z',
            error,
          }),
        ],
      });
    const now = Date.parse('2030-03-01T12:00:00.000Z');
    const rows = publishRows({ post: uploaded(null), connectedPlatformIds: null, now });
    expect(rows[0]?.state).toEqual({
      kind: 'uploaded',
      dueAt: '2030-03-02T15:00:00.000Z',
      error: null,
    });
    // Still offered for Publish now: YouTube then makes it public at once.
    expect(rows[0]?.selectable).toBe(true);
    const failed = publishRows({
      post: uploaded('Herald could not move the video.'),
      connectedPlatformIds: null,
      now,
    });
    expect(failed[0]?.state).toMatchObject({ error: 'Herald could not move the video.' });
    // Its time come, it reads as going out until the engine marks it published.
    const due = publishRows({
      post: uploaded(null),
      connectedPlatformIds: null,
      now: Date.parse('2030-03-02T15:00:01.000Z'),
    });
    expect(due[0]?.state).toEqual({ kind: 'publishing' });
  });

  it('gives each account of one network its own row, named after the account', () => {
    const twoPages = post({
      status: 'scheduled',
      platforms: [{ id: 'plt_fb', name: 'Facebook' }],
      platformPosts: [
        createPlatformPost({
          id: 'pp_a',
          platformId: 'plt_fb',
          platformName: 'Facebook',
          integrationId: 'int_a',
          accountName: 'Harbor Cafe',
          accountUsername: null,
        }),
        createPlatformPost({
          id: 'pp_b',
          platformId: 'plt_fb',
          platformName: 'Facebook',
          integrationId: null,
          accountName: 'Harbor Jobs',
          accountUsername: null,
          dueAt: '2030-03-02T09:00:00.000Z',
        }),
      ],
    });
    const rows = publishRows({
      post: twoPages,
      connectedPlatformIds: new Set(['plt_fb']),
      outcomes: { 'Facebook (Harbor Cafe)': { status: 'success', error: null } },
      now: Date.parse('2030-03-01T12:00:00.000Z'),
    });
    expect(rows.map((r) => [r.id, r.label, r.account?.name])).toEqual([
      ['pp_a', 'Facebook (Harbor Cafe)', 'Harbor Cafe'],
      ['pp_b', 'Facebook (Harbor Jobs)', 'Harbor Jobs'],
    ]);
    expect(rows[0]?.state.kind).toBe('published');
    // The second Page was disconnected since: it cannot be chosen, and says so.
    expect(rows[1]?.state).toEqual({ kind: 'queued', dueAt: '2030-03-02T09:00:00.000Z' });
    expect(rows[1]?.connected).toBe(false);
    expect(rows[1]?.selectable).toBe(false);
  });

  it('reads each network by its own target: idle without a time, queued for later, publishing when due', () => {
    const now = Date.parse('2030-03-01T12:00:00.000Z');
    expect(states(publishRows({ post: post(), connectedPlatformIds: both, now }))).toEqual([
      { kind: 'idle' },
      { kind: 'idle' },
    ]);
    // Published now to X only: Facebook waits for tomorrow, whatever the post's status says.
    const partial = publishRows({
      post: post({
        status: 'publishing',
        platformPosts: [
          createPlatformPost({ id: 'pp_x', status: 'PUBLISHED', permalink: 'https://x.com/1' }),
          createPlatformPost({
            id: 'pp_fb',
            platformId: 'plt_fb',
            platformName: 'Facebook',
            dueAt: '2030-03-02T09:00:00.000Z',
          }),
        ],
      }),
      connectedPlatformIds: both,
      now,
    });
    expect(states(partial)).toEqual([
      { kind: 'published', permalink: 'https://x.com/1' },
      { kind: 'queued', dueAt: '2030-03-02T09:00:00.000Z' },
    ]);
    expect(partial[1]?.selectable).toBe(true);
    const due = publishRows({
      post: post({
        platformPosts: [
          createPlatformPost({ id: 'pp_x', dueAt: '2030-03-01T11:59:00.000Z' }),
          createPlatformPost({ id: 'pp_fb', platformId: 'plt_fb', status: 'READY' }),
        ],
      }),
      connectedPlatformIds: both,
      now,
    });
    expect(states(due)).toEqual([{ kind: 'publishing' }, { kind: 'publishing' }]);
    expect(due[0]?.selectable).toBe(false);
  });

  it('shows the running request as Publishing... for the names it was sent for', () => {
    const rows = publishRows({ post: post(), connectedPlatformIds: both, inFlight: ['x'] });
    expect(states(rows)).toEqual([{ kind: 'publishing' }, { kind: 'idle' }]);
  });

  it('prefers the last answer to the record, with the fallback reasons', () => {
    const rows = publishRows({
      post: post(),
      connectedPlatformIds: both,
      outcomes: {
        X: { status: 'success', error: null },
        facebook: { status: 'failed', error: null },
      },
    });
    expect(states(rows)).toEqual([
      { kind: 'published', permalink: null },
      { kind: 'failed', error: 'Publishing failed', targetId: 'pp_fb' },
    ]);
    expect(rows.map((r) => r.selectable)).toEqual([false, true]);
  });

  it('keeps failed and uncertain targets with their reasons, and locks published ones', () => {
    const rows = publishRows({
      post: post({
        status: 'failed',
        platformPosts: [
          createPlatformPost({ id: 'pp_x', platformId: 'plt_x', status: 'UNCERTAIN', error: ' ' }),
          createPlatformPost({
            id: 'pp_fb',
            platformId: 'plt_fb',
            status: 'FAILED',
            error: 'Boom',
          }),
        ],
      }),
      connectedPlatformIds: null,
    });
    expect(states(rows)).toEqual([
      { kind: 'uncertain', error: null, targetId: 'pp_x' },
      { kind: 'failed', error: 'Boom', targetId: 'pp_fb' },
    ]);
    expect(rows.map((r) => [r.connected, r.selectable])).toEqual([
      [null, true],
      [null, true],
    ]);
  });

  it('cannot choose a network without an account, nor anything on a published post', () => {
    const rows = publishRows({ post: post(), connectedPlatformIds: new Set(['plt_x']) });
    expect(rows.map((r) => [r.connected, r.selectable])).toEqual([
      [true, true],
      [false, false],
    ]);
    const published = publishRows({
      post: post({ status: 'published' }),
      connectedPlatformIds: both,
    });
    expect(published.map((r) => r.selectable)).toEqual([false, false]);
  });
});

describe('publishToasts', () => {
  it('says what went out, what failed and what is still going', () => {
    expect(
      publishToasts({
        status: 'success',
        results: {
          X: { status: 'success', error: null },
          Threads: { status: 'success', error: null },
        },
        message: 'Published to: X, Threads.',
      }),
    ).toEqual([{ tone: 'success', message: 'Published to: X, Threads' }]);
    expect(
      publishToasts({
        status: 'partial_success',
        results: {
          X: { status: 'success', error: null },
          Facebook: { status: 'failed', error: 'Boom' },
          TikTok: { status: 'pending', error: null },
        },
        message: '…',
      }),
    ).toEqual([
      { tone: 'success', message: 'Published to: X' },
      { tone: 'error', message: 'Failed for: Facebook. Check details.' },
      { tone: 'blank', message: 'Still publishing to: TikTok. This page updates when it is done.' },
    ]);
  });

  it("prefers the server's sentence when nothing went out, with a fallback", () => {
    expect(
      publishToasts({
        status: 'failed',
        results: { X: { status: 'failed', error: 'Boom' } },
        message: 'Failed to publish to any platform.',
      }),
    ).toEqual([{ tone: 'error', message: 'Failed to publish to any platform.' }]);
    expect(publishToasts({ status: 'failed', results: {}, message: ' ' })).toEqual([
      { tone: 'error', message: 'Failed to publish to any platform.' },
    ]);
    expect(
      publishToasts({
        status: 'failed',
        results: { X: { status: 'pending', error: null } },
        message: 'Still publishing to: X.',
      }),
    ).toEqual([
      { tone: 'blank', message: 'Still publishing to: X. This page updates when it is done.' },
    ]);
  });
});

describe('outcomesOf', () => {
  it('reads each sent name, and a name the answer forgot failed for an unknown reason', () => {
    expect(
      outcomesOf(
        {
          status: 'partial_success',
          results: { x: { status: 'success', error: null } },
          message: '',
        },
        ['X', 'Facebook'],
      ),
    ).toEqual({
      X: { status: 'success', error: null },
      Facebook: { status: 'failed', error: 'Unknown publishing error' },
    });
  });
});
