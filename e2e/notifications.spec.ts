import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, seriousViolations, signInAs } from './helpers';

const ORG_NAME = 'Bellwether Media';
const TRIAL_MESSAGE = 'Your 7-day free trial of Basic has started.';

const listPane = (page: Page) => page.getByRole('region', { name: 'Notification list' });
const detailPane = (page: Page) => page.getByRole('region', { name: 'Notification details' });
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const tab = (page: Page, name: string) =>
  listPane(page).getByRole('tab', { name: new RegExp(`^${name}`) });
const stat = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Statistics' })
    .getByText(label, { exact: true })
    .locator('xpath=following-sibling::dd[1]');

test.describe('notifications and the dashboard', () => {
  test('a billing change reaches the open notifications page live, and the dashboard shows it', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);

    await signInAs(page, 'bell.owner@example.com', 'Bea Bell');
    const orgId = await createOrganizationFromOnboarding(page, ORG_NAME);

    // A brand-new organization: real figures, nothing made up.
    await expect(page.getByRole('heading', { name: `${ORG_NAME} Dashboard` })).toBeVisible();
    await expect(stat(page, 'Total Posts')).toHaveText('0');
    await expect(stat(page, 'Unread Messages')).toHaveText('0');
    await expect(stat(page, 'Engagement Rate')).toHaveText('No data yet');
    await expect(page.getByText('85%')).toHaveCount(0);
    await expect(page.getByText('1 member', { exact: true })).toBeVisible();
    const platforms = page.getByRole('region', { name: 'Connected Platforms' });
    await expect(platforms.getByText(/^0 connected · \d+ supported$/)).toBeVisible();
    await expect(platforms.getByText('No platforms connected yet.')).toBeVisible();
    const plan = page.getByRole('region', { name: 'Your plan' });
    await expect(plan).toContainText('No active plan');
    await expect(plan.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing');
    // The inbox has no data: its sidebar link carries no count.
    await expect(sidebar(page).getByRole('link', { name: 'Inbox' })).toHaveText('Inbox');
    expect(await seriousViolations(page)).toEqual([]);

    // The notifications page, empty.
    await sidebar(page).getByRole('link', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByText('0 notifications available')).toBeVisible();
    await expect(listPane(page).getByText('You have no notifications yet.')).toBeVisible();
    await expect(detailPane(page).getByText('No Notification Selected')).toBeVisible();

    // Billing changes through the API, outside this page: the notification arrives by itself.
    const plans = await page.request.get('/api/plans');
    const basic = (await plans.json()).data.plans.find((p: any) => p.name === 'Basic');
    expect(basic?.id).toBeTruthy();
    const trial = await page.request.post(`/api/organizations/${orgId}/subscribe/trial`, {
      data: { planId: basic.id },
      headers: { origin: baseURL ?? '' },
    });
    expect(trial.ok()).toBe(true);

    const item = listPane(page).getByRole('listitem', { name: TRIAL_MESSAGE });
    await expect(item).toBeVisible();
    await expect(item).toContainText('Subscription Update');
    await expect(page.getByText('1 notification available')).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Notifications 1 unread' })).toBeVisible();
    await tab(page, 'Unread').click();
    await expect(item).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Opening it reads it: it leaves Unread for Read, and the badge goes.
    await item.getByRole('button', { name: /Subscription Update/ }).click();
    await expect(
      detailPane(page).getByRole('heading', { name: 'Subscription Update' }),
    ).toBeVisible();
    await expect(detailPane(page).getByText(TRIAL_MESSAGE)).toBeVisible();
    await expect(listPane(page).getByText('No unread notifications.')).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Notifications' })).toHaveText(
      'Notifications',
    );
    await tab(page, 'Read').click();
    await expect(item).toBeVisible();

    // Unread again, one at a time; then all read at once. The server keeps each change.
    await item.getByRole('button', { name: 'Mark as unread' }).click();
    await expect(listPane(page).getByText('No read notifications.')).toBeVisible();
    await tab(page, 'Unread').click();
    await expect(item).toBeVisible();
    await listPane(page).getByRole('button', { name: 'Mark all as read' }).click();
    await expect(listPane(page).getByText('No unread notifications.')).toBeVisible();
    await page.reload();
    await tab(page, 'Read').click();
    await expect(listPane(page).getByRole('listitem', { name: TRIAL_MESSAGE })).toBeVisible();

    // The dashboard now shows the trial.
    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    await expect(plan).toContainText('Free trial of Basic');
    await expect(plan).toContainText('7 days left in your trial.');
    await expect(plan.getByRole('link', { name: 'Manage Plan' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await expect(page.getByText('1 member', { exact: true })).toBeVisible();
    await expect(platforms.getByText(/^0 connected/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
