import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { account, renderComposer, tile } from './create-post.fixtures';

/** docs/product.md#x-cost: what X charges for the post, per selected X account, as it is written. */
const region = () => screen.getByRole('region', { name: 'What X charges' });

describe('/create-post: X’s cost of the post', () => {
  it('says what X charges for each X account and follows the text, its parts and first comment', async () => {
    const main = account('X', { name: 'Acme', username: 'acme' });
    const second = account('X', { name: 'Acme Support', username: 'acmehelp' });
    const facebook = account('Facebook', { name: 'Acme Page', username: null });
    const { user } = await renderComposer({
      integrations: [main, second, facebook],
      path: '/create-post?date=2099-05-10&time=14:30',
    });
    await user.click(await tile('Facebook'));
    // No X account chosen: nothing about X's prices.
    expect(screen.queryByRole('region', { name: 'What X charges' })).toBeNull();

    await user.click(await tile('X (Acme)'));
    await user.type(screen.getByLabelText('Post content'), 'Opening night');
    expect(region()).toHaveTextContent('X charges about $0.015 for this post ($0.20 with a link).');

    await user.type(screen.getByLabelText('Post content'), ' tickets at example.com/tickets');
    expect(region()).toHaveTextContent(
      'X charges about $0.20 for this post because it has a link ($0.015 without).',
    );

    await user.click(await tile('X (Acme Support)'));
    expect(within(region()).getAllByText(/X charges about \$0\.20 for this post/)).toHaveLength(2);

    // A thread's parts and a first comment are posts X charges for too.
    const section = screen.getByRole('region', { name: 'Thread and first comment' });
    await user.click(within(section).getByRole('button', { name: 'Thread and first comment' }));
    const onMain = within(section).getByRole('group', { name: 'X (Acme)' });
    await user.click(within(onMain).getByRole('button', { name: 'Add part 2' }));
    await user.type(within(onMain).getByLabelText('Part 2 of 2'), 'Doors at seven');
    await user.type(within(onMain).getByLabelText('First comment (optional)'), 'See you there');
    expect(region()).toHaveTextContent(
      'X (Acme): X charges about $0.23 for these 3 posts (1 with a link at $0.20, 2 at $0.015).',
    );
    expect(region()).toHaveTextContent(
      'X (Acme Support): X charges about $0.20 for this post because it has a link',
    );
  }, 60_000);
});
