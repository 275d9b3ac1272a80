import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

/** Where the screens of this walk are kept for people to look at (SHOTS_DIR, or none). */
const shots = process.env.SHOTS_DIR;

async function shoot(page: Page, name: string, focus?: Locator) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mastodon-${name}-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

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

  test('a content warning, a visibility and a language are chosen in the composer and kept', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    await signInAs(page, 'mastodon.composer@example.com', 'Cai Composer');
    const orgId = await createOrganizationFromOnboarding(page, 'Spoiler Club');
    await startTrial(page, orgId, baseURL ?? '');

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with Mastodon' }).click();
    await card.getByLabel('Your Mastodon server').fill('social.example');
    await card.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await page.getByLabel('Username on social.example').fill('cai');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Mastodon connected successfully.')).toBeVisible();

    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByRole('link', { name: 'Create Post' }).click();
    const box = page.getByRole('checkbox', { name: 'Mastodon', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await expect(box).toBeChecked();
    await page.getByLabel('Post content').fill('The butler did it, in the library.');

    const section = page.getByRole('region', { name: 'Mastodon' });
    await section.getByLabel('Content warning').fill('Mystery ending');
    await section.getByLabel('Visibility').selectOption('unlisted');
    await section.getByLabel('Language').selectOption('en');

    // The preview hides the text behind the warning until "Show more", as Mastodon does.
    const preview = page.getByRole('article', { name: 'Mastodon preview' });
    await expect(preview.getByText('Mystery ending')).toBeVisible();
    await expect(preview.getByText('The butler did it')).toHaveCount(0);
    await shoot(page, 'composer-settings', section);
    await preview.getByRole('button', { name: 'Show more' }).click();
    await expect(preview.getByText('The butler did it')).toBeVisible();
    // On a phone the preview is one tap away; from then on it shows at both widths.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Show preview' }).click();
    await shoot(page, 'preview-open', preview);
    expect(await seriousViolations(page)).toEqual([]);

    // A draft keeps them; editing it shows them again.
    await expect(page.getByRole('radio', { name: 'Save as draft' })).toBeChecked();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/content$/);
    const posts = (
      await (await page.request.get(`/api/organizations/${orgId}/posts?status=draft`)).json()
    ).data.posts as Array<{ id: string; platformPosts: Array<{ mastodon: unknown }> }>;
    expect(posts[0]!.platformPosts[0]!.mastodon).toEqual({
      spoilerText: 'Mystery ending',
      visibility: 'unlisted',
      language: 'en',
    });
    await page.goto(`/content/${posts[0]!.id}/edit`);
    const again = page.getByRole('region', { name: 'Mastodon' });
    await expect(again.getByLabel('Content warning')).toHaveValue('Mystery ending');
    await expect(again.getByLabel('Visibility')).toHaveValue('unlisted');
    await expect(again.getByLabel('Language')).toHaveValue('en');
  });
});
