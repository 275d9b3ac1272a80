import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { account, createButton, renderComposer, tile } from './create-post.fixtures';

const sharedText = () => screen.getByLabelText('Post content');
const counter = (label: string) =>
  within(screen.getByRole('list', { name: 'Characters per platform' })).getByRole('listitem', {
    name: `${label} characters`,
  });

describe("/create-post an account's own text limit", () => {
  it('counts an X Premium account to 25,000 and a normal X account to 280, each in its own tile', async () => {
    const { user } = await renderComposer({
      integrations: [
        account('X', { name: 'Long Form', username: 'long_form' }, { textLimit: 25_000 }),
        account('X', { name: 'Short Form', username: 'short_form' }),
      ],
    });
    await user.click(await tile('X (Long Form)'));
    await user.click(await tile('X (Short Form)'));
    await user.click(sharedText());
    await user.paste('a'.repeat(1_000));

    const long = within(counter('X (Long Form)')).getByText('1000/25000');
    expect(long).not.toHaveAttribute('data-over');
    expect(within(counter('X (Short Form)')).getByText(/1000\/280/)).toHaveAttribute(
      'data-over',
      'true',
    );
    // Under the text, and on the Short Form account's tile.
    expect(
      screen.getAllByText('The text is too long for X (Short Form): 1000 of 280 characters.'),
    ).toHaveLength(2);
    expect(screen.queryByText(/too long for X \(Long Form\)/)).toBeNull();

    // The previews cut at each account's own limit.
    const longPreview = screen.getByRole('article', { name: 'X (Long Form) preview' });
    const shortPreview = screen.getByRole('article', { name: 'X (Short Form) preview' });
    expect(within(longPreview).queryByTestId('text-overflow')).toBeNull();
    expect(within(shortPreview).getByTestId('text-overflow')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();

    // Only the Premium account left: the long text can go.
    await user.click(await tile('X (Short Form)'));
    expect(createButton()).toBeEnabled();
  });
});
