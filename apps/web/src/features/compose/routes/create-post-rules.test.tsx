import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { account, createButton, renderComposer, tile } from './create-post.fixtures';

const sharedText = () => screen.getByLabelText('Post content');
/** What the composer says on an account's tile about the network refusing the post. */
const refusalsOn = (label: string) =>
  screen.queryByRole('list', { name: `${label} would refuse this post` });

describe("/create-post says on each account's tile what its network would refuse", () => {
  it('X: two cashtags; Threads: six links; each on its own account, and nothing can be sent', async () => {
    const { user } = await renderComposer({
      integrations: [
        account('X', { name: 'Acme', username: 'acme' }),
        account('Threads', { name: 'Acme Threads', username: 'acme.threads' }),
      ],
    });
    await user.click(await tile('X'));
    await user.click(await tile('Threads'));
    await user.click(sharedText());
    await user.paste('$TSLA and $AAPL today');

    const onX = refusalsOn('X');
    expect(onX).not.toBeNull();
    expect(
      within(onX!).getByText(
        'X takes one cashtag per post from apps like Herald; this post has 2 ($TSLA, $AAPL). Keep one in the X version of this post.',
      ),
    ).toBeInTheDocument();
    expect(refusalsOn('Threads')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'X' })).toHaveAttribute('aria-invalid', 'true');
    expect(createButton()).toBeDisabled();

    await user.clear(sharedText());
    await user.paste(Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' '));
    expect(refusalsOn('X')).toBeNull();
    expect(
      within(refusalsOn('Threads')!).getByText(/^Threads refuses a post with more than 5 links/),
    ).toBeInTheDocument();
    expect(createButton()).toBeDisabled();

    // Deselecting the account its network refuses leaves a post that can go.
    await user.click(await tile('Threads'));
    expect(refusalsOn('Threads')).toBeNull();
    expect(createButton()).toBeEnabled();
  });
});
