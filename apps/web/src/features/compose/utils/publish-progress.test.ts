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

  it('keeps a queued account without a reason as publishing', () => {
    const progress = progressOf(createdPost({ platformPosts: [target('X', {})] }));
    expect(progress.rows[0]!.state).toEqual({ kind: 'publishing' });
    expect(progress.settled).toBe(false);
  });
});
