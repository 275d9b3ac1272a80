import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, seriousViolations, signInAs } from './helpers';

/** Where the screens of this walk are kept for people to look at (SHOTS_DIR, or none). */
const shots = process.env.SHOTS_DIR;

const banner = (page: Page) => page.getByRole('region', { name: 'Current subscription' });

async function shoot(page: Page, name: string, focus?: Locator) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await focus?.scrollIntoViewIfNeeded();
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

  test('the owner hands a client organization to its own Admin, and the agency’s plan stops covering it', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const origin = { origin: baseURL! };
    await signInAs(page, 'handover.owner@example.com', 'Harper Handover');
    const hq = await createOrganizationFromOnboarding(page, 'Handover Agency');
    const plans = await (await page.request.get('/api/plans')).json();
    const pro = plans.data.plans.find((p: { name: string }) => p.name === 'Pro');
    expect(
      (
        await page.request.post(`/api/organizations/${hq}/subscription/subscribe`, {
          data: { planId: pro.id },
          headers: origin,
        })
      ).ok(),
    ).toBe(true);
    const created = await page.request.post('/api/organizations', {
      data: { name: 'Elm Florist' },
      headers: origin,
    });
    const client = (await created.json()).data.organization.id as string;

    // The client's own manager joins Elm Florist as an Admin.
    const roles = await (await page.request.get(`/api/organizations/${client}/roles`)).json();
    const admin = roles.find((r: { name: string }) => r.name === 'Admin');
    const invite = await page.request.post(`/api/member/invite/${client}`, {
      data: { email: 'elm.manager@example.com', roleId: admin.id },
      headers: origin,
    });
    const token = new URL((await invite.json()).data.inviteUrl).searchParams.get('token');
    const managerContext = await browser.newContext();
    const manager = await managerContext.newPage();
    await signInAs(manager, 'elm.manager@example.com', 'Eli Manager');
    expect(
      (
        await manager.request.post('/api/member/accept-invite', {
          data: { token },
          headers: origin,
        })
      ).ok(),
    ).toBe(true);

    await page.goto('/pricing');
    await expect(banner(page)).toContainText('Covered by Pro (from Handover Agency)');
    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'Organization' });
    await expect(card.getByText('You own Elm Florist: your plan covers it.')).toBeVisible();
    await card
      .getByRole('combobox', { name: 'New owner' })
      .selectOption({ label: 'Eli Manager (elm.manager@example.com)' });
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'ownership', card.getByRole('heading', { name: 'Ownership' }));
    await card.getByRole('button', { name: 'Transfer ownership' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer ownership?' });
    await expect(dialog).toContainText('Eli Manager becomes the owner of Elm Florist.');
    await dialog.getByRole('button', { name: 'Transfer ownership' }).click();
    await expect(
      page.getByText('Elm Florist now belongs to Eli Manager.', { exact: true }),
    ).toBeVisible();
    await expect(
      card.getByText('Elm Florist belongs to Eli Manager. Only its owner can hand it on.'),
    ).toBeVisible();

    await page.goto('/pricing');
    await expect(banner(page)).not.toContainText('Covered by Pro');
    await managerContext.close();
  });
});
