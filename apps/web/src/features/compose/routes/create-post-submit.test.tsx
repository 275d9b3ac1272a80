import { act, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformPost } from '@herald/contract';
import { holdPostToast } from '@/lib/notifications';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeRequest } from '@/testing/fake-server';
import {
  CREATE_ROUTE,
  createButton,
  created,
  createdPost,
  fileOf,
  connectedAccounts,
  renderComposer,
  tile,
} from './create-post.fixtures';

const sharedText = () => screen.getByLabelText('Post content');
const entriesOf = (request: FakeRequest | undefined) => {
  if (!(request?.body instanceof FormData)) throw new Error('No multipart request was sent.');
  return [...request.body.entries()];
};
/** Publish now asks first; this answers the dialog with Publish now. */
async function confirmPublishNow(user: Awaited<ReturnType<typeof renderComposer>>['user']) {
  const dialog = await screen.findByRole('dialog', { name: 'Publish now?' });
  await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));
}
const createRequests = (requests: FakeRequest[]) =>
  requests.filter((r) => `${r.method} ${r.path}` === CREATE_ROUTE);

async function writeForXAndFacebook(user: Awaited<ReturnType<typeof renderComposer>>['user']) {
  await user.click(await tile('X'));
  await user.click(await tile('Facebook'));
  await user.type(sharedText(), 'Launch day');
}

describe("/create-post schedules in the user's zone, not the browser's", () => {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterAll(() => {
    process.env.TZ = machineZone;
  });

  const scheduledAtOf = async (server: { requests: FakeRequest[] }) => {
    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    return entries.find(([name]) => name === 'scheduledAt')?.[1];
  };

  it('reads the picker in the saved zone and names that zone', async () => {
    const { user, server } = await renderComposer({
      me: createMe({ user: { timezone: 'Pacific/Auckland' } }),
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: { [CREATE_ROUTE]: created() },
    });
    expect(
      await screen.findByText(
        'Times in Pacific/Auckland (your time zone; the organization has none set)',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Publish Date & Time')).toHaveValue('2099-05-10T14:30');
    await writeForXAndFacebook(user);
    await user.click(createButton());
    // 14:30 in Auckland (UTC+12 in May) is 02:30 UTC; Los Angeles would have said 21:30 UTC.
    expect(await scheduledAtOf(server)).toBe('2099-05-10T02:30:00.000Z');
  });

  it("uses the organization's zone when it has one, whatever the member's own", async () => {
    const me = createMe({ user: { timezone: 'Pacific/Auckland' } });
    const { user, server } = await renderComposer({
      me,
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: {
        [CREATE_ROUTE]: created(),
        'GET /organizations/org_1': ok({
          organization: {
            id: 'org_1',
            name: 'Acme Studio',
            defaultTimeZone: 'Asia/Tokyo',
            requirePostApproval: false,
            postApprovalRoleIds: [],
            ownerUserId: null,
            branding: { logoUrl: null, color: null },
            createdAt: '2026-01-10T09:00:00.000Z',
          },
        }),
      },
    });
    expect(
      await screen.findByText("Times in Asia/Tokyo (the organization's time zone)"),
    ).toBeInTheDocument();
    await writeForXAndFacebook(user);
    await user.click(createButton());
    expect(await scheduledAtOf(server)).toBe('2099-05-10T05:30:00.000Z');
  });
});

describe('/create-post request', () => {
  it('sends one multipart request: text fields first, customized texts, then the image', async () => {
    const integrations = connectedAccounts();
    const accountOf = (network: string) =>
      integrations.find((i) => i.platform.name === network)!.id;
    const { user, server, xhr } = await renderComposer({
      integrations,
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: { [CREATE_ROUTE]: created() },
    });
    await writeForXAndFacebook(user);
    await user.type(screen.getByLabelText('Title (optional)'), 'Spring launch');
    await user.click(screen.getByRole('tab', { name: 'Customize per Platform' }));
    await user.clear(screen.getByLabelText('X content'));
    await user.type(screen.getByLabelText('X content'), 'Short and sweet for X');
    await user.upload(screen.getByLabelText('Add media for Facebook'), [
      fileOf('launch.jpg', 'image/jpeg'),
    ]);
    await screen.findByRole('list', { name: 'Files for Facebook' });

    await user.click(createButton());

    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    expect(entries.map(([name]) => name)).toEqual([
      'integrationIds',
      'content',
      'scheduledAt',
      'action',
      'title',
      'platformMedia',
      'media',
    ]);
    const fields = Object.fromEntries(entries.filter(([name]) => name !== 'media'));
    // The post names the accounts it goes out from; texts and files are keyed by account.
    expect(JSON.parse(fields.integrationIds as string)).toEqual([
      accountOf('X'),
      accountOf('Facebook'),
    ]);
    expect(JSON.parse(fields.content as string)).toEqual({
      default: 'Launch day',
      [accountOf('X')]: 'Short and sweet for X',
      [accountOf('Facebook')]: 'Launch day',
    });
    // 14:30 in the user's saved zone (Europe/London, on summer time in May), as an instant.
    expect(fields.scheduledAt).toBe('2099-05-10T13:30:00.000Z');
    expect(fields.action).toBe('schedule');
    expect(fields.title).toBe('Spring launch');
    expect(JSON.parse(fields.platformMedia as string)).toEqual({ [accountOf('Facebook')]: [0] });
    const media = entries.find(([name]) => name === 'media')?.[1];
    expect(media).toBeInstanceOf(File);
    expect((media as File).name).toBe('launch.jpg');

    const request = xhr.latest();
    expect(request.url).toBe('/api/organizations/org_1/post');
    expect(request.withCredentials).toBe(true);
  });

  it('sends shared media without platformMedia, and no time when publishing now', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await writeForXAndFacebook(user);
    await user.upload(screen.getByLabelText('Add shared media'), [fileOf('a.png', 'image/png')]);
    await screen.findByRole('list', { name: 'Shared media' });

    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    await user.click(createButton());
    await confirmPublishNow(user);

    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    expect(entries.map(([name]) => name)).toEqual(['integrationIds', 'content', 'action', 'media']);
    expect(entries[1]?.[1]).toBe('Launch day');
    expect(entries[2]?.[1]).toBe('publish');
  });

  it('shows the real upload progress while the files are sent', async () => {
    const { user, xhr, router } = await renderComposer({
      uploadSteps: 'manual',
      routes: { [CREATE_ROUTE]: created() },
    });
    await writeForXAndFacebook(user);
    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    await user.click(createButton());
    await confirmPublishNow(user);

    const request = await waitFor(() => xhr.latest());
    request.progress(0.42);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute(
      'aria-valuenow',
      '42',
    );
    expect(screen.getByText('Uploading… 42%')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();

    request.progress(1);
    expect(screen.getByText('Upload complete. Creating the post…')).toBeInTheDocument();
    act(() => request.finishUpload());
    // Publish now follows the accounts before going to /content.
    expect(await screen.findByRole('dialog', { name: /^Publishing/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/create-post');
  });

  it('lets go of held post toasts when the person leaves before Publish now is answered', async () => {
    const { user, xhr, unmount } = await renderComposer({
      uploadSteps: 'manual',
      routes: { [CREATE_ROUTE]: created() },
    });
    await writeForXAndFacebook(user);
    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    await user.click(createButton());
    await confirmPublishNow(user);
    await waitFor(() => xhr.latest());
    // While the request is on its way, a post's toast waits for the answer…
    expect(holdPostToast('another-post', () => {})).toBe(true);
    unmount();
    // …and once the screen is gone, none is held back any more.
    expect(holdPostToast('another-post', () => {})).toBe(false);
  });

  it('refreshes the session once on a 401 and sends the upload again', async () => {
    let calls = 0;
    const { user, server, router } = await renderComposer({
      routes: {
        [CREATE_ROUTE]: () =>
          ++calls === 1 ? fail(401, 'UNAUTHENTICATED', 'Please sign in.') : created(),
        'POST /auth/refreshToken': ok({}),
      },
    });
    await writeForXAndFacebook(user);
    await user.click(createButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
    expect(server.count(CREATE_ROUTE)).toBe(2);
    expect(server.count('POST /auth/refreshToken')).toBe(1);
  });
});

describe('/create-post answers', () => {
  it('on success says so, resets the form and goes to /content', async () => {
    const { user, router, server } = await renderComposer({
      routes: { [CREATE_ROUTE]: created() },
    });
    await writeForXAndFacebook(user);
    await user.click(createButton());

    expect(await screen.findByText('Draft saved.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
    await waitFor(() => expect(server.count('GET /organizations/org_1/posts')).toBeGreaterThan(0));

    await act(() => router.navigate('/create-post'));
    expect(await tile('X')).not.toBeChecked();
    expect(sharedText()).toHaveValue('');
  });

  it('after Publish now shows each account as it settles, the reason of a failure in words, and one summary toast', async () => {
    const target = (over: Partial<PlatformPost>): PlatformPost => ({
      id: 'pp_x',
      platformId: 'plt_x',
      platformName: 'X',
      status: 'QUEUED',
      externalId: null,
      permalink: null,
      error: null,
      publishedAt: null,
      dueAt: '2026-03-01T10:00:00.000Z',
      integrationId: 'int_x',
      accountName: 'Acme',
      accountUsername: 'acme',
      accountPictureUrl: null,
      ...over,
    });
    const reason =
      'The Facebook account Acme Page needs to be reconnected; reconnect it in Settings or choose another account, then publish again.';
    const publishing = createdPost({
      status: 'publishing',
      platformPosts: [
        target({}),
        target({
          id: 'pp_fb',
          platformName: 'Facebook',
          accountName: 'Acme Page',
          accountUsername: null,
        }),
      ],
    });
    const settled = createdPost({
      status: 'partially_published',
      platformPosts: [
        target({ status: 'PUBLISHED', permalink: 'https://x.com/acme/status/1' }),
        target({
          id: 'pp_fb',
          platformName: 'Facebook',
          accountName: 'Acme Page',
          accountUsername: null,
          status: 'FAILED',
          error: reason,
        }),
      ],
    });
    let reads = 0;
    const { user, router } = await renderComposer({
      routes: {
        [CREATE_ROUTE]: created(publishing),
        // The first read finds both still going; the next one both settled.
        'GET /organizations/org_1/posts/post_1': () =>
          ok({ post: reads++ === 0 ? publishing : settled }),
      },
    });
    await writeForXAndFacebook(user);
    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    await user.click(createButton());
    await confirmPublishNow(user);

    const dialog = await screen.findByRole('dialog', { name: 'Publishing now' });
    const list = await within(dialog).findByRole('list', { name: 'Accounts it is published to' });
    expect(within(list).getAllByText('Publishing…')).toHaveLength(2);
    expect(screen.queryByText('Post created. Publishing has started.')).not.toBeInTheDocument();

    await screen.findByRole('dialog', { name: 'Publishing finished' }, { timeout: 5000 });
    const x = within(list).getByRole('listitem', { name: 'X Acme (@acme)' });
    expect(within(x).getByText('Published')).toBeInTheDocument();
    expect(within(x).getByRole('link', { name: 'View on X' })).toHaveAttribute(
      'href',
      'https://x.com/acme/status/1',
    );
    const facebook = within(list).getByRole('listitem', { name: 'Facebook Acme Page' });
    // Read, not hovered.
    expect(facebook).toHaveTextContent(`Failed: ${reason}`);
    expect(facebook).toHaveTextContent('open the post and publish to this account again');

    const summary = 'Published to 1 of 2 accounts. 1 account needs attention: see why in the list.';
    // The dialog's own line and ONE toast for the whole post.
    await waitFor(() => expect(screen.getAllByText(summary)).toHaveLength(2));
    expect(within(dialog).getByText(summary)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
    await act(() => router.navigate('/create-post'));
    expect(await tile('X')).not.toBeChecked();
    expect(sharedText()).toHaveValue('');
  });

  it('shows the Media Validation Errors modal and a toast for a 400 with platformValidationErrors', async () => {
    const { user } = await renderComposer({
      routes: {
        [CREATE_ROUTE]: {
          status: 400,
          body: {
            status: 'error',
            code: 'VALIDATION_FAILED',
            message: 'Some media cannot be posted.',
            details: {
              platformValidationErrors: [
                { platformName: 'X', message: 'clip.mp4: Video too long. Max duration: 140s.' },
                {
                  platformName: 'Facebook',
                  message: 'Facebook accepts at most 1 video in one post.',
                },
              ],
            },
          },
        },
      },
    });
    await writeForXAndFacebook(user);
    await user.click(createButton());

    const dialog = await screen.findByRole('dialog', { name: 'Media Validation Errors' });
    expect(
      screen.getByText('Media validation failed for X, Facebook. Click to view details.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('clip.mp4: Video too long. Max duration: 140s.')).toBeVisible();
    expect(within(dialog).getByText('Facebook accepts at most 1 video in one post.')).toBeVisible();

    await user.click(within(dialog).getByRole('button', { name: 'View requirements for X' }));
    const requirements = await screen.findByRole('dialog', { name: 'X requirements' });
    expect(within(requirements).getByText('Max duration: 140s')).toBeInTheDocument();
    await user.click(
      within(requirements).getAllByRole('button', { name: 'Close' })[1] as HTMLElement,
    );
    const again = await screen.findByRole('dialog', { name: 'Media Validation Errors' });

    await user.click(within(again).getByRole('button', { name: 'Go to Media Section' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.getByRole('region', { name: 'Media' })).toHaveFocus());

    // The toast opens the details again.
    await user.click(
      screen.getByText('Media validation failed for X, Facebook. Click to view details.'),
    );
    expect(await screen.findByRole('dialog', { name: 'Media Validation Errors' })).toBeVisible();
  });

  it('opens the subscription dialog for a 403 without a plan', async () => {
    const message = 'No active subscription found. Please subscribe to a plan to create posts.';
    const { user } = await renderComposer({
      routes: { [CREATE_ROUTE]: fail(403, 'FORBIDDEN', message) },
    });
    await writeForXAndFacebook(user);
    await user.click(createButton());

    const dialog = await screen.findByRole('dialog', { name: 'Subscription Required' });
    expect(dialog).toHaveAccessibleDescription(message);
    expect(within(dialog).getByRole('link', { name: 'View Plans' })).toHaveAttribute(
      'href',
      '/pricing',
    );
  });

  it("shows a plan's daily limit in the Action Required modal with Upgrade Now", async () => {
    const message =
      'Your Basic plan allows 5 posts per day. Try again tomorrow or upgrade your plan.';
    const { user } = await renderComposer({
      routes: { [CREATE_ROUTE]: fail(403, 'FORBIDDEN', message) },
    });
    await writeForXAndFacebook(user);
    await user.click(createButton());

    const dialog = await screen.findByRole('dialog', { name: 'Action Required' });
    expect(dialog).toHaveAccessibleDescription(message);
    expect(within(dialog).getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[1] as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says "Failed to create post" with the server sentence for other refusals', async () => {
    const { user, router } = await renderComposer({
      routes: { [CREATE_ROUTE]: fail(400, 'VALIDATION_FAILED', 'Select at least one platform.') },
    });
    await writeForXAndFacebook(user);
    await user.click(createButton());

    expect(
      await screen.findByText('Failed to create post: Select at least one platform.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/create-post');
    expect(sharedText()).toHaveValue('Launch day');
    expect(createButton()).toBeEnabled();
  });
});

describe('/create-post default action and Publish now', () => {
  it('saves a draft by default when no time is chosen, without asking', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await writeForXAndFacebook(user);
    expect(screen.getByRole('radio', { name: 'Save as draft' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Publish now' })).not.toBeChecked();

    await user.click(createButton());

    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    expect(entries.find(([name]) => name === 'action')?.[1]).toBe('draft');
    expect(screen.queryByRole('dialog', { name: 'Publish now?' })).not.toBeInTheDocument();
    expect(await screen.findByText('Draft saved.')).toBeInTheDocument();
  });

  it('schedules by default once a time is chosen', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await writeForXAndFacebook(user);
    await user.type(screen.getByLabelText('Publish Date & Time'), '2099-06-01T10:15');
    expect(screen.getByRole('radio', { name: 'Schedule' })).toBeChecked();

    await user.click(createButton());

    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    expect(entries.find(([name]) => name === 'action')?.[1]).toBe('schedule');
  });

  it('names every account before publishing now, and sends nothing when cancelled', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await writeForXAndFacebook(user);
    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    await user.click(createButton());

    const dialog = await screen.findByRole('dialog', { name: 'Publish now?' });
    const accounts = within(within(dialog).getByRole('list', { name: 'Accounts it goes to' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(accounts).toEqual(['XAcme (@acme)', 'FacebookAcme Page']);
    expect(createRequests(server.requests)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Publish now?' })).not.toBeInTheDocument();
    expect(createRequests(server.requests)).toHaveLength(0);

    await user.click(createButton());
    await confirmPublishNow(user);
    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    expect(entries.find(([name]) => name === 'action')?.[1]).toBe('publish');
  });
});
