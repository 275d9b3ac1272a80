import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderComposer, tile } from './create-post.fixtures';

describe('/create-post emoji picker', () => {
  it('inserts the picked emoji where the cursor is, and closes on Escape', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    const text = screen.getByLabelText('Post content');
    await user.type(text, 'Open today');
    // The cursor after "Open".
    (text as HTMLTextAreaElement).setSelectionRange(4, 4);

    const toggle = screen.getByRole('button', { name: 'Add emoji' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('group', { name: 'Emoji' });
    expect(within(panel).getByText('Celebration')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'party popper' }));
    expect(text).toHaveValue('Open🎉 today');
    // The X preview follows.
    expect(screen.getByRole('article', { name: 'X preview' })).toHaveTextContent('Open🎉 today');

    // The panel stays open for the next one, which goes after the first.
    await user.click(within(panel).getByRole('button', { name: 'thumbs up' }));
    expect(text).toHaveValue('Open🎉👍 today');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Emoji' })).not.toBeInTheDocument();
  });
});
