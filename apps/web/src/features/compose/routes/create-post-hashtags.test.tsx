import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HashtagGroup } from '@herald/contract';
import { fail, ok, type FakeRequest } from '@/testing/fake-server';
import { renderComposer, tile } from './create-post.fixtures';

const GROUPS = '/organizations/org_1/hashtag-groups';
const spring: HashtagGroup = {
  id: '11111111-0000-4000-8000-000000000001',
  name: 'Spring launch',
  hashtags: ['#spring', '#launch'],
  updatedAt: '2026-03-01T10:00:00.000Z',
};

describe('/create-post hashtag groups', () => {
  it('inserts a saved group at the cursor, saves a new one and deletes one', async () => {
    let groups: HashtagGroup[] = [spring];
    const { user, server } = await renderComposer({
      routes: {
        [`GET ${GROUPS}`]: () => ok({ groups }),
        [`POST ${GROUPS}`]: (request: FakeRequest) => {
          const body = request.body as { name: string; hashtags: string[] };
          const group = { ...spring, id: '11111111-0000-4000-8000-000000000002', ...body };
          groups = [...groups, group];
          return { status: 201, body: { status: 'success', data: { group } } };
        },
        [`DELETE ${GROUPS}/${spring.id}`]: () => {
          groups = groups.filter((g) => g.id !== spring.id);
          return ok(null);
        },
      },
    });
    await user.click(await tile('X'));
    const text = screen.getByLabelText('Post content');
    await user.type(text, 'Doors open');

    await user.click(screen.getByRole('button', { name: 'Add hashtag group' }));
    const panel = screen.getByRole('group', { name: 'Hashtag groups' });
    await user.click(await within(panel).findByRole('button', { name: 'Insert Spring launch' }));
    expect(text).toHaveValue('Doors open #spring #launch');

    await user.type(within(panel).getByLabelText('Group name'), 'Cafe');
    await user.type(within(panel).getByLabelText('Hashtags'), '#coffee, brunch');
    await user.click(within(panel).getByRole('button', { name: 'Save group' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.method === 'POST' && r.path === GROUPS)?.body).toEqual({
        name: 'Cafe',
        hashtags: ['#coffee', 'brunch'],
      }),
    );
    expect(await within(panel).findByRole('button', { name: 'Insert Cafe' })).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Delete Spring launch' }));
    await waitFor(() =>
      expect(
        within(panel).queryByRole('button', { name: 'Insert Spring launch' }),
      ).not.toBeInTheDocument(),
    );
    // Nothing here submitted the post.
    expect(server.requests.some((r) => r.path === '/organizations/org_1/post')).toBe(false);
  });

  it('edits a saved group in place: its name and hashtags fill the form, Cancel leaves it as it was', async () => {
    let groups: HashtagGroup[] = [spring];
    const { user, server } = await renderComposer({
      routes: {
        [`GET ${GROUPS}`]: () => ok({ groups }),
        [`PUT ${GROUPS}/${spring.id}`]: (request: FakeRequest) => {
          const group = { ...spring, ...(request.body as object) };
          groups = [group];
          return ok({ group });
        },
      },
    });
    await user.click(await tile('X'));
    await user.click(screen.getByRole('button', { name: 'Add hashtag group' }));
    const panel = screen.getByRole('group', { name: 'Hashtag groups' });

    await user.click(await within(panel).findByRole('button', { name: 'Edit Spring launch' }));
    expect(within(panel).getByText('Edit Spring launch')).toBeInTheDocument();
    expect(within(panel).getByLabelText('Hashtags')).toHaveValue('#spring #launch');
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).getByText('New group')).toBeInTheDocument();
    expect(within(panel).getByLabelText('Group name')).toHaveValue('');

    await user.click(within(panel).getByRole('button', { name: 'Edit Spring launch' }));
    const name = within(panel).getByLabelText('Group name');
    await user.clear(name);
    await user.type(name, 'Spring menu');
    await user.type(within(panel).getByLabelText('Hashtags'), ' #menu');
    await user.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
        name: 'Spring menu',
        hashtags: ['#spring', '#launch', '#menu'],
      }),
    );
    expect(
      await within(panel).findByRole('button', { name: 'Insert Spring menu' }),
    ).toBeInTheDocument();
    expect(within(panel).getByText('New group')).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it("shows the server's refusal of a group as an error in the panel", async () => {
    const { user } = await renderComposer({
      routes: {
        [`GET ${GROUPS}`]: ok({ groups: [] }),
        [`POST ${GROUPS}`]: fail(
          400,
          'VALIDATION_FAILED',
          'Add at least one hashtag to the group.',
        ),
      },
    });
    await user.click(await tile('X'));
    await user.click(screen.getByRole('button', { name: 'Add hashtag group' }));
    const panel = screen.getByRole('group', { name: 'Hashtag groups' });
    expect(await within(panel).findByText(/No hashtag groups yet/)).toBeInTheDocument();
    await user.type(within(panel).getByLabelText('Group name'), 'Empty');
    await user.click(within(panel).getByRole('button', { name: 'Save group' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Add at least one hashtag to the group.',
    );
  });
});
