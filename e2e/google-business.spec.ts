import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(dir, `${name}-${width}x${height}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('Google Business Profile', () => {
  test('an agency connects one of its locations, publishes an offer there and answers a review in the inbox', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await signInAs(page, 'gbp-owner@example.com', 'Gina Business');
    const orgId = await createOrganizationFromOnboarding(page, 'Corner Agency');
    await startTrial(page, orgId, baseURL ?? '');

    // Google's consent page: the Google account and the locations it manages.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with Google Business Profile' }).click();
    await page.getByLabel('Google account name').fill('Gina Agency');
    await page.getByLabel(/^Locations of this Google account/).fill('Corner Bakery, Harbour Cafe');
    await page.getByRole('button', { name: 'Approve' }).click();
    // Several locations: Herald asks which to connect.
    const picker = page.getByRole('dialog');
    await expect(picker.getByText('Harbour Cafe', { exact: true })).toBeVisible();
    await picker.getByRole('checkbox', { name: /Harbour Cafe/ }).uncheck();
    await picker.getByRole('checkbox', { name: /Corner Bakery/ }).check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
    await expect(page.getByText('Google Business Profile connected successfully.')).toBeVisible();
    const accounts = card.getByRole('region', { name: 'Google Business Profile accounts' });
    await expect(accounts.getByRole('listitem')).toHaveCount(1);
    await expect(accounts).toContainText('Corner Bakery');

    // Compose an offer: title and dates are asked for, the coupon and terms are shown as Google shows them.
    await page.goto('/create-post');
    const box = page.getByRole('checkbox', { name: 'Google Business Profile', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await expect(box).toBeChecked();
    await page.getByLabel('Post content').fill('Two loaves for the price of one, all week.');
    const section = page.getByRole('region', { name: 'Google Business Profile' });
    await section.getByRole('radio', { name: 'Offer' }).check();
    await page.getByRole('radio', { name: 'Publish now' }).check();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await expect(section.getByText('An offer post needs a title.')).toBeVisible();
    await section.getByLabel('Offer title').fill('Two for one');
    await section.getByLabel('Starts on').fill('2026-12-07');
    await section.getByLabel('Ends on').fill('2026-12-13');
    await section.getByLabel('Coupon code (optional)').fill('TWOFORONE');
    await section.getByLabel('Terms and conditions (optional)').fill('One per customer.');
    const preview = page.getByTestId('google-business-preview');
    await expect(preview.getByText('TWOFORONE')).toBeAttached();
    await shot(page, 'gbp-composer');
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish now' })
      .click();
    await expect(page.getByRole('dialog', { name: 'Publishing finished' })).toBeVisible({
      timeout: 90_000,
    });
    const item = page
      .getByRole('dialog', { name: 'Publishing finished' })
      .getByRole('listitem', { name: /^Google Business Profile / });
    await expect(item.getByText('Published', { exact: true })).toBeVisible();

    // The sandbox holds one offer at the location, as composed.
    const integrations = (
      await (await page.request.get(`/api/organizations/${orgId}/integrations`)).json()
    ).data.platforms as Array<{ platformAccountId: string; platform: { name: string } }>;
    const location = integrations.find((i) => i.platform.name === 'Google Business Profile')!;
    const posts = (
      await (
        await page.request.get(
          `/api/sandbox/googlebusiness/_emu/local-posts?locationId=${location.platformAccountId}`,
        )
      ).json()
    ).localPosts as Array<Record<string, unknown>>;
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      topicType: 'OFFER',
      summary: 'Two loaves for the price of one, all week.',
      event: { title: 'Two for one' },
      offer: { couponCode: 'TWOFORONE', termsConditions: 'One per customer.' },
    });

    // The location's review came in with its stars; the reply goes to Google.
    await page.goto('/inbox');
    const list = page.getByRole('list', { name: 'Conversations' });
    await expect(list.getByText(/Friendly staff at Corner Bakery/)).toBeVisible({
      timeout: 60_000,
    });
    const row = list.getByRole('button', { name: /Friendly staff at Corner Bakery/ });
    // The stars are drawn, and named for whoever cannot see them; the words stay words.
    await expect(row.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(row).not.toContainText('★');
    await row.click();
    await expect(
      page.getByRole('list', { name: 'Messages' }).getByRole('img', { name: '5 out of 5 stars' }),
    ).toBeVisible();
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('Thank you, Sam! See you soon.');
    await reply.press('Enter');
    const messages = page.getByRole('list', { name: 'Messages' });
    await expect(messages.getByText('Thank you, Sam! See you soon.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'gbp-inbox-review');
    await expect(async () => {
      const reviews = (
        await (
          await page.request.get(
            `/api/sandbox/googlebusiness/_emu/reviews?locationId=${location.platformAccountId}`,
          )
        ).json()
      ).reviews as Array<{ reviewReply?: { comment: string } }>;
      expect(reviews[0]?.reviewReply?.comment).toBe('Thank you, Sam! See you soon.');
    }).toPass({ timeout: 20_000 });

    // A business deletes its answer, never the review: Delete sits on the reply alone.
    const review = messages.getByRole('article', { name: /^Message from/ });
    await expect(
      review.getByRole('button', { name: 'Delete on Google Business Profile' }),
    ).toHaveCount(0);
    const answer = messages.getByRole('article', { name: /^Reply from/ });
    await answer.getByRole('button', { name: 'Delete on Google Business Profile' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this reply?' });
    await confirm.getByRole('button', { name: 'Delete reply' }).click();
    await expect(async () => {
      const reviews = (
        await (
          await page.request.get(
            `/api/sandbox/googlebusiness/_emu/reviews?locationId=${location.platformAccountId}`,
          )
        ).json()
      ).reviews as Array<{ reviewReply?: { comment: string } }>;
      expect(reviews[0]?.reviewReply ?? null).toBeNull();
    }).toPass({ timeout: 20_000 });
  });
});
