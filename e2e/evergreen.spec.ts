import { expect, test } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

/** Where the screens of this walk are kept for people to look at (none when unset). */
const SHOTS = process.env.SHOTS_DIR ?? process.env.E2E_SHOTS_DIR;

test.describe('evergreen', () => {
  test('a member creates a collection, adds a post, and sees its projected fills on the calendar', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await signInAs(page, 'evergreen-owner@example.com', 'Eve Green');
    const orgId = await createOrganizationFromOnboarding(page, 'Evergreen Garden');
    await startTrial(page, orgId, baseURL ?? '');
    await page.goto('/settings');
    const platforms = page.getByRole('region', { name: 'Connected Platforms' });
    await platforms.getByRole('button', { name: 'Continue with X' }).click();
    await expect(page.getByRole('heading', { name: 'X sandbox' })).toBeVisible();
    await page.getByLabel('X username').fill('evergreen_garden');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();

    // A post worth sharing again (a draft, made through the API the composer uses).
    const accounts = await (
      await page.request.get(`/api/organizations/${orgId}/integrations`)
    ).json();
    const accountId = accounts.data.platforms[0].id as string;
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      data: {
        integrationIds: [accountId],
        content: 'How to keep basil alive all winter',
        action: 'draft',
      },
      headers: { origin: baseURL ?? '' },
    });
    expect(created.status()).toBe(201);

    await page.getByRole('link', { name: 'Evergreen', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Evergreen', level: 1 })).toBeVisible();
    await expect(page.getByText('No collections yet.')).toBeVisible();
    await page.getByRole('button', { name: 'New Collection' }).click();
    const form = page.getByRole('form', { name: 'Create Collection' });
    await form.getByLabel('Name').fill('Garden classics');
    await form.getByRole('checkbox', { name: /evergreen_garden|X/ }).check();
    await form.getByLabel('Days between repeats of a post').fill('7');
    await form.getByRole('button', { name: 'Create Collection' }).click();
    await expect(page.getByText('Collection created.', { exact: false })).toBeVisible();

    const card = page.getByRole('listitem', { name: 'Garden classics' });
    await expect(
      card.getByText('Each post at most once every 7 days.', { exact: false }),
    ).toBeVisible();
    await card.getByRole('button', { name: 'Add Posts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add posts to Garden classics' });
    await dialog.getByRole('checkbox', { name: /keep basil alive/ }).check();
    await dialog.getByRole('button', { name: 'Add Post' }).click();
    await expect(card.getByRole('link', { name: /keep basil alive/ })).toBeVisible();
    await expect(card.getByText('Not yet repeated')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}/evergreen-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SHOTS}/evergreen-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // Next week has every weekday's slots ahead: the collection fills the first empty one, and
    // once a week at most, so exactly one marker shows.
    const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/calendar?view=week&date=${nextWeek}`);
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    const markers = page.locator('[data-evergreen="true"]');
    await expect(markers).toHaveCount(1);
    await expect(markers.first()).toContainText('Evergreen: Garden classics');
    await expect(markers.first()).toHaveAttribute('title', /keep basil alive/);
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) {
      await markers.first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evergreen-calendar-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await markers.first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evergreen-calendar-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // Paused, it plans nothing.
    await page.goto('/evergreen');
    await page
      .getByRole('listitem', { name: 'Garden classics' })
      .getByRole('button', { name: 'Pause' })
      .click();
    await expect(
      page.getByRole('listitem', { name: 'Garden classics' }).getByText('Paused'),
    ).toBeVisible();
    await page.goto(`/calendar?view=week&date=${nextWeek}`);
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    await expect(page.getByText(/open slot|Empty queue slot/).first()).toBeAttached();
    await expect(markers).toHaveCount(0);
  });
});
