import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FakeRequest } from '@/testing/fake-server';
import { CREATE_ROUTE, created, renderComposer, tile } from './create-post.fixtures';

const createRequests = (requests: FakeRequest[]) =>
  requests.filter((r) => `${r.method} ${r.path}` === CREATE_ROUTE);
const mainButton = () =>
  screen.getByRole('button', { name: /^(Save draft|Schedule|Publish now)$/ });

describe('/create-post main button', () => {
  it('says what pressing it does as the action changes', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    expect(mainButton()).toHaveTextContent('Save draft');

    fireEvent.change(screen.getByLabelText('Publish Date & Time'), {
      target: { value: '2099-06-01T10:15' },
    });
    expect(mainButton()).toHaveTextContent('Schedule');

    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    expect(mainButton()).toHaveTextContent('Publish now');
    expect(mainButton()).toHaveAttribute('aria-keyshortcuts', 'Control+Enter Meta+Enter');
  });

  it('schedules with Ctrl+Enter or Cmd+Enter from the text', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await user.click(await tile('X'));
    fireEvent.change(screen.getByLabelText('Publish Date & Time'), {
      target: { value: '2099-06-01T10:15' },
    });
    const text = screen.getByLabelText('Post content');
    await user.type(text, 'Keyboard first');
    // Enter alone is a new line, not a submit.
    fireEvent.keyDown(text, { key: 'Enter' });
    expect(createRequests(server.requests)).toHaveLength(0);

    fireEvent.keyDown(text, { key: 'Enter', metaKey: true });
    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const body = createRequests(server.requests)[0]?.body as FormData;
    expect(body.get('action')).toBe('schedule');
  });

  it('asks before publishing now, even from the keyboard', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Post content'), 'Right away');
    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    fireEvent.keyDown(screen.getByLabelText('Post content'), { key: 'Enter', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Publish now?' });
    expect(within(dialog).getByRole('button', { name: 'Publish now' })).toBeInTheDocument();
    expect(createRequests(server.requests)).toHaveLength(0);
  });
});
