import { expect, test, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

const platformsCard = (page: Page) => page.getByRole('region', { name: 'Connected Platforms' });

/** Connects one account of a Meta network through its sandbox's consent page. */
async function connectMeta(
  page: Page,
  network: 'Facebook' | 'Instagram',
  fields: { pages: string; instagram?: string },
) {
  await page.goto('/settings');
  await platformsCard(page)
    .getByRole('button', { name: `Continue with ${network}` })
    .click();
  await page.getByLabel('Facebook account name').fill('Lena Lantern');
  await page.getByLabel(/Pages this account manages/).fill(fields.pages);
  if (fields.instagram)
    await page.getByLabel(/Instagram professional accounts/).fill(fields.instagram);
  await page.getByRole('button', { name: 'Approve' }).click();
  const picker = page.getByRole('dialog', { name: `Choose ${network} accounts` });
  const connected = page.getByText(`${network} connected successfully.`);
  await expect(picker.or(connected)).toBeVisible();
  if (await picker.isVisible()) {
    await picker.getByRole('checkbox').first().check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
  }
  await expect(connected).toBeVisible();
}

test.describe('inbox', () => {
  test('a DM to the Page and a comment on an Instagram post arrive live; the team assigns, labels, replies once, clears and sees it reopen', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'lena.lantern@example.com', 'Lena Lantern');
    const orgId = await createOrganizationFromOnboarding(page, 'Lantern Cafe');
    await startTrial(page, orgId, baseURL ?? '');

    await connectMeta(page, 'Facebook', { pages: 'Lantern Cafe Page' });
    await connectMeta(page, 'Instagram', { pages: 'Lantern Cafe Page', instagram: 'lantern.cafe' });
    const integrations = (
      await (await page.request.get(`/api/organizations/${orgId}/integrations`)).json()
    ).data.platforms as Array<{
      id: string;
      platform: { name: string };
      platformAccountId: string;
    }>;
    const facebook = integrations.find((i) => i.platform.name === 'Facebook')!;
    const instagram = integrations.find((i) => i.platform.name === 'Instagram')!;

    // An Instagram post published from Herald, to be commented on.
    const image = await page.screenshot({
      type: 'jpeg',
      clip: { x: 0, y: 0, width: 400, height: 400 },
    });
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        integrationIds: JSON.stringify([instagram.id]),
        content: 'Pumpkin bread is back',
        action: 'publish',
        media: { name: 'bread.jpg', mimeType: 'image/jpeg', buffer: image },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const postId = (await created.json()).data.post.id as string;
    let mediaId = '';
    await expect(async () => {
      const post = (
        await (await page.request.get(`/api/organizations/${orgId}/posts/${postId}`)).json()
      ).data.post;
      mediaId = post.platformPosts[0]?.externalId ?? '';
      expect(mediaId).not.toBe('');
    }).toPass({ timeout: 90_000, intervals: [2000] });

    // The inbox is open when the customers write: their messages appear without a reload.
    await page.goto('/inbox');
    await expect(page.getByText('No messages found')).toBeVisible();
    const dm = await page.request.post('/api/sandbox/facebook/_emu/inbox/messages', {
      headers: origin,
      data: {
        to: facebook.platformAccountId,
        fromName: 'Rosa Díaz',
        text: 'Are you open on Sunday?',
      },
    });
    expect(dm.status()).toBe(201);
    const comment = await page.request.post('/api/sandbox/instagram/_emu/inbox/comments', {
      headers: origin,
      data: { postId: mediaId, fromName: 'milo.bakes', message: 'Is it gluten free?' },
    });
    expect(comment.status()).toBe(201);

    const list = page.getByRole('list', { name: 'Conversations' });
    await expect(list.getByText('Are you open on Sunday?')).toBeVisible({ timeout: 30_000 });
    await expect(list.getByText('Is it gluten free?')).toBeVisible({ timeout: 30_000 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: /Inbox\s*2 unread conversations/ })).toBeVisible();

    // Assign, label and answer the DM.
    await list.getByRole('button', { name: /Are you open on Sunday/ }).click();
    await page.getByLabel('Assign to').selectOption({ label: 'Lena Lantern' });
    await expect(page.getByText('Assigned to Lena Lantern.')).toBeVisible();
    await page.getByRole('button', { name: 'Labels', exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: /Question/i }).click();
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('Yes, from 10 to 4.');
    await reply.press('Enter');
    const messages = page.getByRole('list', { name: 'Messages' });
    await expect(messages.getByText('Yes, from 10 to 4.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The sandbox received exactly one reply, even after the echo came back by webhook.
    await page.waitForTimeout(1500);
    const sent = await (
      await page.request.get(
        `/api/sandbox/facebook/_emu/inbox/sent?account=${facebook.platformAccountId}`,
      )
    ).json();
    expect(
      sent.messages.filter((m: { text: string }) => m.text === 'Yes, from 10 to 4.'),
    ).toHaveLength(1);
    await expect(messages.getByText('Yes, from 10 to 4.')).toHaveCount(1);

    // Done clears it from the open list; the customer writing again brings it back.
    await page
      .getByRole('region', { name: 'Conversation', exact: true })
      .getByRole('button', { name: 'Done' })
      .click();
    await expect(list.getByText('Are you open on Sunday?')).toHaveCount(0);
    await page.request.post('/api/sandbox/facebook/_emu/inbox/messages', {
      headers: origin,
      data: { to: facebook.platformAccountId, fromName: 'Rosa Díaz', text: 'Thank you!' },
    });
    await expect(list.getByText('Thank you!')).toBeVisible({ timeout: 30_000 });
  });
});
