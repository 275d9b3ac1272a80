import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LEAVE_MESSAGE, LEAVE_TITLE } from '../hooks/use-leave-guard';
import { renderComposer, tile } from './create-post.fixtures';

const unload = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('/create-post leaving unsent work', () => {
  it('asks before a navigation leaves typed text, and stays or leaves as answered', async () => {
    const { user, router } = await renderComposer();
    await tile('X');
    await user.type(screen.getByLabelText('Post content'), 'Half a thought');

    act(() => void router.navigate('/content'));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(dialog).toHaveTextContent(LEAVE_MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Stay and keep editing' }));
    expect(router.state.location.pathname).toBe('/create-post');
    expect(screen.getByLabelText('Post content')).toHaveValue('Half a thought');

    act(() => void router.navigate('/content'));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
  });

  it('lets the browser warn on closing the tab only while there is unsent work', async () => {
    const { user } = await renderComposer();
    await tile('X');
    expect(unload()).toBe(false);

    fireEvent.change(screen.getByLabelText('Post content'), { target: { value: 'Draft' } });
    expect(unload()).toBe(true);

    await user.clear(screen.getByLabelText('Post content'));
    expect(unload()).toBe(false);
  });

  it('leaves without asking when nothing was changed', async () => {
    const { router } = await renderComposer();
    await tile('X');
    act(() => void router.navigate('/content'));
    expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
  });
});
