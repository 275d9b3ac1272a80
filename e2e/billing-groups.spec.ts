import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, seriousViolations, signInAs } from './helpers';

/** Where the screens of this walk are kept for people to look at (SHOTS_DIR, or none). */
const shots = process.env.SHOTS_DIR;

const banner = (page: Page) => page.getByRole('region', { name: 'Current subscription' });

async function shoot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${shots}/billing-group-${name}-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('billing groups', () => {
  test('an agency’s plan covers its client organizations, and the payer lists them', async ({
    page,
    baseURL,
  }) => {
    await signInAs(page, 'agency.owner@example.com', 'Avery Agency');
    const hq = await createOrganizationFromOnboarding(page, 'Northwind Agency');
    const plans = await (await page.request.get('/api/plans')).json();
    const pro = plans.data.plans.find((p: { name: string }) => p.name === 'Pro');
    const subscribed = await page.request.post(`/api/organizations/${hq}/subscription/subscribe`, {
      data: { planId: pro.id },
      headers: { origin: baseURL! },
    });
    expect(subscribed.ok()).toBe(true);
    // Each new organization becomes the current one; the last is where the walk starts.
    for (const name of ['Bluebird Bakery', 'Cedar Dental']) {
      const created = await page.request.post('/api/organizations', {
        data: { name },
        headers: { origin: baseURL! },
      });
      expect(created.status()).toBe(201);
    }

    await page.goto('/pricing');
    await expect(banner(page)).toContainText('Covered by Pro (from Northwind Agency)');
    await expect(banner(page)).toContainText('Northwind Agency pays for this plan.');
    await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'covered');

    await banner(page).getByRole('button', { name: 'Open Northwind Agency billing' }).click();
    const panel = page.getByRole('region', { name: 'Organizations covered' });
    await expect(panel).toContainText('3 of 10 organizations covered');
    await expect(banner(page)).toContainText('You are currently on the Pro plan');
    for (const name of ['Northwind Agency', 'Bluebird Bakery', 'Cedar Dental']) {
      await expect(panel.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    }
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'payer');
  });
});
