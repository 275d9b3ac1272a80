import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, seriousViolations, signInAs } from './helpers';

const ORG_NAME = 'Trialtown Media';

const banner = (page: Page) => page.getByRole('region', { name: 'Current subscription' });
const planCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Plans' }).getByRole('listitem', { name });

test.describe('plans and subscription', () => {
  test('a new organization tries Basic for free, invites a teammate, then cancels', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const origin = { origin: baseURL ?? '' };

    await signInAs(page, 'trial.owner@example.com', 'Tina Trial');
    const orgId = await createOrganizationFromOnboarding(page, ORG_NAME);

    // The pricing page: no plan yet, every trial on offer; this server takes no payments.
    await page.getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('heading', { name: 'Simple, transparent pricing' })).toBeVisible();
    await expect(page.getByText(/No credit card required/)).toBeVisible();
    await expect(banner(page)).toHaveAttribute('data-tone', 'grey');
    await expect(banner(page)).toContainText('No active subscription.');
    await expect(banner(page)).toContainText('Just you (1 team member)');
    await expect(
      page.getByText(
        'Self-hosted billing: subscribing activates the plan immediately, no payment is taken.',
      ),
    ).toBeVisible();
    const basic = planCard(page, 'Basic');
    await expect(basic.getByText('Popular', { exact: true })).toBeVisible();
    await expect(basic.getByText('$29.00/month')).toBeVisible();
    await expect(basic.getByText(/Priority Support:/)).toHaveText(
      'Priority Support: No (not included)',
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Start the free trial of Basic from the page.
    await basic.getByRole('button', { name: 'Start free trial' }).click();
    const askTrial = page.getByRole('dialog', { name: 'Start a free trial of Basic?' });
    await askTrial.getByRole('button', { name: 'Start free trial' }).click();
    await expect(page.getByText('Free trial started successfully!')).toBeVisible();
    // One toast for the action: the notification it made is listed, not toasted again.
    await expect(page.getByText('Your 7-day free trial of Basic has started.')).toHaveCount(0);
    await expect(basic.getByText('Active Trial', { exact: true })).toBeVisible();
    await expect(banner(page)).toHaveAttribute('data-tone', 'blue');
    await expect(banner(page)).toContainText('Free trial of Basic — 7 days remaining');
    // While trialing, every card offers Subscribe only.
    await expect(page.getByRole('button', { name: 'Start free trial' })).toHaveCount(0);
    await expect(basic.getByRole('button')).toHaveText(['Subscribe']);
    expect(await seriousViolations(page)).toEqual([]);

    // The trial unlocks inviting: the team modal now creates the invitation.
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByRole('button', { name: 'Invite Member' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite Member' });
    await invite.getByLabel('Email address').fill('trial.mate@example.com');
    await invite.getByLabel('Role').selectOption({ label: 'Content Creator' });
    await invite.getByRole('button', { name: 'Send Invite' }).click();
    const created = page.getByRole('dialog', { name: 'Invitation created' });
    await expect(
      created.getByLabel('Invite link for trial.mate@example.com', { exact: true }),
    ).toHaveValue(/\/invite\/accept\?token=/);
    await created.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('listitem', { name: 'trial.mate@example.com' })).toBeVisible();

    // Cancel from the pricing page, after confirming: a trial ends at once.
    await page.getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(banner(page)).toHaveAttribute('data-tone', 'blue');
    await banner(page).getByRole('button', { name: 'Cancel Plan' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel subscription?' });
    await expect(confirm).toContainText('Your free trial of Basic ends now');
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText('Subscription cancelled')).toBeVisible();
    await expect(banner(page)).toHaveAttribute('data-tone', 'grey');
    await expect(banner(page)).toContainText('No active subscription. (CANCELED)');
    await expect(banner(page).getByRole('button', { name: 'Cancel Plan' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start free trial' })).toHaveCount(0);
    await expect(basic.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
    await expect(basic.getByText('Active Trial', { exact: true })).toHaveCount(0);

    // The server agrees: no plan, no invitations.
    const refused = await page.request.post(`/api/member/invite/${orgId}`, {
      data: { email: 'too.late@example.com' },
      headers: origin,
    });
    expect(refused.status()).toBe(403);

    // The trial is spent for good, even after a reload.
    await page.reload();
    await expect(banner(page)).toContainText('(CANCELED)');
    await expect(page.getByRole('button', { name: 'Start free trial' })).toHaveCount(0);
  });

  test('without a payment provider, subscribing makes the plan current at once', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await signInAs(page, 'paying.owner@example.com', 'Paul Payer');
    await expect(page).toHaveURL(/\/onboarding$/);
    const created = await page.request.post('/api/organizations', {
      data: { name: 'Paid Up Studio' },
      headers: { origin: baseURL ?? '' },
    });
    expect(created.ok()).toBe(true);

    await page.goto('/pricing');
    const pro = planCard(page, 'Pro');
    await pro.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscription initiated!')).toBeVisible();
    await expect(banner(page)).toHaveAttribute('data-tone', 'green');
    await expect(banner(page)).toContainText('You are currently on the Pro plan');
    await expect(pro.getByText('Current Plan', { exact: true })).toBeVisible();
    await expect(pro.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
    // A paid plan excludes a trial: the current card has no buttons, the others offer Subscribe.
    await expect(pro.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start free trial' })).toHaveCount(0);
    await expect(planCard(page, 'Basic').getByRole('button')).toHaveText(['Subscribe']);

    // Cancelling a paid plan (from the banner) keeps it until the end of the period.
    await banner(page).getByRole('button', { name: 'Cancel Plan' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel subscription?' });
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText('Subscription cancelled')).toBeVisible();
    await expect(banner(page)).toHaveAttribute('data-tone', 'green');
    await expect(banner(page)).toContainText(/Ends on \w{3} \d{1,2}, \d{4}/);
    await expect(pro.getByText(/Ends on/)).toBeVisible();
  });
});
