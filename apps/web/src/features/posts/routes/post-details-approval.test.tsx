import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok } from '@/testing/fake-server';
import { createPlatformPost, createPost } from '../testing/post-fixtures';
import { postPath, renderDetails } from '../testing/render-details';

/** docs/product.md#approvals on the post's details: its status, no Publish Now, its history. */
describe('/content/{postId} of a post that went through approval', () => {
  it('shows Pending approval, offers no Publish Now, and lists who did what with the reason', async () => {
    const post = createPost({
      status: 'pending_approval',
      scheduledAt: '2099-05-10T12:30:00.000Z',
      platformPosts: [createPlatformPost({ id: 'pp_x', platformId: 'plt_x', platformName: 'X' })],
    });
    await renderDetails(post, {
      routes: {
        [`GET ${postPath(post)}/approvals`]: ok({
          events: [
            {
              id: 'ev_1',
              action: 'submitted',
              reason: null,
              createdAt: '2099-05-01T09:00:00.000Z',
              user: { id: 'usr_cc', displayName: 'Grace Hopper' },
              guest: null,
            },
            {
              id: 'ev_2',
              action: 'rejected',
              reason: 'Wrong hashtag',
              createdAt: '2099-05-01T10:00:00.000Z',
              user: { id: 'usr_smm', displayName: 'Sam Manager' },
              guest: null,
            },
            {
              id: 'ev_3',
              action: 'submitted',
              reason: null,
              createdAt: '2099-05-01T11:00:00.000Z',
              user: null,
              guest: null,
            },
            {
              id: 'ev_4',
              action: 'rejected',
              reason: 'Use the spring photo',
              createdAt: '2099-05-01T12:00:00.000Z',
              user: null,
              guest: { name: 'Dana Client', email: 'dana@client.test' },
            },
          ],
        }),
      },
    });
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('Pending approval')).toBeInTheDocument();
    const history = await within(details).findByRole('list', { name: 'Approval history' });
    const items = within(history).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Submitted for approval by Grace Hopper · /),
      expect.stringMatching(/^Rejected by Sam Manager · .*Reason: Wrong hashtag$/),
      expect.stringMatching(/^Submitted for approval by a former member · /),
      // A client's decision through an approval link names them as the link does.
      expect.stringMatching(
        /^Rejected by Dana Client \(client, dana@client\.test\) · .*Reason: Use the spring photo$/,
      ),
    ]);
    const panel = screen.getByRole('region', { name: 'Publish to Platform' });
    expect(within(panel).queryByRole('button', { name: 'Publish Now' })).not.toBeInTheDocument();
  });
});
