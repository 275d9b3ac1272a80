import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Signs in through the development identity provider (a new email is a new user). */
export async function signInAs(page: Page, email: string, name: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: /continue with/i }).click();
  await expect(page.getByRole('heading', { name: 'Development sign-in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Serious or critical WCAG 2 A/AA violations on the page once it has settled. A toast caught
 * halfway through fading in or out is drawn translucent, and axe would judge its contrast on
 * that passing frame rather than on what a reader sees. Waiting for animations to finish is not
 * enough: a toast's timer can start its fade-out while axe is still reading the page. So for
 * the length of the check every animation and transition is switched off, which shows each
 * element as it looks at rest.
 */
export async function seriousViolations(page: Page) {
  const still = await page.addStyleTag({
    content: '*, *::before, *::after { animation: none !important; transition: none !important; }',
  });
  try {
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  } finally {
    await still.evaluate((el) => (el as ChildNode).remove());
  }
}

/**
 * From /onboarding (where a new user lands), creates an organization through its dialog and
 * returns the organization's id once the dashboard shows.
 */
export async function createOrganizationFromOnboarding(page: Page, name: string): Promise<string> {
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.getByRole('button', { name: 'Create Organization' }).click();
  const create = page.getByRole('dialog', { name: 'Create Organization' });
  await create.getByLabel('Organization name').fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const orgId = await page.evaluate(() => localStorage.getItem('herald.currentOrgId'));
  expect(orgId).toMatch(/^[0-9a-f-]{36}$/);
  return orgId!;
}

/**
 * Starts the organization's free trial of a plan (Basic unless named) through the API the
 * pricing screen uses.
 */
export async function startTrial(page: Page, orgId: string, baseURL: string, planName = 'Basic') {
  const plans = await (await page.request.get('/api/plans')).json();
  const plan = plans.data.plans.find((p: { name: string }) => p.name === planName);
  const trial = await page.request.post(`/api/organizations/${orgId}/subscribe/trial`, {
    data: { planId: plan.id },
    headers: { origin: baseURL },
  });
  expect(trial.ok()).toBe(true);
}
