import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderComposer, tile } from './create-post.fixtures';

describe('/create-post layout', () => {
  it('puts the preview one tap away at the top on phones, and beside the form on desktop', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    const preview = screen.getByRole('complementary', { name: 'Preview' });
    const toggle = screen.getByRole('button', { name: 'Show preview' });
    // The toggle exists only below the desktop breakpoint; the preview is always shown there.
    expect(toggle).toHaveClass('lg:hidden');
    expect(preview).toHaveClass('hidden', 'lg:block', 'lg:sticky');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Before the form in the phone's order, right under the toggle.
    expect(toggle).toHaveClass('order-1');
    expect(preview).toHaveClass('order-2');

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide preview' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(preview).not.toHaveClass('hidden');
    expect(screen.getByRole('article', { name: 'X preview' })).toBeInTheDocument();
  });
});
