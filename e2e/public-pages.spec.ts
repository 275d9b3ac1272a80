import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test.describe('public pages', () => {
  test('the landing page shows the features, reviews and pricing states', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Features' }).first()).toBeVisible();
    for (const feature of [
      'Smart Scheduling',
      'Advanced Analytics',
      'Unified Inbox',
      'Team Collaboration',
      'Auto-Posting',
      'Secure & Reliable',
    ]) {
      await expect(page.getByText(feature, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByRole('link', { name: /start free trial/i }).first()).toBeVisible();
  });

  for (const path of [
    '/',
    '/login',
    '/privacy-policy',
    '/terms-of-service',
    '/cookie-policy',
    '/404',
  ]) {
    test(`${path} has no serious accessibility violations`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = results.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(
        serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }

  test('an unknown path shows Page Not Found', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  });

  test('the cookie banner remembers the choice', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Accept All' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Accept All' })).toHaveCount(0);
    expect(await page.evaluate(() => Object.values(localStorage))).toContain('accepted');
  });

  test('the API documentation is served', async ({ request }) => {
    const res = await request.get('/api/docs/json');
    expect(res.ok()).toBe(true);
    expect((await res.json()).openapi).toMatch(/^3\./);
  });
});
