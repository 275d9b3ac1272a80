import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, seriousViolations, signInAs } from './helpers';

// ADMIN_EMAILS in playwright.config.ts makes this address an operator at sign-in.
const OPERATOR = { email: 'operator@example.com', name: 'Opal Operator' };
const PLAN_NAME = 'Agency E2E';

const table = (page: Page, name: string) => page.getByRole('table', { name });
const row = (page: Page, tableName: string, name: string) =>
  table(page, tableName)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name }) });

test.describe('the back-office', () => {
  test('is closed to people who are not operators', async ({ page }) => {
    await signInAs(page, 'not.an.operator@example.com', 'Nora Nobody');
    await expect(page).toHaveURL(/\/onboarding$/);
    for (const path of ['/admin/dashboard', '/admin/users', '/admin/plans', '/admin/platforms']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/403$/);
      await expect(page.getByRole('heading', { name: 'Access Forbidden' })).toBeVisible();
    }
    const api = await page.request.get('/api/users');
    expect(api.status()).toBe(403);
    expect((await api.json()).message).toBe('This area is for platform operators only.');
  });

  test('an operator creates a plan, deactivates a platform and edits a user', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);

    // Someone whose name the operator will correct, signed in in their own browser.
    const other = await browser.newContext();
    const person = await other.newPage();
    await signInAs(person, 'eddie.edit@example.com', 'Eddie Typo');
    await expect(person).toHaveURL(/\/onboarding$/);

    await signInAs(page, OPERATOR.email, OPERATOR.name);
    // Pricing and Settings belong to an organization: the operator makes one first.
    await createOrganizationFromOnboarding(page, 'Operator Org');

    // The dashboard: greeting, totals from the server, the chart and the audit log.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByText(`Hi, ${OPERATOR.name}!`)).toBeVisible();
    const totals = page.getByRole('navigation', { name: 'Totals' });
    await expect(totals.getByRole('link', { name: /^Platforms \d+$/ })).toBeVisible();
    await expect(
      page.getByRole('img', { name: /^Sign-ups and posts per day from .*: \d+ sign-ups/ }),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Plans: create one through the modal; the pricing page offers it at once.
    await page
      .getByRole('navigation', { name: 'Back-office' })
      .getByRole('link', { name: 'Plans' })
      .click();
    await expect(page.getByRole('heading', { name: 'Plan Management' })).toBeVisible();
    await expect(row(page, 'Plans', 'Starter')).toBeVisible();
    await page.getByRole('button', { name: 'New Plan' }).click();
    const create = page.getByRole('dialog', { name: 'Create Plan' });
    await create.getByRole('button', { name: 'Create Plan' }).click();
    await expect(create.getByText('Name is required.')).toBeVisible();
    await create.getByLabel('Name', { exact: true }).fill(PLAN_NAME);
    await create.getByLabel('Description').fill('For agencies with many clients.');
    await create.getByLabel('Price', { exact: true }).fill('49');
    await create.getByLabel('Invites', { exact: true }).fill('15');
    await create.getByLabel('Priority support').check();
    expect(await seriousViolations(page)).toEqual([]);
    await create.getByRole('button', { name: 'Create Plan' }).click();
    await expect(page.getByText('Plan created successfully!')).toBeVisible();
    await expect(create).toBeHidden();
    await expect(row(page, 'Plans', PLAN_NAME)).toContainText('$49.00');

    await page.goto('/pricing');
    const card = page
      .getByRole('list', { name: 'Plans' })
      .getByRole('listitem', { name: PLAN_NAME });
    await expect(card.getByText('$49.00/month')).toBeVisible();
    await expect(card.getByText('Priority Support: Yes')).toBeVisible();

    // Platforms: TikTok is offered in Settings until the operator deactivates it.
    await page.goto('/settings');
    const connect = page.getByRole('list', { name: 'Connect a platform' });
    await expect(connect.getByRole('button', { name: 'Continue with TikTok' })).toBeVisible();

    await page.goto('/admin/platforms');
    const tiktok = row(page, 'Platforms', 'TikTok');
    await expect(tiktok.getByRole('img', { name: 'TikTok logo' })).toBeVisible();
    await expect(tiktok.getByText('Active', { exact: true })).toBeVisible();
    await tiktok.getByRole('switch', { name: 'TikTok active' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate Platform' });
    await expect(confirm).toContainText('Are you sure you want to deactivate "TikTok"?');
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('Platform deactivated successfully!')).toBeVisible();
    await expect(tiktok.getByText('Inactive', { exact: true })).toBeVisible();

    await page.goto('/settings');
    await expect(connect.getByRole('button', { name: 'Continue with X' })).toBeVisible();
    await expect(connect.getByRole('button', { name: 'Continue with TikTok' })).toHaveCount(0);

    // Users: find the person, correct their name; they see it themselves.
    await page.goto('/admin/users');
    await page.getByRole('searchbox', { name: 'Search users' }).fill('EDDIE.EDIT');
    const eddie = table(page, 'Users').getByRole('row', { name: /eddie\.edit@example\.com/ });
    await expect(eddie).toContainText('Eddie Typo');
    await expect(table(page, 'Users').getByRole('row')).toHaveCount(2);
    await eddie.getByRole('button', { name: /View/ }).click();
    const details = page.getByRole('dialog', { name: 'User Details' });
    await details.getByRole('button', { name: 'Edit' }).click();
    await details.getByLabel('Display Name').fill('Eddie Edited');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('User updated successfully!')).toBeVisible();
    await expect(details.getByText('Eddie Edited', { exact: true }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(eddie).toContainText('Eddie Edited');

    await person.reload();
    await person.getByRole('button', { name: /Open profile menu for/ }).click();
    await expect(person.getByRole('menu')).toContainText('Eddie Edited');
    await other.close();

    // Every change is in the audit log, newest first.
    await page.goto('/admin/dashboard');
    const log = page.getByRole('list', { name: 'Operator actions' });
    await expect(log).toContainText(`${OPERATOR.email} updated the user eddie.edit@example.com`);
    await expect(log).toContainText('display name: “Eddie Typo” → “Eddie Edited”');
    await expect(log).toContainText(`${OPERATOR.email} deactivated the platform TikTok`);
    await expect(log).toContainText(`${OPERATOR.email} created the plan ${PLAN_NAME}`);

    // Put the shared server back as the other specs expect it: TikTok on, the plan off sale.
    await page.goto('/admin/platforms');
    await row(page, 'Platforms', 'TikTok').getByRole('switch', { name: 'TikTok active' }).click();
    await page
      .getByRole('dialog', { name: 'Activate Platform' })
      .getByRole('button', { name: 'Activate' })
      .click();
    await expect(page.getByText('Platform activated successfully!')).toBeVisible();
    await page.goto('/admin/plans');
    await row(page, 'Plans', PLAN_NAME).getByRole('button', { name: /Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Plan' });
    await edit.getByLabel('Status', { exact: true }).selectOption('INACTIVE');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Plan updated successfully!')).toBeVisible();
    await expect(row(page, 'Plans', PLAN_NAME)).toContainText('Inactive');
  });
});
