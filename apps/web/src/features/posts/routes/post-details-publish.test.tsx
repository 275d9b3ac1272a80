import type { PublishNowResponse } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { deferred, fail, ok, type FakeRequest } from '@/testing/fake-server';
import { createPlatformPost, createPost } from '../testing/post-fixtures';
import { connectedTo, postPath, publishPath, renderDetails } from '../testing/render-details';

const panel = () => screen.getByRole('region', { name: 'Publish to Platform' });
const row = (name: string) => within(panel()).getByRole('listitem', { name });
const checkbox = (name: string) =>
  within(panel()).getByRole('checkbox', { name: `Publish to ${name}` });
const publishNow = () => within(panel()).getByRole('button', { name: 'Publish Now' });

/** A draft for X and Facebook, both still waiting (QUEUED), with both accounts connected. */
function twoNetworkDraft() {
  return createPost({
    status: 'draft',
    platforms: [
      { id: 'plt_x', name: 'X' },
      { id: 'plt_facebook', name: 'Facebook' },
    ],
    platformPosts: [
      createPlatformPost({ id: 'pp_x', platformId: 'plt_x', platformName: 'X' }),
      createPlatformPost({ id: 'pp_fb', platformId: 'plt_facebook', platformName: 'Facebook' }),
    ],
  });
}

const answer = (body: PublishNowResponse) => ({ status: 200, body });

describe('/content/{postId} Publish to Platform', () => {
  it('publishes the chosen network: Publishing... while it runs, then Published, locked, reloaded', async () => {
    const post = twoNetworkDraft();
    const held = deferred();
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
      routes: {
        [`PATCH ${publishPath(post)}`]: async () => {
          await held.promise;
          // The server published X meanwhile: the post read again says so.
          post.status = 'published';
          post.platformPosts[0] = {
            ...post.platformPosts[0]!,
            status: 'PUBLISHED',
            externalId: '1790',
            permalink: 'https://x.example/ada/status/1790',
          };
          return answer({
            status: 'success',
            results: { X: { status: 'success', error: null } },
            message: 'Published to: X.',
          });
        },
      },
    });

    expect(await within(row('X')).findByText('Connected')).toBeInTheDocument();
    expect(checkbox('X')).not.toBeChecked();
    await user.click(checkbox('X'));
    await user.click(publishNow());

    expect(await within(row('X')).findByText('Publishing...')).toBeInTheDocument();
    expect(within(row('Facebook')).queryByText('Publishing...')).not.toBeInTheDocument();
    expect(publishNow()).toBeDisabled();
    expect(checkbox('X')).toBeDisabled();
    expect(server.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ platforms: ['X'] });

    const readsBefore = server.count(`GET ${postPath(post)}`);
    held.resolve();

    expect(await screen.findByText('Published to: X')).toBeInTheDocument();
    await waitFor(() => expect(server.count(`GET ${postPath(post)}`)).toBeGreaterThan(readsBefore));
    expect(
      await within(panel()).findByText('This post was published to X, Facebook.'),
    ).toBeInTheDocument();
    expect(within(row('X')).getByText('Published')).toBeInTheDocument();
    expect(within(row('X')).getByRole('link', { name: /View on X/ })).toHaveAttribute(
      'href',
      'https://x.example/ada/status/1790',
    );
  });

  it('locks a published network on an unpublished post: checked and disabled', async () => {
    const post = twoNetworkDraft();
    post.status = 'failed';
    post.platformPosts[0] = { ...post.platformPosts[0]!, status: 'PUBLISHED' };
    post.platformPosts[1] = {
      ...post.platformPosts[1]!,
      status: 'FAILED',
      error: 'The Page token expired.',
    };
    await renderDetails(post, { integrations: connectedTo('X', 'Facebook') });

    expect(checkbox('X')).toBeChecked();
    expect(checkbox('X')).toBeDisabled();
    expect(within(row('X')).getByText('Published')).toBeInTheDocument();
    expect(checkbox('Facebook')).toBeEnabled();
    expect(row('Facebook')).toHaveTextContent('Failed: The Page token expired.');
  });

  it("says 'Published to: …' and 'Failed for: … Check details.' on a partial success", async () => {
    const post = twoNetworkDraft();
    const { user, server, queryClient } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
      routes: {
        [`PATCH ${publishPath(post)}`]: answer({
          status: 'partial_success',
          results: {
            X: { status: 'success', error: null },
            Facebook: { status: 'failed', error: 'The Page token expired.' },
          },
          message: 'Published to: X. Failed for: Facebook. Check details.',
        }),
      },
    });

    await user.click(checkbox('X'));
    await user.click(checkbox('Facebook'));
    await user.click(publishNow());

    expect(await screen.findByText('Published to: X')).toBeInTheDocument();
    expect(screen.getByText('Failed for: Facebook. Check details.')).toBeInTheDocument();
    await waitFor(() => expect(server.count(`GET ${postPath(post)}`)).toBeGreaterThan(1));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    // The answer marks the rows until the post itself says otherwise (this server never does).
    expect(within(row('X')).getByText('Published')).toBeInTheDocument();
    expect(checkbox('X')).toBeDisabled();
    expect(row('Facebook')).toHaveTextContent('Failed: The Page token expired.');
    // The failure stays chosen, ready for another try.
    expect(checkbox('Facebook')).toBeChecked();
  });

  it("says the server's 'Failed to publish to any platform.' and marks the rows failed", async () => {
    const post = twoNetworkDraft();
    const { user } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
      routes: {
        [`PATCH ${publishPath(post)}`]: answer({
          status: 'failed',
          results: {
            X: { status: 'failed', error: null },
            Facebook: { status: 'failed', error: 'Rate limited.' },
          },
          message: 'Failed to publish to any platform.',
        }),
      },
    });

    await user.click(checkbox('X'));
    await user.click(checkbox('Facebook'));
    await user.click(publishNow());

    expect(await screen.findByText('Failed to publish to any platform.')).toBeInTheDocument();
    expect(screen.queryByText(/Published to:/)).not.toBeInTheDocument();
    expect(row('X')).toHaveTextContent('Failed: Publishing failed');
    expect(row('Facebook')).toHaveTextContent('Failed: Rate limited.');
  });

  it("marks the chosen networks failed with the server's reason when the request fails", async () => {
    const post = twoNetworkDraft();
    const { user } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
      routes: {
        [`PATCH ${publishPath(post)}`]: fail(409, 'CONFLICT', 'This post is being deleted.'),
      },
    });
    await user.click(checkbox('Facebook'));
    await user.click(publishNow());

    // Said once as the answer, and again under the row it failed.
    expect(await screen.findAllByText('This post is being deleted.')).not.toHaveLength(0);
    expect(row('Facebook')).toHaveTextContent('Failed: This post is being deleted.');
    expect(within(row('X')).queryByText(/^Failed/)).not.toBeInTheDocument();
  });

  it('notes networks still publishing after the answer and reads the post until they settle', async () => {
    const post = twoNetworkDraft();
    const { user } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
      routes: {
        [`PATCH ${publishPath(post)}`]: () => {
          post.status = 'publishing';
          post.platformPosts[1] = { ...post.platformPosts[1]!, status: 'PUBLISHING' };
          return answer({
            status: 'failed',
            results: { Facebook: { status: 'pending', error: null } },
            message: 'Still publishing to: Facebook.',
          });
        },
      },
    });
    await user.click(checkbox('Facebook'));
    await user.click(publishNow());

    expect(await screen.findByText(/^Still publishing to: Facebook\./)).toBeInTheDocument();
    expect(screen.queryByText('Failed to publish to any platform.')).not.toBeInTheDocument();
    expect(within(row('Facebook')).getByText('Publishing...')).toBeInTheDocument();
  });

  it("refuses Publish Now without a choice: 'Please select at least one platform to publish.'", async () => {
    const post = twoNetworkDraft();
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
    });
    await user.click(publishNow());
    expect(
      await screen.findByText('Please select at least one platform to publish.'),
    ).toBeInTheDocument();

    // Choosing then un-choosing is no choice either.
    await user.click(checkbox('X'));
    await user.click(checkbox('X'));
    await user.click(publishNow());
    expect(server.count(`PATCH ${publishPath(post)}`)).toBe(0);
  });

  it('offers Mark as published and Retry on an uncertain network, then reads the post again', async () => {
    const post = createPost({
      status: 'failed',
      platforms: [{ id: 'plt_tiktok', name: 'TikTok' }],
      platformPosts: [
        createPlatformPost({
          id: 'pp_tt',
          platformId: 'plt_tiktok',
          platformName: 'TikTok',
          status: 'UNCERTAIN',
          error: 'TikTok did not confirm the upload in time.',
        }),
      ],
    });
    const resolvePath = `${postPath(post)}/targets/pp_tt/resolve`;
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('TikTok'),
      routes: {
        [`POST ${resolvePath}`]: ({ body }: FakeRequest) => {
          const { outcome } = body as { outcome: string };
          if (outcome === 'published') {
            post.status = 'published';
            post.platformPosts[0] = { ...post.platformPosts[0]!, status: 'PUBLISHED', error: null };
          }
          return ok(null);
        },
      },
    });

    const tiktok = row('TikTok');
    expect(within(tiktok).getByText('Needs check')).toBeInTheDocument();
    expect(
      within(tiktok).getByText('TikTok did not confirm the upload in time.'),
    ).toBeInTheDocument();

    await user.click(within(tiktok).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Publishing to TikTok again.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.path === resolvePath)?.body).toEqual({
      outcome: 'retry',
    });

    await user.click(within(row('TikTok')).getByRole('button', { name: 'Mark as published' }));
    expect(await screen.findByText('Marked as published on TikTok.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path === resolvePath).map((r) => r.body)).toEqual([
      { outcome: 'retry' },
      { outcome: 'published' },
    ]);
    expect(await within(row('TikTok')).findByText('Published')).toBeInTheDocument();
    expect(
      within(row('TikTok')).queryByRole('button', { name: 'Mark as published' }),
    ).not.toBeInTheDocument();
  });

  it('hides Mark as published and Retry from members without post:edit', async () => {
    const post = createPost({
      status: 'failed',
      platformPosts: [createPlatformPost({ status: 'UNCERTAIN' })],
    });
    await renderDetails(post, { me: createMe({ permissions: ['post:create'] }) });
    expect(within(row('X')).getByText('Needs check')).toBeInTheDocument();
    expect(within(row('X')).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('offers Connect for a network without an account, going to its sign-in', async () => {
    const post = createPost({
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_instagram', name: 'Instagram' },
      ],
    });
    await renderDetails(post, { integrations: connectedTo('X') });

    const instagram = await waitFor(() => row('Instagram'));
    const connect = await within(instagram).findByRole('link', { name: 'Connect' });
    expect(connect).toHaveAttribute('href', '/api/auth/instagram?orgId=org_1');
    expect(
      within(panel()).queryByRole('checkbox', { name: 'Publish to Instagram' }),
    ).not.toBeInTheDocument();
    expect(checkbox('X')).toBeEnabled();
  });

  it('without post:create: no checkboxes and no Publish Now', async () => {
    await renderDetails(createPost(), { me: createMe({ permissions: ['post:edit'] }) });
    expect(
      within(panel()).getByText('Only members who may create posts can publish them.'),
    ).toBeInTheDocument();
    expect(within(panel()).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Publish Now' })).not.toBeInTheDocument();
  });
});
