import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const platformsCard = (page: Page) => page.getByRole('region', { name: 'Connected Platforms' });
/** Where the screens of this walk are kept for people to look at (SHOTS_DIR, or none). */
const shots = process.env.SHOTS_DIR;

/** Connects one account through the network sandbox's consent page, with its defaults unless told. */
async function connect(
  page: Page,
  button: string,
  network: string,
  fill: Record<string, string> = {},
) {
  await page.goto('/settings');
  await platformsCard(page)
    .getByRole('button', { name: `Continue with ${button}` })
    .click();
  await expect(page.getByRole('heading', { name: `${network} sandbox` })).toBeVisible();
  for (const [label, value] of Object.entries(fill))
    await page.getByLabel(new RegExp(label)).fill(value);
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

/** The conversation list is on screen, with room for a conversation, and takes a click. */
async function expectListUsable(page: Page, minHeight: number) {
  const list = page.getByRole('list', { name: 'Conversations' });
  const rosa = list.getByRole('button', { name: /Rosa Díaz/ });
  await expect(rosa).toBeInViewport({ ratio: 1 });
  const box = (await page.getByRole('region', { name: 'Conversation list' }).boundingBox())!;
  expect(box.height).toBeGreaterThan(minHeight);
  await rosa.click();
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText(
    'Are you open on Sunday?',
  );
}

test.describe('inbox, first visit', () => {
  test('with six networks connected, one line sums up the accounts and the list is usable at once', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAs(page, 'olga.orchard@example.com', 'Olga Orchard');
    const orgId = await createOrganizationFromOnboarding(page, 'Orchard Studio');
    await startTrial(page, orgId, baseURL ?? '');

    await connect(page, 'X', 'X', { 'X username': 'orchard_x' });
    await connect(page, 'Facebook', 'Facebook', {
      'Facebook account name': 'Olga Orchard',
      'Pages this account manages': 'Orchard Studio Page',
    });
    await connect(page, 'Instagram', 'Instagram', {
      'Facebook account name': 'Olga Orchard',
      'Pages this account manages': 'Orchard Studio Page',
      'Instagram professional accounts': 'orchard.studio',
    });
    await connect(page, 'Threads', 'Threads');
    await connect(page, 'TikTok', 'TikTok');
    await connect(page, 'LinkedIn profile', 'LinkedIn');

    const integrations = (
      await (await page.request.get(`/api/organizations/${orgId}/integrations`)).json()
    ).data.platforms as Array<{ platform: { name: string }; platformAccountId: string }>;
    expect(integrations).toHaveLength(6);
    const facebook = integrations.find((i) => i.platform.name === 'Facebook')!;

    await page.goto('/inbox');
    const note = page.getByRole('region', { name: 'About your accounts' });
    await expect(note).toHaveCount(1);
    await expect(note).toContainText(/of 6 accounts bring in messages and comments/);
    const dm = await page.request.post('/api/sandbox/facebook/_emu/inbox/messages', {
      headers: { origin: baseURL ?? '' },
      data: {
        to: facebook.platformAccountId,
        fromName: 'Rosa Díaz',
        text: 'Are you open on Sunday?',
      },
    });
    expect(dm.status()).toBe(201);
    // Named in the list before anyone opens the conversation.
    await expect(
      page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Rosa Díaz/ }),
    ).toBeVisible();

    if (shots) {
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: `${shots}/inbox-1280x800.png` });
    }
    // What each account brings in, on demand, over the list.
    await note.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog', { name: 'What each account brings in' });
    await expect(details.getByRole('listitem')).toHaveCount(6);
    if (shots) await page.screenshot({ path: `${shots}/inbox-1280x800-details.png` });
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    // On a desktop the list fills the screen's height, whatever the number of accounts.
    await expectListUsable(page, 500);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/inbox');
    await expect(page.getByRole('region', { name: 'About your accounts' })).toHaveCount(1);
    if (shots) await page.screenshot({ path: `${shots}/inbox-390x844.png` });
    await page
      .getByRole('region', { name: 'About your accounts' })
      .getByRole('button', { name: 'Details' })
      .click();
    if (shots) await page.screenshot({ path: `${shots}/inbox-390x844-details.png` });
    await page.keyboard.press('Escape');
    // On a phone the page scrolls; the list is as tall as its conversations.
    await expectListUsable(page, 150);

    // Dismissed, it stays away after a reload.
    await page.goto('/inbox');
    await page.getByRole('button', { name: 'Dismiss the note about your accounts' }).click();
    await page.reload();
    await expect(page.getByRole('list', { name: 'Conversations' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'About your accounts' })).toHaveCount(0);
  });
});
