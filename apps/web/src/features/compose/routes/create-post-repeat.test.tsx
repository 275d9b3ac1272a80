import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type FakeRequest } from '@/testing/fake-server';
import {
  CREATE_ROUTE,
  createButton,
  created,
  createdPost,
  renderComposer,
  tile,
} from './create-post.fixtures';

const repeatPuts = (requests: FakeRequest[]) =>
  requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/repeat'));

describe('/create-post Repeat', () => {
  it('sets the saved post to repeat every N weeks until the end of the chosen day', async () => {
    const post = createdPost({ id: 'post_repeat' });
    const { user, server } = await renderComposer({
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: {
        [CREATE_ROUTE]: created(post),
        'PUT /organizations/org_1/posts/post_repeat/repeat': ({ body }: FakeRequest) =>
          ok({
            repeat: {
              id: 'rep_1',
              postId: 'post_repeat',
              ...(body as object),
              occurrences: 1,
              nextAt: null,
            },
          }),
      },
    });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Post content'), 'Weekly tip');
    await user.click(
      screen.getByRole('checkbox', { name: 'Post this again at a regular interval' }),
    );
    const every = screen.getByLabelText('Every');
    await user.clear(every);
    await user.type(every, '2');
    await user.selectOptions(screen.getByLabelText('Unit'), 'week');

    // Without an end date nothing is sent, and the section says why.
    await user.click(createButton());
    expect(await screen.findByText('Choose the date the repeats end.')).toBeInTheDocument();
    expect(server.requests.filter((r) => `${r.method} ${r.path}` === CREATE_ROUTE)).toEqual([]);

    await user.type(screen.getByLabelText('Until'), '2099-06-30');
    await user.click(createButton());
    await waitFor(() => expect(repeatPuts(server.requests)).toHaveLength(1));
    // The end of June 30 in the user's zone (Europe/London, on summer time).
    expect(repeatPuts(server.requests)[0]!.body).toEqual({
      every: 2,
      unit: 'week',
      until: '2099-06-30T22:59:00.000Z',
    });
  });

  it('sends no repeat when the option stays off', async () => {
    const { user, server } = await renderComposer({
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: { [CREATE_ROUTE]: created() },
    });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Post content'), 'Once');
    await user.click(createButton());
    await waitFor(() =>
      expect(server.requests.filter((r) => `${r.method} ${r.path}` === CREATE_ROUTE)).toHaveLength(
        1,
      ),
    );
    expect(repeatPuts(server.requests)).toEqual([]);
  });
});
