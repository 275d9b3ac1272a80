import type { Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeRequest, type Handler } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { createPost, postsListHandler } from '../testing/post-fixtures';

const LIST = 'GET /organizations/org_1/posts';
const route = (action: string) => `POST /organizations/org_1/posts/bulk/${action}`;
const ZONE = 'Pacific/Auckland';

/** Two scheduled posts on different days, a draft, a published one and one waiting. */
function library(): Post[] {
  return [
    createPost({
      id: 'post_launch',
      title: 'Spring launch',
      status: 'scheduled',
      content: 'Doors open at ten',
      // 12:15 PM on Mar 6 in Auckland.
      scheduledAt: '2030-03-05T23:15:00.000Z',
    }),
    createPost({
      id: 'post_menu',
      title: 'New menu',
      status: 'scheduled',
      content: 'Tasting at six',
      // 6:00 PM on Mar 8 in Auckland.
      scheduledAt: '2030-03-08T05:00:00.000Z',
    }),
    createPost({ id: 'post_idea', title: 'An idea', status: 'draft', content: 'Later' }),
    createPost({
      id: 'post_hours',
      title: 'Holiday hours',
      status: 'published',
      content: 'Closed Monday',
      publishedAt: '2030-03-01T09:00:00.000Z',
    }),
    createPost({
      id: 'post_waiting',
      title: 'Needs a yes',
      status: 'pending_approval',
      content: 'Waiting',
      scheduledAt: '2030-03-09T05:00:00.000Z',
    }),
  ];
}

const changed = (posts: Array<{ id: string; status?: string; scheduledAt?: string | null }>) =>
  ok({
    postIds: posts.map((p) => p.id),
    count: posts.length,
    posts: posts.map((p) => ({
      id: p.id,
      status: p.status ?? 'scheduled',
      scheduledAt: p.scheduledAt ?? '2030-03-12T00:00:00.000Z',
    })),
  });

async function renderLibrary({
  me = createMe({ user: { timezone: ZONE } }),
  routes = {} as Record<string, Handler>,
} = {}) {
  const server = mockServer({
    me,
    routes: {
      [LIST]: postsListHandler(() => library()),
      ...integrationRoutes({ integrations: [] }),
      ...routes,
    },
  });
  const app = renderApp('/content');
  await screen.findByText('Spring launch');
  return { ...app, server };
}

const bodiesOf = (server: ReturnType<typeof mockServer>, action: string) =>
  server.requests
    .filter((r: FakeRequest) => `${r.method} ${r.path}` === route(action))
    .map((r) => r.body);

async function choose(user: ReturnType<typeof renderApp>['user'], ...titles: string[]) {
  for (const title of titles) {
    await user.click(screen.getByRole('checkbox', { name: `Select ${title}` }));
  }
  return screen.getByRole('toolbar', { name: 'Selected posts' });
}

describe('bulk reschedule', () => {
  it('moves the chosen posts to a day in the member’s zone, each keeping its time, and Undo puts them back on their days', async () => {
    const { user, server } = await renderLibrary({
      routes: {
        [route('reschedule')]: () =>
          changed([
            { id: 'post_launch', scheduledAt: '2030-03-11T23:15:00.000Z' },
            { id: 'post_menu', scheduledAt: '2030-03-12T05:00:00.000Z' },
          ]),
      },
    });
    const bar = await choose(user, 'Spring launch', 'New menu');
    await user.click(within(bar).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule 2 posts' });
    expect(dialog).toHaveTextContent('Each post keeps its own time of day.');
    expect(within(dialog).getByText(`Times in ${ZONE}`)).toBeInTheDocument();

    const day = within(dialog).getByLabelText('Day');
    await user.clear(day);
    await user.type(day, '2030-03-12');
    // The preview: each post on the 12th at its own time, in Auckland.
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('Spring launchMar 6, 2030 12:15 PM → Mar 12, 2030 12:15 PM');
    expect(preview).toHaveTextContent('New menuMar 8, 2030 6:00 PM → Mar 12, 2030 6:00 PM');

    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(await screen.findByText('2 posts moved to Tuesday, March 12.')).toBeInTheDocument();
    expect(bodiesOf(server, 'reschedule')).toEqual([
      { postIds: ['post_launch', 'post_menu'], date: '2030-03-12', timeZone: ZONE },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('toolbar', { name: 'Selected posts' })).not.toBeInTheDocument();

    // Undo: each post back to the day it had (its time of day comes back with it).
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone.')).toBeInTheDocument();
    expect(bodiesOf(server, 'reschedule').slice(1)).toEqual([
      { postIds: ['post_launch'], date: '2030-03-06', timeZone: ZONE },
      { postIds: ['post_menu'], date: '2030-03-08', timeZone: ZONE },
    ]);
  });

  it('shifts by a number of days, and keeps the dialog open with the server’s sentence when refused', async () => {
    const { user, server } = await renderLibrary({
      routes: {
        [route('reschedule')]: () =>
          fail(
            409,
            'CONFLICT',
            "'New menu' is being published right now and cannot be rescheduled. Nothing was changed: unselect them and try again.",
          ),
      },
    });
    const bar = await choose(user, 'Spring launch', 'New menu');
    await user.click(within(bar).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule 2 posts' });
    await user.click(within(dialog).getByRole('radio', { name: /Shift by days/ }));
    const days = within(dialog).getByLabelText('Days');
    await user.clear(days);
    await user.type(days, '0');
    expect(
      within(dialog).getByText(/Enter a whole number of days other than 0/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Reschedule' })).toBeDisabled();
    await user.clear(days);
    await user.type(days, '-2');
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));

    expect(
      await within(dialog).findByText(/'New menu' is being published right now/),
    ).toBeInTheDocument();
    expect(bodiesOf(server, 'reschedule')).toEqual([
      { postIds: ['post_launch', 'post_menu'], shiftDays: -2, timeZone: ZONE },
    ]);
    expect(screen.getByRole('dialog', { name: 'Reschedule 2 posts' })).toBeInTheDocument();
    expect(screen.getByText('2 posts selected')).toBeInTheDocument();
  });

  it('says why it is off for a selection with a draft or a published post, and sends nothing', async () => {
    const { user, server } = await renderLibrary();
    const bar = await choose(user, 'Spring launch', 'An idea', 'Holiday hours');
    const button = within(bar).getByRole('button', { name: 'Reschedule' });
    const reason =
      'Only posts with a time (scheduled, waiting for approval or failed) can be rescheduled: unselect 1 draft and 1 published post.';
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(reason);
    await user.click(button);
    // Pressed, it says why in a toast too.
    await waitFor(() => expect(screen.getAllByText(reason)).toHaveLength(2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.count(route('reschedule'))).toBe(0);
    // Add to queue takes the draft but not the published post.
    expect(within(bar).getByRole('button', { name: 'Add to queue' })).toHaveAccessibleDescription(
      'Posts already published or being published cannot be added to the queue: unselect 1 published post.',
    );
    // Duplicate takes anything.
    expect(within(bar).getByRole('button', { name: 'Duplicate' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });
});

describe('bulk add to queue and duplicate', () => {
  it('queues drafts in the order shown, says when the first goes out, and Undo takes them back to drafts', async () => {
    const { user, server } = await renderLibrary({
      routes: {
        [route('queue')]: () =>
          changed([
            { id: 'post_launch', scheduledAt: '2030-03-10T20:00:00.000Z' },
            { id: 'post_idea', scheduledAt: '2030-03-09T20:00:00.000Z' },
          ]),
        [route('draft')]: () => ok({ postIds: ['post_launch', 'post_idea'], count: 2 }),
      },
    });
    const bar = await choose(user, 'An idea', 'Spring launch');
    await user.click(within(bar).getByRole('button', { name: 'Add to queue' }));
    expect(
      await screen.findByText(
        '2 posts added to the queue. The first goes out Mar 10, 2030 9:00 AM.',
      ),
    ).toBeInTheDocument();
    expect(bodiesOf(server, 'queue')).toEqual([{ postIds: ['post_launch', 'post_idea'] }]);
    // A scheduled post was among them: its old time cannot be given back, so no Undo.
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('offers Undo after queueing drafts only, which moves them back to draft', async () => {
    const { user, server } = await renderLibrary({
      routes: {
        [route('queue')]: () =>
          changed([
            {
              id: 'post_idea',
              status: 'pending_approval',
              scheduledAt: '2030-03-09T20:00:00.000Z',
            },
          ]),
        [route('draft')]: () => ok({ postIds: ['post_idea'], count: 1 }),
      },
    });
    const bar = await choose(user, 'An idea');
    await user.click(within(bar).getByRole('button', { name: 'Add to queue' }));
    expect(
      await screen.findByText(
        '1 post added to the queue. The first goes out Mar 10, 2030 9:00 AM. It waits for approval.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone.')).toBeInTheDocument();
    expect(bodiesOf(server, 'draft')).toEqual([{ postIds: ['post_idea'] }]);
  });

  it('duplicates the chosen posts, and Undo deletes the copies', async () => {
    const { user, server } = await renderLibrary({
      routes: {
        [route('duplicate')]: () =>
          ok({ postIds: ['post_hours', 'post_idea'], count: 2, copyIds: ['copy_1', 'copy_2'] }),
        [route('delete')]: () => ok({ postIds: ['copy_1', 'copy_2'], count: 2 }),
      },
    });
    const bar = await choose(user, 'Holiday hours', 'An idea');
    await user.click(within(bar).getByRole('button', { name: 'Duplicate' }));
    expect(await screen.findByText('2 copies made as drafts.')).toBeInTheDocument();
    expect(bodiesOf(server, 'duplicate')).toEqual([{ postIds: ['post_idea', 'post_hours'] }]);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone.')).toBeInTheDocument();
    expect(bodiesOf(server, 'delete')).toEqual([{ postIds: ['copy_1', 'copy_2'] }]);
  });
});

describe('bulk approve and reject', () => {
  it('offers them to approvers once a waiting post is chosen, and asks before publishing late ones now', async () => {
    let answers = 0;
    const { user, server } = await renderLibrary({
      routes: {
        [route('approve')]: () =>
          answers++ === 0
            ? {
                status: 409,
                body: {
                  status: 'error',
                  code: 'CONFLICT',
                  message:
                    "The time of 'Needs a yes' has passed. Approve it to publish it now, or edit its time first. Nothing was changed.",
                  details: { timePassed: true, postIds: ['post_waiting'] },
                },
              }
            : changed([{ id: 'post_waiting' }]),
      },
    });
    const bar = await choose(user, 'Spring launch');
    expect(within(bar).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Needs a yes' }));
    // A scheduled post is not waiting: Approve is off and says so.
    expect(within(bar).getByRole('button', { name: 'Approve' })).toHaveAccessibleDescription(
      'Only posts waiting for approval can be approved: unselect 1 scheduled post.',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Select Spring launch' }));
    await user.click(within(bar).getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('dialog', { name: 'Approve 1 post?' });
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));

    const late = await screen.findByRole('dialog', { name: 'Publish the late ones now?' });
    expect(late).toHaveTextContent("The time of 'Needs a yes' has passed.");
    await user.click(within(late).getByRole('button', { name: 'Approve and publish now' }));
    expect(await screen.findByText('1 post approved and scheduled.')).toBeInTheDocument();
    expect(bodiesOf(server, 'approve')).toEqual([
      { postIds: ['post_waiting'] },
      { postIds: ['post_waiting'], publishNow: true },
    ]);
  });

  it('rejects with an optional comment', async () => {
    const { user, server } = await renderLibrary({
      routes: {
        [route('reject')]: () =>
          changed([{ id: 'post_waiting', status: 'draft', scheduledAt: null }]),
      },
    });
    const bar = await choose(user, 'Needs a yes');
    await user.click(within(bar).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject 1 post?' });
    expect(dialog).toHaveTextContent('It goes back to drafts and its author is told');
    await user.type(within(dialog).getByLabelText('Comment (optional)'), '  Not this week. ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(
      await screen.findByText('1 post rejected and back in drafts. Its author has been told.'),
    ).toBeInTheDocument();
    expect(bodiesOf(server, 'reject')).toEqual([
      { postIds: ['post_waiting'], reason: 'Not this week.' },
    ]);
  });

  it('hides what the role does not allow: no Approve, Reject or Delete for a content creator', async () => {
    const { user } = await renderLibrary({
      me: createMe({ user: { timezone: ZONE }, permissions: ['post:create', 'post:edit'] }),
    });
    const bar = await choose(user, 'Needs a yes');
    expect(
      within(bar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Clear', 'Reschedule', 'Add to queue', 'Duplicate', 'Move to draft']);
  });
});
