import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type FakeRequest } from '@/testing/fake-server';
import {
  account,
  CREATE_ROUTE,
  createButton,
  created,
  fileOf,
  renderComposer,
  tile,
} from './create-post.fixtures';

/** docs/networks.md#tiktok-conformance: the composer follows TikTok's content-sharing guidelines. */
const tiktok = account('TikTok', { name: 'Tik Creator', username: 'tik.creator' });
const creatorRoute = `GET /organizations/org_1/integrations/${tiktok.id}/tiktok/creator-info`;
const creator = (overrides: object = {}) =>
  ok({
    creator: {
      nickname: 'Tik Creator',
      username: 'tik.creator',
      avatarUrl: null,
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      commentDisabled: true,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoPostDurationSec: 600,
      unaudited: false,
      ...overrides,
    },
  });
const tiktokField = (requests: FakeRequest[]) => {
  const request = requests.find((r) => `${r.method} ${r.path}` === CREATE_ROUTE);
  if (!(request?.body instanceof FormData)) return null;
  return JSON.parse(String(request.body.get('tiktok'))) as Record<string, Record<string, unknown>>;
};

async function composeForTikTok(overrides: object = {}) {
  const rendered = await renderComposer({
    integrations: [tiktok],
    path: '/create-post?date=2099-05-10&time=14:30',
    routes: { [CREATE_ROUTE]: created(), [creatorRoute]: creator(overrides) },
  });
  await rendered.user.click(await tile('TikTok'));
  await rendered.user.type(screen.getByLabelText('Post content'), 'At the fair');
  await rendered.user.upload(screen.getByLabelText('Add shared media'), [
    fileOf('stand.jpg', 'image/jpeg'),
  ]);
  return rendered;
}

describe('/create-post: the TikTok section', () => {
  it('names the creator and refuses to schedule until the user chose who can see it', async () => {
    const { user, server } = await composeForTikTok();
    const section = await screen.findByRole('group', { name: 'TikTok settings' });
    expect(await within(section).findByText('Tik Creator')).toBeInTheDocument();
    const privacy = within(section).getByLabelText('Who can see this post');
    expect(privacy).toHaveValue('');
    expect(
      within(privacy)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose who can see it', 'Everyone', 'Followers', 'Only me']);
    await user.click(createButton());
    const error = await within(section).findByRole('alert');
    expect(error).toHaveTextContent(
      'Choose who can see the TikTok post (TikTok does not let Herald choose for you).',
    );
    // Beside the field it is about, styled and announced as an error, and the field takes focus.
    expect(error).toHaveClass('text-red-700');
    expect(privacy).toHaveAttribute('aria-invalid', 'true');
    expect(privacy).toHaveAccessibleDescription(
      'Choose who can see the TikTok post (TikTok does not let Herald choose for you).',
    );
    expect(privacy.nextElementSibling).toBe(error);
    await waitFor(() => expect(privacy).toHaveFocus());
    expect(tiktokField(server.requests)).toBeNull();

    await user.selectOptions(privacy, 'FOLLOWER_OF_CREATOR');
    await user.click(createButton());
    await waitFor(() => expect(tiktokField(server.requests)).not.toBeNull());
    expect(tiktokField(server.requests)?.[tiktok.id]).toMatchObject({
      mode: 'direct',
      privacyLevel: 'FOLLOWER_OF_CREATOR',
      allowComments: false,
      autoAddMusic: false,
    });
  });

  it('disables what the creator turned off, and shows the disclosure with TikTok’s wording', async () => {
    const { user } = await composeForTikTok();
    const section = await screen.findByRole('group', { name: 'TikTok settings' });
    await within(section).findByText('Tik Creator');
    expect(within(section).getByRole('checkbox', { name: /Comment/ })).toBeDisabled();
    // Duet and stitch are for videos only.
    expect(within(section).queryByRole('checkbox', { name: /Duet/ })).toBeNull();
    expect(
      within(section).getByText("By posting, you agree to TikTok's Music Usage Confirmation."),
    ).toBeInTheDocument();
    await user.click(within(section).getByRole('checkbox', { name: /Disclose post content/ }));
    await user.click(within(section).getByRole('checkbox', { name: /Branded content/ }));
    expect(
      within(section).getByText(
        "By posting, you agree to TikTok's Branded Content Policy and Music Usage Confirmation.",
      ),
    ).toBeInTheDocument();
    expect(within(section).getByRole('option', { name: /Only me/ })).toBeDisabled();
  });

  it('offers only “Only me” while Herald’s app is unaudited, and says why', async () => {
    await composeForTikTok({ privacyLevelOptions: ['SELF_ONLY'], unaudited: true });
    const section = await screen.findByRole('group', { name: 'TikTok settings' });
    await within(section).findByText('Tik Creator');
    const privacy = within(section).getByLabelText('Who can see this post');
    expect(
      within(privacy)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose who can see it', 'Only me']);
    expect(
      within(section).getByText(/TikTok has not audited Herald’s app yet/),
    ).toBeInTheDocument();
  });

  it('can send the post to the TikTok inbox as a draft instead', async () => {
    const { user, server } = await composeForTikTok();
    const section = await screen.findByRole('group', { name: 'TikTok settings' });
    await user.click(
      within(section).getByRole('checkbox', {
        name: 'Send to TikTok inbox as a draft (finish in the TikTok app)',
      }),
    );
    expect(within(section).queryByLabelText('Who can see this post')).toBeNull();
    await user.click(createButton());
    await waitFor(() => expect(tiktokField(server.requests)?.[tiktok.id]?.mode).toBe('inbox'));
  });
});
