import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { goToExternal } from '@/lib/browser';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeReply, type Handler } from '@/testing/fake-server';
import {
  createIntegration,
  createPlatform,
  integrationRoutes,
  supportedPlatforms,
} from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

vi.mock('@/lib/browser', () => ({ goToExternal: vi.fn() }));

beforeEach(() => {
  vi.mocked(goToExternal).mockClear();
});

const xAccount = createIntegration({
  id: 'int_x',
  metadata: { name: 'Ada Posts', username: 'ada_posts', pictureUrl: 'https://pics.example/x.png' },
});
const page = createIntegration({
  id: 'int_fb',
  platform: { id: 'plt_facebook', name: 'Facebook' },
  sandbox: true,
  metadata: { name: 'Acme Page', username: null },
});
const broken = createIntegration({
  id: 'int_th',
  platform: { id: 'plt_threads', name: 'Threads' },
  status: 'REFRESH_FAILED',
  lastError: 'Threads refused the refresh token. Connect the account again.',
  metadata: { name: 'Ada Threads', username: 'ada.threads' },
});

async function renderSettings({
  me = createMe(),
  integrations = [xAccount, page, broken],
  platforms = supportedPlatforms(),
  routes = {},
}: {
  me?: ReturnType<typeof createMe>;
  integrations?: ReturnType<typeof createIntegration>[];
  platforms?: ReturnType<typeof createPlatform>[];
  routes?: Record<string, FakeReply | Handler>;
} = {}) {
  const server = mockServer({
    me,
    routes: { ...integrationRoutes({ integrations, platforms }), ...routes },
  });
  const app = renderApp('/settings');
  await screen.findByRole('heading', { name: 'Account Settings', level: 1 });
  const card = screen.getByRole('region', { name: 'Connected Platforms' });
  return { ...app, server, card };
}

describe('/settings connected platforms', () => {
  it('offers every active, connectable network and marks the sandboxed ones', async () => {
    const platforms = [
      createPlatform({ name: 'X', sandbox: true }),
      createPlatform({ name: 'Facebook' }),
      createPlatform({ name: 'Threads', isActive: false }),
      createPlatform({ name: 'Friendica', connectable: false }),
    ];
    const { card } = await renderSettings({ platforms });

    const x = await within(card).findByRole('button', { name: 'Continue with X' });
    expect(x).toHaveAccessibleDescription('Sandbox');
    const facebook = within(card).getByRole('button', { name: 'Continue with Facebook' });
    expect(facebook).not.toHaveAccessibleDescription();
    expect(within(card).queryByRole('button', { name: /Continue with Threads/ })).toBeNull();
    expect(within(card).queryByRole('button', { name: /Continue with Friendica/ })).toBeNull();
  });

  it('sends the browser to the network through the server, with the organization', async () => {
    const { user, card } = await renderSettings();
    const x = await within(card).findByRole('button', { name: 'Continue with X' });
    await user.click(x);

    expect(goToExternal).toHaveBeenCalledWith('/api/auth/x?orgId=org_1');
    expect(within(card).getByRole('button', { name: 'Continue with TikTok' })).toBeDisabled();
  });

  const linkedInKinds = () => [
    createPlatform({ name: 'X' }),
    createPlatform({
      name: 'LinkedIn',
      connectKinds: [
        {
          kind: 'person',
          label: 'LinkedIn profile',
          description: 'Posts as you, from your personal LinkedIn profile.',
          requirement: 'Needs a LinkedIn app with the products "Share on LinkedIn".',
          sandbox: true,
        },
        {
          kind: 'organization',
          label: 'LinkedIn Page',
          description: 'Posts as a LinkedIn Page you administer.',
          requirement:
            'Needs a second LinkedIn app whose only product is the "Community Management API".',
          sandbox: false,
        },
      ],
    }),
  ];

  it('asks which Mastodon server the account is on before leaving for it', async () => {
    const { user, card } = await renderSettings({
      platforms: [
        ...supportedPlatforms(),
        createPlatform({ id: 'plt_mastodon', name: 'Mastodon' }),
      ],
    });
    await user.click(await within(card).findByRole('button', { name: 'Continue with Mastodon' }));
    expect(goToExternal).not.toHaveBeenCalled();
    const go = within(card).getByRole('button', { name: 'Continue to Mastodon' });
    expect(go).toBeDisabled();
    await user.type(within(card).getByLabelText('Your Mastodon server'), ' @ada@hachyderm.io ');
    await user.click(go);
    expect(goToExternal).toHaveBeenCalledWith(
      '/api/auth/mastodon?orgId=org_1&instance=%40ada%40hachyderm.io',
    );
  });

  it('connects Bluesky with a handle and an app password, without leaving Herald', async () => {
    const sent: unknown[] = [];
    const bluesky = createIntegration({
      id: 'int_b',
      platform: { id: 'plt_bluesky', name: 'Bluesky' },
      platformAccountId: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa',
      metadata: { name: 'Ada', username: 'ada.bsky.social' },
    });
    const { user, card } = await renderSettings({
      platforms: [...supportedPlatforms(), createPlatform({ id: 'plt_bluesky', name: 'Bluesky' })],
      routes: {
        'POST /organizations/org_1/integrations/bluesky/app-password': (request) => {
          sent.push(request.body);
          return sent.length === 1
            ? fail(
                400,
                'VALIDATION_FAILED',
                'Bluesky refused the sign-in (Invalid identifier or password). Check the handle and the app password, then connect again.',
              )
            : ok({ platforms: [bluesky] });
        },
      },
    });
    await user.click(await within(card).findByRole('button', { name: 'Continue with Bluesky' }));
    const form = within(card).getByRole('form', { name: 'Connect Bluesky with an app password' });
    expect(form).toHaveTextContent(/Allow access to your direct messages/);
    // Without a public https address the server offers no sign-in on Bluesky's own page.
    expect(within(card).queryByRole('form', { name: 'Sign in with Bluesky' })).toBeNull();
    const connect = within(form).getByRole('button', { name: 'Connect Bluesky' });
    expect(connect).toBeDisabled();
    await user.type(within(form).getByLabelText('Handle'), 'ada.bsky.social');
    await user.type(within(form).getByLabelText('App password'), 'abcd-efgh-ijkl-mnop');
    await user.click(connect);
    expect(await screen.findByText(/Bluesky refused the sign-in/)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Connect Bluesky' }));
    expect(await screen.findByText('Bluesky connected.')).toBeInTheDocument();
    expect(sent).toEqual([
      { identifier: 'ada.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' },
      { identifier: 'ada.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' },
    ]);
    expect(goToExternal).not.toHaveBeenCalled();
  });

  it('offers signing in on Bluesky beside the app password when the server offers it', async () => {
    const { user, card } = await renderSettings({
      platforms: [
        ...supportedPlatforms(),
        createPlatform({ id: 'plt_bluesky', name: 'Bluesky', offersSignInPage: true }),
      ],
    });
    await user.click(await within(card).findByRole('button', { name: 'Continue with Bluesky' }));
    const signIn = within(card).getByRole('form', { name: 'Sign in with Bluesky' });
    expect(
      within(card).getByRole('form', { name: 'Connect Bluesky with an app password' }),
    ).toBeInTheDocument();
    expect(within(card).getByText('Or use an app password')).toBeInTheDocument();
    const go = within(signIn).getByRole('button', { name: 'Sign in with Bluesky' });
    expect(go).toBeDisabled();
    await user.type(within(signIn).getByLabelText('Handle or server'), ' @ada.bsky.social ');
    await user.click(go);
    expect(goToExternal).toHaveBeenCalledWith(
      '/api/auth/bluesky?orgId=org_1&instance=%40ada.bsky.social',
    );
  });

  it('reconnects a Mastodon account on its own server without asking again', async () => {
    const refused = createIntegration({
      id: 'int_m',
      platform: { id: 'plt_mastodon', name: 'Mastodon' },
      platformAccountId: '1094@hachyderm.io',
      status: 'REFRESH_FAILED',
      lastError: 'Mastodon said: The access token is invalid',
      metadata: { name: 'Ada', username: 'ada@hachyderm.io' },
    });
    const { user, card } = await renderSettings({
      integrations: [refused],
      platforms: [
        ...supportedPlatforms(),
        createPlatform({ id: 'plt_mastodon', name: 'Mastodon' }),
      ],
    });
    const item = await within(card).findByRole('region', { name: 'Mastodon accounts' });
    await user.click(await within(item).findByRole('button', { name: /Reconnect/ }));
    expect(goToExternal).toHaveBeenCalledWith(
      '/api/auth/mastodon?orgId=org_1&instance=hachyderm.io',
    );
  });

  it('offers LinkedIn as a personal profile and as a Page, each saying what it posts as', async () => {
    const { user, card } = await renderSettings({ platforms: linkedInKinds() });

    const profile = await within(card).findByRole('button', {
      name: 'Continue with LinkedIn profile',
    });
    expect(profile).toHaveAccessibleDescription(
      'Sandbox Posts as you, from your personal LinkedIn profile.',
    );
    const pageButton = within(card).getByRole('button', { name: 'Continue with LinkedIn Page' });
    expect(pageButton).toHaveAccessibleDescription('Posts as a LinkedIn Page you administer.');
    // What the developer apps need is the operators' business, not a member's.
    expect(card).not.toHaveTextContent(/LinkedIn app|Community Management API/);
    expect(within(card).queryByRole('button', { name: 'Continue with LinkedIn' })).toBeNull();

    await user.click(pageButton);
    expect(goToExternal).toHaveBeenCalledWith('/api/auth/linkedin?orgId=org_1&kind=organization');
  });

  it('tells operators which LinkedIn product each kind of app needs', async () => {
    const { card } = await renderSettings({
      me: createMe({ user: { isAdmin: true } }),
      platforms: linkedInKinds(),
    });

    const pageButton = await within(card).findByRole('button', {
      name: 'Continue with LinkedIn Page',
    });
    expect(pageButton).toHaveAccessibleDescription(
      'Posts as a LinkedIn Page you administer. Needs a second LinkedIn app whose only product is the "Community Management API".',
    );
  });

  it('lists connected accounts by network, with status, sandbox mark and which account it is', async () => {
    const { card } = await renderSettings();

    const xGroup = await within(card).findByRole('region', { name: 'X accounts' });
    const ada = within(xGroup).getByRole('listitem', { name: '@ada_posts' });
    expect(within(ada).getByText('Connected')).toBeInTheDocument();
    expect(within(ada).getByText(/^X profile · Connected Mar 1, 2026$/)).toBeInTheDocument();
    expect(within(ada).queryByText('Sandbox')).toBeNull();
    expect(ada.querySelector('img')).toHaveAttribute('src', 'https://pics.example/x.png');

    const fbGroup = within(card).getByRole('region', { name: 'Facebook accounts' });
    const acme = within(fbGroup).getByRole('listitem', { name: 'Acme Page' });
    expect(within(acme).getByText('Sandbox')).toBeInTheDocument();
    expect(within(acme).getByText(/^Facebook Page · Connected/)).toBeInTheDocument();
    // Facebook Page tokens do not expire: nothing to refresh.
    expect(within(acme).queryByRole('button', { name: /^Refresh/ })).toBeNull();
  });

  it("names an Instagram account by its handle, not by its Facebook Page's name", async () => {
    const instagram = createIntegration({
      id: 'int_ig',
      platform: { id: 'plt_instagram', name: 'Instagram' },
      metadata: { name: 'Acme Page', username: 'acme.cafe' },
    });
    const linkedInPage = createIntegration({
      id: 'int_li',
      platform: { id: 'plt_linkedin', name: 'LinkedIn' },
      platformAccountId: 'urn:li:organization:42',
      metadata: { name: 'Acme Cafe Ltd', username: 'acme-cafe' },
    });
    const { card } = await renderSettings({ integrations: [instagram, linkedInPage] });

    const igGroup = await within(card).findByRole('region', { name: 'Instagram accounts' });
    const ig = within(igGroup).getByRole('listitem', { name: '@acme.cafe' });
    expect(within(ig).getByText('@acme.cafe')).toBeInTheDocument();
    expect(within(ig).getByText(/^Instagram professional account · Connected/)).toBeInTheDocument();
    expect(within(ig).queryByText(/Acme Page/)).toBeNull();

    const li = within(card).getByRole('listitem', { name: 'Acme Cafe Ltd' });
    expect(within(li).getByText(/^LinkedIn Page/)).toHaveTextContent(
      'LinkedIn Page · @acme-cafe · Connected Mar 1, 2026',
    );
  });

  it('shows the refresh button with its label', async () => {
    await renderSettings();
    const refresh = await screen.findByRole('button', { name: 'Refresh tokens for X' });
    expect(refresh).toHaveTextContent('Refresh tokens');
    expect(refresh).toHaveAttribute('title', 'Refresh the access tokens of @ada_posts (X)');
  });

  it('asks to reconnect an account whose refresh failed, with the reason', async () => {
    const { user } = await renderSettings();
    const threads = await screen.findByRole('listitem', { name: '@ada.threads' });

    expect(within(threads).getByText('Reconnect needed')).toBeInTheDocument();
    expect(
      within(threads).getByText('Threads refused the refresh token. Connect the account again.'),
    ).toBeInTheDocument();
    await user.click(within(threads).getByRole('button', { name: 'Reconnect @ada.threads' }));
    expect(goToExternal).toHaveBeenCalledWith('/api/auth/threads?orgId=org_1');
  });

  it('disconnects exactly the confirmed account', async () => {
    const { user, server } = await renderSettings({
      routes: { 'POST /facebook/disconnect/org_1': ok({ message: 'done' }) },
    });
    await user.click(
      within(await screen.findByRole('listitem', { name: 'Acme Page' })).getByRole('button', {
        name: 'Disconnect Acme Page',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Facebook?' });
    server.on('GET /organizations/org_1/integrations', ok({ platforms: [xAccount, broken] }));
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    expect(await screen.findByText('Facebook disconnected successfully.')).toBeInTheDocument();
    const post = server.requests.find((r) => r.path === '/facebook/disconnect/org_1');
    expect(post?.body).toEqual({ integrationId: 'int_fb' });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Acme Page' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says how many scheduled posts an account goes out to before disconnecting it', async () => {
    const { user } = await renderSettings({
      routes: {
        'GET /organizations/org_1/integrations': ok({
          platforms: [xAccount, { ...page, scheduledPostCount: 3 }, broken],
        }),
      },
    });
    await user.click(
      within(await screen.findByRole('listitem', { name: 'Acme Page' })).getByRole('button', {
        name: 'Disconnect Acme Page',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Facebook?' });
    expect(
      within(dialog).getByText(
        /3 scheduled posts go out from this account; they fail unless you connect it again before their time\./,
      ),
    ).toBeInTheDocument();
  });

  it('says that videos already uploaded to YouTube still go public after disconnecting', async () => {
    const channel = createIntegration({
      id: 'int_yt',
      platform: { id: 'plt_youtube', name: 'YouTube' },
      metadata: { name: 'Walk Channel', username: null },
      scheduledPostCount: 2,
    });
    const { user } = await renderSettings({
      routes: { 'GET /organizations/org_1/integrations': ok({ platforms: [channel] }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Disconnect Walk Channel' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect YouTube?' });
    expect(
      within(dialog).getByText(
        /Videos already uploaded to YouTube ahead of their time still go public then, unless you connect the account again and move their posts to draft or delete them\./,
      ),
    ).toBeInTheDocument();
  });

  it('says when disconnecting fails', async () => {
    const { user } = await renderSettings({
      routes: { 'POST /facebook/disconnect/org_1': ok({}) },
    });
    await user.click(await screen.findByRole('button', { name: 'Disconnect Acme Page' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }),
    );
    expect(
      await screen.findByText('Failed to disconnect Facebook. Please try again.'),
    ).toBeInTheDocument();
  });

  it('refreshes the tokens of an X account', async () => {
    const { user, server } = await renderSettings({
      routes: { 'GET /auth/x/refresh': ok({ message: 'Access tokens refreshed for X' }) },
    });
    const ada = await screen.findByRole('listitem', { name: '@ada_posts' });
    await user.click(within(ada).getByRole('button', { name: 'Refresh tokens for X' }));

    expect(await screen.findByText('Access tokens refreshed for X')).toBeInTheDocument();
    const call = server.fetch.mock.calls.find(([url]) => String(url).includes('/refresh'));
    expect(String(call?.[0])).toBe('/api/auth/x/refresh?orgId=org_1&integrationId=int_x');
  });

  it("shows the server's reason when a refresh fails, or the fallback", async () => {
    const { user, server } = await renderSettings({
      routes: { 'GET /auth/x/refresh': fail(502, 'UPSTREAM_ERROR', 'X is unreachable.') },
    });
    const refresh = await screen.findByRole('button', { name: 'Refresh tokens for X' });
    await user.click(refresh);
    expect(await screen.findByText('X is unreachable.')).toBeInTheDocument();

    server.on('GET /auth/x/refresh', ok({}));
    await user.click(refresh);
    expect(await screen.findByText('Failed to refresh token for X.')).toBeInTheDocument();
  });

  it('hides connecting, refreshing and disconnecting from members without the permission', async () => {
    const creator = createMe({
      role: { id: 'role_cc', name: 'ContentCreator' },
      permissions: ['post:create', 'post:edit'],
    });
    await renderSettings({ me: creator });
    const threads = await screen.findByRole('listitem', { name: '@ada.threads' });

    expect(screen.queryByRole('button', { name: /^Continue with/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Refresh/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Disconnect/ })).toBeNull();
    expect(within(threads).queryByRole('button', { name: /^Reconnect/ })).toBeNull();
    expect(screen.getByText(/Ask an organization admin/)).toBeInTheDocument();
  });

  it('lets a member who may connect but not disconnect do only that', async () => {
    const connector = createMe({ permissions: ['account:connect'] });
    await renderSettings({ me: connector });
    await screen.findByRole('listitem', { name: '@ada_posts' });

    expect(screen.getByRole('button', { name: 'Continue with X' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh tokens for X' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Disconnect/ })).toBeNull();
  });

  it('says when nothing is connected', async () => {
    await renderSettings({ integrations: [] });
    expect(await screen.findByText('No platforms connected')).toBeInTheDocument();
  });

  it('says when the accounts cannot be loaded, and retries', async () => {
    const { user, server } = await renderSettings({
      routes: { 'GET /organizations/org_1/integrations': fail(500, 'INTERNAL', 'Boom.') },
    });
    expect(await screen.findByText('Failed to load connected accounts.')).toBeInTheDocument();

    server.on('GET /organizations/org_1/integrations', ok({ platforms: [xAccount] }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: '@ada_posts' })).toBeInTheDocument();
  });
});
