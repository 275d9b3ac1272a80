import type { PlatformPost } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { createdPost } from '../routes/create-post.fixtures';
import { progressOf, runningLineOf, summaryOf } from './publish-progress';

const target = (platformName: string, over: Partial<PlatformPost>): PlatformPost => ({
  id: `t_${platformName}`,
  platformId: `p_${platformName}`,
  platformName,
  status: 'QUEUED',
  externalId: null,
  permalink: null,
  error: null,
  publishedAt: null,
  dueAt: null,
  integrationId: `i_${platformName}`,
  accountName: null,
  accountUsername: platformName.toLowerCase(),
  accountPictureUrl: null,
  ...over,
});

describe('Publish now progress', () => {
  it('settles an account queued again for a later try, saying why, instead of publishing on and on', () => {
    const progress = progressOf(
      createdPost({
        platformPosts: [
          target('X', { status: 'PUBLISHED', permalink: 'https://x.com/x/status/1' }),
          target('Instagram', {
            status: 'QUEUED',
            error:
              'Instagram allows 50 posts a day from this account; Herald tries again at 09:00.',
            dueAt: '2030-01-02T09:00:00.000Z',
          }),
        ],
      }),
    );
    expect(progress.rows[1]!.state).toMatchObject({
      kind: 'retrying',
      reason: 'Instagram allows 50 posts a day from this account; Herald tries again at 09:00.',
    });
    expect(progress.settled).toBe(true);
    expect(runningLineOf(progress)).toBe('2 of 2 done…');
    expect(summaryOf(progress)).toEqual({
      tone: 'success',
      text: 'Published to 1 of 2 accounts; 1 account will be tried again later: see the list.',
    });
  });

  it('settles a video uploaded ahead whose making public was refused, saying YouTube still publishes it', () => {
    const progress = progressOf(
      createdPost({
        platformPosts: [
          target('YouTube', {
            status: 'UPLOADED',
            error: 'YouTube said: the channel cannot publish videos right now.',
            dueAt: '2030-01-02T09:00:00.000Z',
          }),
        ],
      }),
    );
    expect(progress.rows[0]!.state).toEqual({
      kind: 'retrying',
      reason: 'YouTube said: the channel cannot publish videos right now.',
      todo: 'YouTube still publishes it at its scheduled time; the post shows when it went out.',
    });
    expect(progress.settled).toBe(true);
    // Without a refusal, Publish now is still making it public.
    const running = progressOf(
      createdPost({ platformPosts: [target('YouTube', { status: 'UPLOADED' })] }),
    );
    expect(running.settled).toBe(false);
  });

  it('keeps a queued account without a reason as publishing', () => {
    const progress = progressOf(createdPost({ platformPosts: [target('X', {})] }));
    expect(progress.rows[0]!.state).toEqual({ kind: 'publishing' });
    expect(progress.settled).toBe(false);
  });
});
