import { expect, test } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

test.describe('organization switcher', () => {
  test('a person in two organizations switches from the top bar and stays on the calendar', async ({
    page,
    baseURL,
  }, testInfo) => {
    await signInAs(page, 'switcher@example.com', 'Sam Switcher');
    const first = await createOrganizationFromOnboarding(page, 'Harbour Bakery');
    // Basic allows two organizations.
    await startTrial(page, first, baseURL!);
    await page.goto('/onboarding');
    const second = await createOrganizationFromOnboarding(page, 'Tidewater Books');
    expect(second).not.toBe(first);

    await page.goto('/calendar?view=week&date=2026-03-09');
    const button = page.getByRole('button', { name: /Organization: Tidewater Books/ });
    await button.click();
    const panel = page.getByRole('dialog', { name: 'Switch organization' });
    await expect(panel.getByRole('button', { name: /Harbour Bakery/ })).toBeVisible();
    await expect(panel.getByRole('button', { name: /Tidewater Books/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('switcher-1280x800.png') });

    await panel.getByRole('button', { name: /Harbour Bakery/ }).click();
    await expect(page.getByRole('button', { name: /Organization: Harbour Bakery/ })).toBeVisible();
    await expect(page).toHaveURL(/\/calendar\?date=2026-03-09&view=week$/);
    expect(await page.evaluate(() => localStorage.getItem('herald.currentOrgId'))).toBe(first);
    // The server keeps the switch: a reload is still in the bakery.
    await page.reload();
    await expect(page.getByRole('button', { name: /Organization: Harbour Bakery/ })).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: /Organization: Harbour Bakery/ }).click();
    await expect(panel.getByRole('button', { name: /Tidewater Books/ })).toBeVisible();
    const box = await panel.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: testInfo.outputPath('switcher-390x844.png') });
    await panel.getByRole('button', { name: /Tidewater Books/ }).click();
    await expect(page.getByRole('button', { name: /Organization: Tidewater Books/ })).toBeVisible();
    await expect(page).toHaveURL(/\/calendar/);

    // Both organizations side by side: All clients, from the switcher.
    await page.getByRole('button', { name: /Organization: Tidewater Books/ }).click();
    await panel.getByRole('link', { name: /All clients/ }).click();
    await expect(page.getByRole('heading', { name: 'All clients', level: 1 })).toBeVisible();
    await expect(page.getByText('The calendars of Harbour Bakery, Tidewater Books.')).toBeVisible();
    await page.getByRole('tab', { name: 'Approvals' }).click();
    await expect(page.getByText('Nothing is waiting for your approval.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('all-clients-390x844.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('tab', { name: 'Calendar' }).click();
    await page.screenshot({ path: testInfo.outputPath('all-clients-1280x800.png') });
  });
});
