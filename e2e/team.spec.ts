import { expect, test, type Page } from '@playwright/test';
import { seriousViolations, signInAs, startTrial } from './helpers';

const ORG_NAME = 'Northwind Social';
const TEAMMATE = 'teammate@example.com';

/** The number shown under a stat card's label on /team. */
function stat(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'Team statistics' })
    .getByText(label, { exact: true })
    .locator('xpath=following-sibling::dd');
}

/** An organization on a Basic trial, made through the API, with one pending invitation. */
async function inviteIntoNewOrganization(
  page: Page,
  origin: { origin: string },
  name: string,
  email: string,
): Promise<{ inviteUrl: string }> {
  await expect(page).toHaveURL(/\/onboarding$/);
  const created = await page.request.post('/api/organizations', {
    data: { name },
    headers: origin,
  });
  const orgId = (await created.json()).data.organization.id as string;
  const plans = await (await page.request.get('/api/plans')).json();
  const basic = plans.data.plans.find((p: { name: string }) => p.name === 'Basic');
  await page.request.post(`/api/organizations/${orgId}/subscribe/trial`, {
    data: { planId: basic.id },
    headers: origin,
  });
  const invite = await page.request.post(`/api/member/invite/${orgId}`, {
    data: { email },
    headers: origin,
  });
  expect(invite.ok()).toBe(true);
  return { inviteUrl: (await invite.json()).data.inviteUrl as string };
}

test.describe('organizations, onboarding and the team', () => {
  test('an owner invites a teammate with narrowed permissions, who joins from onboarding', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const origin = { origin: baseURL ?? '' };

    // The owner is new: onboarding, then a brand-new organization.
    await signInAs(page, 'owner@example.com', 'Olivia Owner');
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole('heading', { name: 'Your Organizations' })).toBeVisible();
    await expect(page.getByText('No pending invitations.', { exact: false })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create Organization' }).click();
    const create = page.getByRole('dialog', { name: 'Create Organization' });
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create.getByText('Organization name cannot be empty.')).toBeVisible();
    await create.getByLabel('Organization name').fill(ORG_NAME);
    await create.getByRole('button', { name: 'Create' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: `${ORG_NAME} Dashboard` })).toBeVisible();
    await expect(page.getByRole('link', { name: /Current organization/ })).toContainText(ORG_NAME);
    const orgId = await page.evaluate(() => localStorage.getItem('herald.currentOrgId'));
    expect(orgId).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Team Management' })).toBeVisible();
    await expect(stat(page, 'Total Members')).toHaveText('1');
    await expect(stat(page, 'Total Roles')).toHaveText('4');
    expect(await seriousViolations(page)).toEqual([]);

    // Without a plan the server refuses to invite, and the page says what to do.
    await page.getByRole('button', { name: 'Invite Member' }).click();
    await page.getByRole('link', { name: 'Invite them all at once' }).click();
    await expect(page).toHaveURL(new RegExp(`/org/${orgId}/invite-members$`));
    const invitee = page.getByRole('group', { name: 'Member 1' });
    await invitee.getByLabel('Email address').fill(TEAMMATE);
    await invitee.getByLabel('Role').selectOption({ label: 'Content Creator' });
    await expect(invitee.getByRole('checkbox', { name: 'Create Posts' })).toBeChecked();
    await expect(invitee.getByRole('checkbox', { name: 'Manage Organization' })).toBeDisabled();
    await invitee.getByRole('checkbox', { name: 'Edit Posts' }).uncheck();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send invites' }).click();
    const overlay = page.getByRole('dialog', { name: 'Subscription Required' });
    await expect(overlay).toBeVisible();
    await overlay.getByRole('button', { name: 'Cancel' }).click();

    // A free trial (the pricing screen is not built yet, so through the API).
    await startTrial(page, orgId!, baseURL ?? '');

    // The failed invitation is still in the form: send it again. Without SMTP the link shows.
    await expect(invitee.getByRole('checkbox', { name: 'Edit Posts' })).not.toBeChecked();
    await page.getByRole('button', { name: 'Send invites' }).click();
    await expect(page.getByText(`Invite sent to ${TEAMMATE} successfully!`)).toBeVisible();
    const links = page.getByRole('dialog', { name: 'Share the invitation links' });
    await expect(links.getByLabel(`Invite link for ${TEAMMATE}`, { exact: true })).toHaveValue(
      /\/invite\/accept\?token=/,
    );
    await links.getByRole('button', { name: 'Done — go to Team' }).click();
    await expect(page).toHaveURL(/\/team$/);
    const card = page.getByRole('listitem', { name: TEAMMATE });
    await expect(card.getByText('INVITED', { exact: true })).toBeVisible();
    await expect(stat(page, 'Pending Invites')).toHaveText('1');

    // The teammate signs in elsewhere and finds the invitation on onboarding.
    const mateContext = await browser.newContext({ baseURL });
    const mate = await mateContext.newPage();
    await signInAs(mate, TEAMMATE, 'Tom Mate');
    await expect(mate).toHaveURL(/\/onboarding$/);
    await expect(mate.getByText('You have 1 pending invitation.')).toBeVisible();
    await mate.getByRole('button', { name: 'View Invitations' }).click();
    await mate.getByRole('button', { name: `Accept invitation to ${ORG_NAME}` }).click();
    await expect(mate.getByText(`You joined ${ORG_NAME}!`)).toBeVisible();
    await expect(mate).toHaveURL(/\/dashboard$/);
    await expect(mate.getByRole('heading', { name: `${ORG_NAME} Dashboard` })).toBeVisible();

    const me = await (await mate.request.get('/api/auth/me')).json();
    expect(me.data.member.organization.name).toBe(ORG_NAME);
    expect(me.data.member.permissions).toEqual(['post:create']);

    // On the team page the teammate is a plain member: nothing to manage.
    await mate.getByRole('link', { name: 'Team', exact: true }).click();
    await expect(mate.getByRole('listitem', { name: 'Tom Mate' })).toBeVisible();
    await expect(
      mate.getByRole('listitem', { name: 'Tom Mate' }).getByText('ACTIVE', { exact: true }),
    ).toBeVisible();
    await expect(mate.getByRole('button', { name: 'Invite Member' })).toHaveCount(0);
    await expect(mate.getByRole('button', { name: 'Manage Roles' })).toHaveCount(0);
    await expect(mate.getByRole('button', { name: /^Remove / })).toHaveCount(0);

    // And the server agrees: inviting needs member:invite.
    const refused = await mate.request.post(`/api/member/invite/${orgId}`, {
      data: { email: 'someone.else@example.com' },
      headers: origin,
    });
    expect(refused.status()).toBe(403);

    // The owner now sees the teammate as an active member.
    await page.reload();
    await expect(stat(page, 'Active Members')).toHaveText('2');
    await expect(stat(page, 'Pending Invites')).toHaveText('0');
    await mateContext.close();
  });

  test('an invitation link asks a visitor to sign in, then brings them back to join', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'link.owner@example.com', 'Lena Owner');
    const { inviteUrl } = await inviteIntoNewOrganization(
      page,
      origin,
      'Link Club',
      'link.guest@example.com',
    );
    const linkPath = new URL(inviteUrl).pathname + new URL(inviteUrl).search;

    const guestContext = await browser.newContext({ baseURL });
    const guest = await guestContext.newPage();
    await guest.goto(linkPath);
    await expect(guest.getByRole('alert')).toContainText(
      'You need to be logged in to accept an invitation. Please login first.',
    );
    await guest.getByRole('button', { name: 'Go to Login' }).click();
    await expect(guest.getByRole('heading', { name: 'Development sign-in' })).toBeVisible();
    await guest.getByLabel('Email').fill('link.guest@example.com');
    await guest.getByLabel('Name').fill('Gus Guest');
    await guest.getByRole('button', { name: 'Sign in' }).click();

    await expect(guest.getByRole('heading', { name: 'Invitation accepted' })).toBeVisible();
    await expect(guest.getByText('You joined Link Club.')).toBeVisible();
    await expect(guest).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
    await expect(guest.getByRole('heading', { name: 'Link Club Dashboard' })).toBeVisible();

    // A token works once.
    await guest.goto(linkPath);
    await expect(guest.getByRole('alert')).toContainText('already been accepted');
    await guestContext.close();
  });

  test('an invitation link copied again works and the old one does not', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const origin = { origin: baseURL ?? '' };
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: baseURL ?? '',
    });
    await signInAs(page, 'copy.owner@example.com', 'Cora Owner');
    const { inviteUrl: oldUrl } = await inviteIntoNewOrganization(
      page,
      origin,
      'Copy Club',
      'copy.guest@example.com',
    );
    const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

    await page.goto('/team');
    await expect(page.getByText('1 member · 1 invited')).toBeVisible();
    const card = page.getByRole('listitem', { name: 'copy.guest@example.com' });
    await expect(
      card
        .getByRole('combobox', { name: 'Role of copy.guest@example.com' })
        .locator('option:checked'),
    ).toHaveText('Social Media Manager');
    // Without SMTP_URL Herald sends no email: only the link can be passed on.
    await expect(card.getByRole('button', { name: /Resend invitation email/ })).toHaveCount(0);
    await card.getByRole('button', { name: 'Copy invite link for copy.guest@example.com' }).click();
    await expect(
      page.getByText(/A new invite link for copy\.guest@example\.com was copied/),
    ).toBeVisible();
    const fresh = card.getByLabel('New invite link for copy.guest@example.com');
    await expect(fresh).toHaveValue(/\/invite\/accept\?token=/);
    const newUrl = await fresh.inputValue();
    expect(newUrl).not.toBe(oldUrl);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newUrl);
    expect(await seriousViolations(page)).toEqual([]);

    const guestContext = await browser.newContext({ baseURL });
    const guest = await guestContext.newPage();
    await signInAs(guest, 'copy.guest@example.com', 'Cody Guest');
    await guest.goto(pathOf(oldUrl));
    await expect(guest.getByRole('alert')).toContainText('does not exist or was withdrawn');
    await guest.goto(pathOf(newUrl));
    await expect(guest.getByRole('heading', { name: 'Invitation accepted' })).toBeVisible();
    await expect(guest.getByText('You joined Copy Club.')).toBeVisible();
    await guestContext.close();

    // The guest is now counted as a member, no longer as an invitation.
    await page.reload();
    await expect(page.getByText('2 members · 0 invited')).toBeVisible();
  });

  test('an invitation link without a token is refused', async ({ page }) => {
    await page.goto('/invite/accept');
    await expect(page.getByRole('alert')).toContainText('Invalid invitation link.');
    await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });
});
