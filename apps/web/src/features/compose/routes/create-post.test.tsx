import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import {
  account,
  createButton,
  idOf,
  MAIN_BUTTON,
  renderComposer,
  tile,
} from './create-post.fixtures';

const sharedText = () => screen.getByLabelText('Post content');
const counter = (platform: string) =>
  within(screen.getByRole('list', { name: 'Characters per platform' })).getByRole('listitem', {
    name: `${platform} characters`,
  });

describe('/create-post platforms and access', () => {
  it('shows one tile per connected account, and two accounts of a network are chosen together', async () => {
    const { user } = await renderComposer({
      integrations: [
        account('X', { name: 'Acme', username: 'acme' }),
        account('X', { name: 'Acme Two', username: 'acme_two' }),
        account('Facebook', { name: 'Acme Page', username: null }),
        account('Threads', {}, { status: 'REFRESH_FAILED' }),
      ],
    });

    const platforms = await screen.findByRole('group', { name: 'Platforms' });
    const tiles = within(platforms).getAllByRole('checkbox');
    expect(tiles.map((t) => t.getAttribute('aria-label'))).toEqual([
      'X (Acme)',
      'X (Acme Two)',
      'Facebook',
    ]);
    expect(await tile('X (Acme)')).toHaveAccessibleDescription('@acme · X');
    expect(await tile('X (Acme Two)')).toHaveAccessibleDescription('@acme_two · X');
    expect(await tile('Facebook')).toHaveAccessibleDescription('Facebook');
    expect(within(platforms).getByText('Acme Page')).toBeVisible();

    await user.click(await tile('X (Acme)'));
    await user.click(await tile('X (Acme Two)'));
    expect(await tile('X (Acme)')).toBeChecked();
    expect(await tile('X (Acme Two)')).toBeChecked();
    // One preview per chosen account, each in that account's name.
    const first = screen.getByRole('article', { name: 'X (Acme) preview' });
    const second = screen.getByRole('article', { name: 'X (Acme Two) preview' });
    expect(within(first).getByText('@acme')).toBeInTheDocument();
    expect(within(second).getByText('@acme_two')).toBeInTheDocument();
    expect(within(second).queryByText('@acme')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Customize per Account' })).toBeInTheDocument();
  });

  it('cuts a long account name short beside the check, with the full name as a tooltip', async () => {
    const long = 'The Extremely Long Named Community Bakery And Coffee House Page';
    const { user } = await renderComposer({
      integrations: [account('Facebook', { name: long, username: null })],
    });

    const facebook = await tile('Facebook');
    await user.click(facebook);
    const label = facebook.closest('label') as HTMLElement;
    const line = within(label).getByText(long);
    expect(line).toHaveClass('truncate');
    expect(line).toHaveAttribute('title', long);
    // The check is its own column that does not shrink; the names take the rest and no more.
    const check = label.lastElementChild as HTMLElement;
    expect(check).toHaveAttribute('aria-hidden', 'true');
    expect(check).toHaveClass('shrink-0');
    expect(check.previousElementSibling).toHaveClass('min-w-0', 'flex-1');
    expect(check.previousElementSibling).toContainElement(line);
  });

  it('says so when no platform is connected, and Create Post stays disabled', async () => {
    await renderComposer({ integrations: [] });

    expect(
      await screen.findByText(/No connected platforms found\. Please connect them in settings\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    expect(createButton()).toBeDisabled();
  });

  it('shows members without "Create Posts" a message instead of the form', async () => {
    await renderComposer({ me: createMe({ permissions: ['dm:view', 'dm:send'] }) });

    expect(
      await screen.findByText(/You do not have permission to create posts/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Create Social Post' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MAIN_BUTTON })).not.toBeInTheDocument();
  });
});

describe('/create-post Create Post button', () => {
  it('is disabled without a platform, over a text limit, while media rules fail, and for a past time', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    expect(createButton()).toBeEnabled();

    await user.click(await tile('X'));
    expect(createButton()).toBeDisabled();
    expect(screen.getByText('Select at least one account to post to.')).toBeInTheDocument();

    await user.click(await tile('X'));
    await user.click(sharedText());
    await user.paste('a'.repeat(281));
    expect(within(counter('X')).getByText(/281\/280/)).toHaveAttribute('data-over', 'true');
    // Under the text, and on the X account's tile.
    expect(screen.getAllByText('The text is too long for X: 281 of 280 characters.')).toHaveLength(
      2,
    );
    expect(createButton()).toBeDisabled();

    await user.clear(sharedText());
    await user.type(sharedText(), 'Hello');
    expect(createButton()).toBeEnabled();

    // Instagram takes no post without an image or video.
    await user.click(await tile('Instagram'));
    expect(
      screen.getByText('Instagram: Instagram needs at least one image or video.'),
    ).toBeVisible();
    expect(createButton()).toBeDisabled();
    await user.click(await tile('Instagram'));
    expect(createButton()).toBeEnabled();

    await user.click(screen.getByRole('radio', { name: 'Schedule' }));
    expect(screen.getByText('Choose the date and time to publish this post.')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Publish Date & Time'), {
      target: { value: '2020-01-01T09:00' },
    });
    expect(
      screen.getByText(
        'This time is in the past. Choose a later date and time to schedule the post.',
      ),
    ).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Publish Date & Time'), {
      target: { value: '2099-01-01T09:00' },
    });
    expect(createButton()).toBeEnabled();
  });

  it('asks for text or media when the shared post is empty', async () => {
    const { user, server } = await renderComposer();
    await user.click(await tile('X'));
    await user.click(createButton());

    expect(
      screen.getByText('Write the text of the post or add an image or video.'),
    ).toBeInTheDocument();
    expect(sharedText()).toHaveFocus();
    expect(server.count('POST /organizations/org_1/post')).toBe(0);
  });

  it('in Customize per Platform, requires a text for every selected platform', async () => {
    const { user, server } = await renderComposer();
    await user.click(await tile('X'));
    await user.click(await tile('Facebook'));
    await user.type(sharedText(), 'Launch day');
    await user.click(screen.getByRole('tab', { name: 'Customize per Platform' }));

    // Each platform starts from the shared text.
    expect(screen.getByLabelText('X content')).toHaveValue('Launch day');
    await user.clear(screen.getByLabelText('Facebook content'));
    await user.click(createButton());

    expect(
      screen.getByText(`Content for platform ID ${idOf('Facebook')} is required`),
    ).toBeVisible();
    expect(screen.queryByText(`Content for platform ID ${idOf('X')} is required`)).toBeNull();
    expect(screen.getByLabelText('Facebook content')).toHaveFocus();
    expect(server.count('POST /organizations/org_1/post')).toBe(0);

    await user.type(screen.getByLabelText('Facebook content'), 'On Facebook');
    expect(
      screen.queryByText(`Content for platform ID ${idOf('Facebook')} is required`),
    ).toBeNull();
  });
});

describe('/create-post counters and previews', () => {
  it('counts a link as 23 characters for X, and code points elsewhere', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    await user.click(await tile('Facebook'));
    const link = 'https://example.com/a/very/long/path/that/goes/on/and/on';
    await user.click(sharedText());
    await user.paste(link);

    expect(within(counter('X')).getByText('23/280')).toBeInTheDocument();
    expect(within(counter('Facebook')).getByText(`${link.length}/63206`)).toBeInTheDocument();
  });

  it('shows each network its own preview: X overflow highlighted, Instagram folded at 125', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    await user.click(await tile('Instagram'));
    await user.click(sharedText());
    await user.paste(`${'word '.repeat(56)}TAIL`);

    const x = screen.getByRole('article', { name: 'X preview' });
    expect(within(x).getByText('Acme')).toBeInTheDocument();
    expect(within(x).getByText('@acme')).toBeInTheDocument();
    expect(within(x).getByTestId('text-overflow')).toHaveTextContent(/TAIL$/);

    const instagram = screen.getByRole('article', { name: 'Instagram preview' });
    expect(within(instagram).getByText('Instagram posts need an image or video.')).toBeVisible();
    expect(within(instagram).queryByText(/TAIL/)).toBeNull();
    await user.click(within(instagram).getByRole('button', { name: 'more' }));
    expect(within(instagram).getByText(/TAIL/)).toBeInTheDocument();
  });
});

describe('/create-post schedule from the calendar', () => {
  it('preselects the linked day at 09:00 and chooses Schedule', async () => {
    await renderComposer({ path: '/create-post?date=2099-05-10' });
    await tile('X');

    expect(screen.getByLabelText('Publish Date & Time')).toHaveValue('2099-05-10T09:00');
    expect(screen.getByRole('radio', { name: 'Schedule' })).toBeChecked();
  });

  it('keeps the linked time when there is one', async () => {
    await renderComposer({ path: '/create-post?date=2099-05-10&time=14:30' });
    await tile('X');

    expect(screen.getByLabelText('Publish Date & Time')).toHaveValue('2099-05-10T14:30');
  });

  it('ignores a date that does not exist', async () => {
    await renderComposer({ path: '/create-post?date=2099-02-30' });
    await tile('X');

    expect(screen.getByLabelText('Publish Date & Time')).toHaveValue('');
    expect(screen.getByRole('radio', { name: 'Save as draft' })).toBeChecked();
  });
});
