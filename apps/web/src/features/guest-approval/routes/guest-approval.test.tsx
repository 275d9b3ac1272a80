import type { GuestApproval, GuestPost } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { COMMENT_NEEDED } from '../components/decision-form';
import {
  ALL_DECIDED,
  LINK_EXPIRED_TITLE,
  LINK_REVOKED_TITLE,
  LINK_UNKNOWN_TITLE,
} from './guest-approval';

/** docs/product.md#client-approval-links: the client's page, without an account. */
const TOKEN = 'T'.repeat(43);
const PAGE = `GET /guest/approvals/${TOKEN}`;
const DECIDE = `POST /guest/approvals/${TOKEN}/decisions`;
const MEDIA_URL = `/api/guest/approvals/${TOKEN}/media/med_1`;

function waitingPost(overrides: Partial<GuestPost> = {}): GuestPost {
  return {
    id: 'post_1',
    label: 'Spring menu launch',
    state: 'waiting',
    unavailableReason: null,
    comment: null,
    decidedAt: null,
    scheduledAt: '2099-04-02T09:00:00.000Z',
    accounts: [
      {
        network: 'X',
        accountName: 'Harbor Cafe',
        username: 'harborcafe',
        pictureUrl: null,
        text: 'Our spring menu is here https://harbor.example/menu?utm_source=x',
        media: [],
        parts: ['Part two: the soups', 'Part three: the desserts'],
        firstComment: 'Book a table on our site',
      },
      {
        network: 'Instagram',
        accountName: 'Harbor Cafe',
        username: 'harbor.cafe',
        pictureUrl: null,
        text: 'Spring is on the menu',
        media: [
          {
            id: 'med_1',
            kind: 'image',
            url: MEDIA_URL,
            thumbnailUrl: `${MEDIA_URL}/thumbnail`,
            fileName: 'menu.jpg',
            altText: 'A bowl of pea soup',
          },
        ],
        parts: [],
        firstComment: null,
      },
    ],
    ...overrides,
  };
}

function page(posts: GuestPost[], overrides: Partial<GuestApproval> = {}): GuestApproval {
  return {
    organization: { name: 'Harbor Agency', branding: { logoUrl: null, color: null } },
    approverName: 'Dana',
    message: 'Our launch posts for next week.',
    sentBy: 'Sam Manager',
    expiresAt: '2099-04-01T09:00:00.000Z',
    posts,
    ...overrides,
  };
}

function renderGuest(routes: Record<string, FakeReply | Handler>) {
  const server = mockServer({ me: null, routes });
  const app = renderApp(`/approve/${TOKEN}`);
  return { ...app, server };
}

const decided = (
  post: GuestPost,
  state: 'approved' | 'changes_requested',
  comment: string | null,
) =>
  ok({
    post: { ...post, state, comment, decidedAt: '2099-03-30T10:00:00.000Z', accounts: [] },
  });

describe('/approve/{token}', () => {
  it('shows the organization and each account’s post as it will go out, with what follows it', async () => {
    const { server } = renderGuest({ [PAGE]: ok(page([waitingPost()])) });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Please review this post' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Harbor Agency')).toBeInTheDocument();
    expect(screen.getByText(/Hello Dana, Sam Manager asks you to approve it/)).toBeInTheDocument();
    expect(screen.getByText('Our launch posts for next week.')).toBeInTheDocument();

    const post = screen.getByRole('listitem', { name: 'Spring menu launch' });
    const x = within(post).getByRole('article', { name: 'X · Harbor Cafe preview' });
    expect(x).toHaveTextContent('Our spring menu is here https://harbor.example/menu?utm_source=x');
    expect(x).toHaveTextContent('@harborcafe');
    const follows = within(x).getByRole('list', { name: 'What follows the post on X' });
    expect(
      within(follows)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Part 2 of 3, replying to part 1Part two: the soups',
      'Part 3 of 3, replying to part 2Part three: the desserts',
      'First commentBook a table on our site',
    ]);
    const instagram = within(post).getByRole('article', {
      name: 'Instagram · Harbor Cafe preview',
    });
    // The file comes through the link, with the description the network will get.
    expect(within(instagram).getByRole('img', { name: 'A bowl of pea soup' })).toHaveAttribute(
      'src',
      MEDIA_URL,
    );
    expect(within(post).getByRole('button', { name: 'Approve' })).toBeEnabled();
    expect(within(post).getByRole('button', { name: 'Request changes' })).toBeEnabled();
    // Nothing of a session is asked for, and nothing else of the organization.
    expect(server.count('POST /auth/refreshToken')).toBe(0);
    expect(
      server.requests.every((r) => r.path.startsWith('/guest/') || r.path === '/auth/me'),
    ).toBe(true);
  });

  it('hides a Mastodon post behind its content warning until Show more, as Mastodon does', async () => {
    const mastodon = {
      network: 'Mastodon',
      accountName: 'Harbor Cafe',
      username: 'harbor@social.example',
      pictureUrl: null,
      text: 'The ending of the chef’s story',
      media: [],
      parts: [],
      firstComment: null,
      contentWarning: 'Spoilers for the chef’s story',
    };
    renderGuest({ [PAGE]: ok(page([waitingPost({ accounts: [mastodon] })])) });
    const preview = await screen.findByRole('article', { name: 'Mastodon · Harbor Cafe preview' });
    expect(preview).toHaveTextContent('Spoilers for the chef’s story');
    expect(preview).not.toHaveTextContent('The ending of the chef’s story');
    within(preview).getByRole('button', { name: 'Show more' }).click();
    await waitFor(() => expect(preview).toHaveTextContent('The ending of the chef’s story'));
  });

  it('shows the organization’s logo, else its initials on its brand colour', async () => {
    const logoUrl = `/api/guest/approvals/${TOKEN}/logo`;
    const branded = renderGuest({
      [PAGE]: ok(
        page([waitingPost()], {
          organization: { name: 'Harbor Agency', branding: { logoUrl, color: '#fde047' } },
        }),
      ),
    });
    expect(await screen.findByRole('img', { name: 'Harbor Agency logo' })).toHaveAttribute(
      'src',
      logoUrl,
    );
    branded.unmount();

    renderGuest({
      [PAGE]: ok(
        page([waitingPost()], {
          organization: { name: 'Harbor Agency', branding: { logoUrl: null, color: '#fde047' } },
        }),
      ),
    });
    const initials = await screen.findByText('HA');
    // A light yellow gets dark initials.
    expect(initials).toHaveStyle({
      backgroundColor: 'rgb(253, 224, 71)',
      color: 'rgb(15, 23, 42)',
    });
    expect(screen.queryByRole('img', { name: 'Harbor Agency logo' })).toBeNull();
  });

  it('approves with a comment, then says so; nothing left to decide: thanks', async () => {
    const post = waitingPost();
    const { user, server } = renderGuest({
      [PAGE]: ok(page([post])),
      [DECIDE]: decided(post, 'approved', 'Looks great'),
    });
    const card = await screen.findByRole('listitem', { name: 'Spring menu launch' });
    await user.type(within(card).getByLabelText('Comment for the team'), 'Looks great');
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(await within(card).findByText('You approved this post.')).toBeInTheDocument();
    expect(within(card).getByText('Your comment: Looks great')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.getByText(ALL_DECIDED)).toBeInTheDocument();
    const sent = server.requests.find((r) => `${r.method} ${r.path}` === DECIDE);
    expect(sent?.body).toEqual({ postId: 'post_1', decision: 'approve', comment: 'Looks great' });
  });

  it('asks what should change before sending a request for changes', async () => {
    const post = waitingPost();
    const { user, server } = renderGuest({
      [PAGE]: ok(page([post, waitingPost({ id: 'post_2', label: 'Second post' })])),
      [DECIDE]: decided(post, 'changes_requested', 'Use the spring photo'),
    });
    const card = await screen.findByRole('listitem', { name: 'Spring menu launch' });
    await user.click(within(card).getByRole('button', { name: 'Request changes' }));
    expect(within(card).getByRole('alert')).toHaveTextContent(COMMENT_NEEDED);
    expect(server.count(DECIDE)).toBe(0);

    await user.type(within(card).getByLabelText('Comment for the team'), 'Use the spring photo');
    await user.click(within(card).getByRole('button', { name: 'Request changes' }));
    expect(await within(card).findByText('You asked for changes.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      postId: 'post_1',
      decision: 'request_changes',
      comment: 'Use the spring photo',
    });
    // The other post still waits: no thanks yet.
    expect(screen.queryByText(ALL_DECIDED)).not.toBeInTheDocument();
    const second = screen.getByRole('listitem', { name: 'Second post' });
    expect(within(second).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('asks before approving a post whose time has passed, then publishes it now', async () => {
    const post = waitingPost();
    let calls = 0;
    const { user, server } = renderGuest({
      [PAGE]: ok(page([post])),
      [DECIDE]: () => {
        calls += 1;
        return calls === 1
          ? {
              status: 409,
              body: {
                status: 'error',
                code: 'CONFLICT',
                message: 'This post’s time has passed.',
                details: { timePassed: true },
              },
            }
          : decided(post, 'approved', null);
      },
    });
    const card = await screen.findByRole('listitem', { name: 'Spring menu launch' });
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    const ask = await within(card).findByRole('alertdialog', { name: 'Publish it now?' });
    await user.click(within(ask).getByRole('button', { name: 'Approve and publish now' }));
    expect(await within(card).findByText('You approved this post.')).toBeInTheDocument();
    const bodies = server.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(bodies).toEqual([
      { postId: 'post_1', decision: 'approve' },
      { postId: 'post_1', decision: 'approve', publishNow: true },
    ]);
  });

  it('shows the server’s sentence when a post was decided elsewhere meanwhile', async () => {
    const { user } = renderGuest({
      [PAGE]: ok(page([waitingPost()])),
      [DECIDE]: fail(
        409,
        'CONFLICT',
        'The team has already approved this post, so it no longer waits for your decision.',
      ),
    });
    const card = await screen.findByRole('listitem', { name: 'Spring menu launch' });
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'The team has already approved this post',
    );
  });

  it('shows decided and unavailable posts without buttons', async () => {
    renderGuest({
      [PAGE]: ok(
        page([
          waitingPost({
            state: 'approved',
            comment: 'Ship it',
            decidedAt: '2099-03-30T10:00:00.000Z',
            accounts: [],
          }),
          waitingPost({
            id: 'post_2',
            label: 'Changed meanwhile',
            state: 'unavailable',
            unavailableReason:
              'The team changed this post after sending you this link, so it no longer waits for your decision here.',
            accounts: [],
          }),
        ]),
      ),
    });
    const approved = await screen.findByRole('listitem', { name: 'Spring menu launch' });
    expect(within(approved).getByText('You approved this post.')).toBeInTheDocument();
    expect(within(approved).getByText('Your comment: Ship it')).toBeInTheDocument();
    const changed = screen.getByRole('listitem', { name: 'Changed meanwhile' });
    expect(changed).toHaveTextContent('The team changed this post after sending you this link');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    // Nothing is left to decide: the client is done.
    expect(screen.getByText(ALL_DECIDED)).toBeInTheDocument();
  });

  it.each([
    [
      'revoked',
      LINK_REVOKED_TITLE,
      fail(410, 'EXPIRED', 'This approval link was withdrawn by the team that sent it.'),
    ],
    [
      'expired',
      LINK_EXPIRED_TITLE,
      fail(
        410,
        'EXPIRED',
        'This approval link has expired. Ask the team that sent it for a new one.',
      ),
    ],
    ['unknown', LINK_UNKNOWN_TITLE, fail(404, 'NOT_FOUND', 'This approval link does not exist.')],
  ] as const)('a %s link says so, with the server’s sentence', async (state, title, reply) => {
    const answer =
      state === 'unknown'
        ? reply
        : { status: 410, body: { ...(reply as { body: object }).body, details: { state } } };
    renderGuest({ [PAGE]: answer });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(
      screen.getByText((reply as { body: { message: string } }).body.message),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('a link withdrawn while the page is open: the decision says so and the page follows', async () => {
    let revoked = false;
    const { user } = renderGuest({
      [PAGE]: () =>
        revoked
          ? {
              status: 410,
              body: {
                status: 'error',
                code: 'EXPIRED',
                message: 'This approval link was withdrawn by the team that sent it.',
                details: { state: 'revoked' },
              },
            }
          : ok(page([waitingPost()])),
      [DECIDE]: () => {
        revoked = true;
        return {
          status: 410,
          body: {
            status: 'error',
            code: 'EXPIRED',
            message: 'This approval link was withdrawn by the team that sent it.',
            details: { state: 'revoked' },
          },
        };
      },
    });
    const card = await screen.findByRole('listitem', { name: 'Spring menu launch' });
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(
        screen.getByRole('heading', { level: 1, name: LINK_REVOKED_TITLE }),
      ).toBeInTheDocument(),
    );
  });
});
