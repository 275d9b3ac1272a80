import { expect, test, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

const ORG_NAME = 'Signal Studio';
const NO_SUBSCRIPTION =
  'No active subscription found. Please subscribe to a plan to connect accounts.';

const platformsCard = (page: Page) => page.getByRole('region', { name: 'Connected Platforms' });
const accountsOf = (page: Page, platform: string) =>
  platformsCard(page).getByRole('region', { name: `${platform} accounts` });

test.describe('connected networks', () => {
  test('an owner connects X, a Facebook Page and a LinkedIn Page through the sandboxes, refreshes and disconnects', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);

    await signInAs(page, 'networks.owner@example.com', 'Nora Networks');
    const orgId = await createOrganizationFromOnboarding(page, ORG_NAME);

    // Account Settings: the profile first.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'Account Settings', level: 1 })).toBeVisible();
    const profile = page.getByRole('region', { name: 'Profile' });
    await expect(profile.getByRole('group', { name: 'Email' })).toContainText(
      'networks.owner@example.com',
    );
    await profile.getByLabel('Display Name').fill('Nora N.');
    await profile.getByLabel('Timezone').selectOption('Europe/Paris');
    await profile.getByRole('button', { name: 'Save Profile' }).click();
    await expect(page.getByText('Settings saved successfully!')).toBeVisible();
    await expect(profile.getByText('Nora N.', { exact: true })).toBeVisible();

    // Every network runs through its local sandbox on this server, and the page says so.
    const connectX = platformsCard(page).getByRole('button', { name: 'Continue with X' });
    await expect(connectX).toHaveAccessibleDescription('Sandbox');
    await expect(platformsCard(page).getByText('No platforms connected')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Without a plan the server refuses, and the page offers the way to one.
    await connectX.click();
    await expect(page).toHaveURL(/\/settings$/);
    const refusal = page.getByRole('alert').filter({ hasText: NO_SUBSCRIPTION });
    await expect(refusal).toBeVisible();
    await expect(refusal.getByRole('link', { name: 'View Plans' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await refusal.getByRole('button', { name: 'Dismiss' }).click();

    await startTrial(page, orgId, baseURL ?? '');

    // X: its sandbox consent page, then back on /settings with the account listed.
    await connectX.click();
    await expect(page.getByRole('heading', { name: 'X sandbox' })).toBeVisible();
    await page.getByLabel('X username').fill('nora_signal');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByText('X connected successfully.')).toBeVisible();
    const xAccount = accountsOf(page, 'X').getByRole('listitem');
    await expect(xAccount).toHaveCount(1);
    await expect(xAccount).toContainText('nora_signal');
    await expect(xAccount).toContainText('Connected');
    await expect(xAccount.getByText('Sandbox')).toBeVisible();

    // Facebook: one sign-in manages two Pages; the picker connects the chosen one.
    await platformsCard(page).getByRole('button', { name: 'Continue with Facebook' }).click();
    await expect(page.getByRole('heading', { name: 'Facebook sandbox' })).toBeVisible();
    await page.getByLabel('Facebook account name').fill('Nora Facebook');
    await page
      .getByLabel(/Pages this account manages/)
      .fill('Signal Studio Page, Signal Jobs, Signal Watch (ANALYZE)');
    await page.getByRole('button', { name: 'Approve' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose Facebook accounts' });
    await expect(picker).toBeVisible();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(picker.getByRole('checkbox')).toHaveCount(3);
    // A Page where the person cannot create content is shown, but not connectable.
    const watch = picker.getByRole('checkbox', { name: /Signal Watch/ });
    await expect(watch).toBeDisabled();
    await expect(watch).toHaveAccessibleDescription(/CREATE_CONTENT/);
    await expect(picker.getByRole('button', { name: 'Connect selected' })).toBeDisabled();
    expect(await seriousViolations(page)).toEqual([]);
    await picker.getByRole('checkbox', { name: /Signal Studio Page/ }).check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
    await expect(page.getByText('Facebook connected successfully.')).toBeVisible();
    await expect(picker).toBeHidden();
    const pages = accountsOf(page, 'Facebook').getByRole('listitem');
    await expect(pages).toHaveCount(1);
    await expect(pages).toContainText('Signal Studio Page');

    // LinkedIn: a personal profile or a Page, each through its own LinkedIn app; a member reads
    // what each posts as (which app products they need is for operators).
    const linkedInProfile = platformsCard(page).getByRole('button', {
      name: 'Continue with LinkedIn profile',
    });
    await expect(linkedInProfile).toHaveAccessibleDescription(/personal LinkedIn profile/);
    const linkedInPage = platformsCard(page).getByRole('button', {
      name: 'Continue with LinkedIn Page',
    });
    await expect(linkedInPage).toHaveAccessibleDescription(/LinkedIn Page you administer/);
    await expect(platformsCard(page)).not.toContainText('Community Management API');
    await linkedInPage.click();
    await expect(page.getByRole('heading', { name: 'LinkedIn sandbox' })).toBeVisible();
    await page.getByLabel('LinkedIn member name').fill('Nora Linked');
    await page.getByLabel(/Organization pages this member has a role on/).fill('Signal Studio Co');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('LinkedIn connected successfully.')).toBeVisible();
    await expect(accountsOf(page, 'LinkedIn').getByRole('listitem')).toContainText(
      'Signal Studio Co',
    );

    // X tokens renew on demand.
    await accountsOf(page, 'X').getByRole('button', { name: 'Refresh tokens for X' }).click();
    await expect(page.getByText('Access tokens refreshed for X')).toBeVisible();

    // Disconnecting the Page, after confirming, leaves X alone.
    await pages.getByRole('button', { name: /^Disconnect/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect Facebook?' });
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByText('Facebook disconnected successfully.')).toBeVisible();
    await expect(accountsOf(page, 'Facebook')).toHaveCount(0);
    await expect(accountsOf(page, 'X').getByRole('listitem')).toHaveCount(1);
    await expect(accountsOf(page, 'LinkedIn').getByRole('listitem')).toHaveCount(1);

    // The list survives a reload: it is the server's.
    await page.reload();
    await expect(accountsOf(page, 'X').getByRole('listitem')).toContainText('nora_signal');
    await expect(platformsCard(page).getByText('Signal Studio Page')).toHaveCount(0);
  });
});
