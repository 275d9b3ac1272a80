import { expect, test } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const TEXT = 'Long-form notes from the writers server';

test.describe('Mastodon', () => {
  test('an owner connects an account on a Mastodon server of their choosing and publishes to it', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'mastodon.owner@example.com', 'Mira Mastodon');
    const orgId = await createOrganizationFromOnboarding(page, 'Fediverse Notes');
    await startTrial(page, orgId, baseURL ?? '');

    // Settings: Mastodon asks which server the account is on, then goes to that server.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with Mastodon' }).click();
    await card.getByLabel('Your Mastodon server').fill('@mira@writers.example');
    await card.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await expect(
      page.getByRole('heading', { name: 'Mastodon (writers.example) sandbox' }),
    ).toBeVisible();
    await page.getByLabel('Username on writers.example').fill('mira');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByText('Mastodon connected successfully.')).toBeVisible();
    const account = card.getByRole('region', { name: 'Mastodon accounts' }).getByRole('listitem');
    await expect(account).toContainText('mira@writers.example');

    // The account's own server allows 1,000 characters: Herald counts against that.
    const integrations = (
      await (await page.request.get(`/api/organizations/${orgId}/integrations`)).json()
    ).data.platforms as Array<{ id: string; textLimit: number | null; platform: { name: string } }>;
    const mastodon = integrations.find((i) => i.platform.name === 'Mastodon')!;
    expect(mastodon.textLimit).toBe(1000);

    // Published at once; the post's link leads to the status on that server.
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        integrationIds: JSON.stringify([mastodon.id]),
        content: `${TEXT} ${'.'.repeat(600)}`,
        action: 'publish',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const postId = (await created.json()).data.post.id as string;
    await page.goto(`/content/${postId}`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('link', { name: 'View on Mastodon' })).toBeVisible({
        timeout: 2000,
      });
    }).toPass({ timeout: 90_000, intervals: [2000] });
    await expect(page.getByRole('link', { name: 'View on Mastodon' })).toHaveAttribute(
      'href',
      /\/sandbox\/mastodon\/writers\.example\/@mira\/\d+$/,
    );
  });
});
