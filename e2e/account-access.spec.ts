import { expect, test } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

test.describe('access per account', () => {
  test('an owner limits a teammate to one Page, and the teammate sees only that Page', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'cafe.owner@example.com', 'Carmen Owner');
    const orgId = await createOrganizationFromOnboarding(page, 'Harbor Agency');
    await startTrial(page, orgId, baseURL ?? '', 'Pro');

    // Two clients' Pages, connected with one Facebook sign-in.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('region', { name: 'Connected Platforms' })
      .getByRole('button', { name: 'Continue with Facebook' })
      .click();
    await page.getByLabel('Facebook account name').fill('Avery Facebook');
    await page.getByLabel(/Pages this account manages/).fill('Harbor Cafe, Harbor Jobs');
    await page.getByRole('button', { name: 'Approve' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose Facebook accounts' });
    await picker.getByRole('checkbox', { name: /Harbor Cafe/ }).check();
    await picker.getByRole('checkbox', { name: /Harbor Jobs/ }).check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
    await expect(page.getByText('2 Facebook accounts connected successfully.')).toBeVisible();

    // A Content Creator joins.
    const roles = await (await page.request.get(`/api/organizations/${orgId}/roles`)).json();
    const creator = roles.find((r: { name: string }) => r.name === 'ContentCreator');
    const invite = await page.request.post(`/api/member/invite/${orgId}`, {
      data: { email: 'cafe.writer@example.com', roleId: creator.id },
      headers: origin,
    });
    const inviteUrl = (await invite.json()).data.inviteUrl as string;
    const writerContext = await browser.newContext();
    const writer = await writerContext.newPage();
    await signInAs(writer, 'cafe.writer@example.com', 'Casey Writer');
    const token = new URL(inviteUrl).searchParams.get('token');
    const accepted = await writer.request.post('/api/member/accept-invite', {
      data: { token },
      headers: origin,
    });
    expect(accepted.ok()).toBe(true);

    // The owner limits the writer to Harbor Cafe on the Team page.
    await page.goto('/team');
    const card = page.getByRole('listitem', { name: 'Casey Writer' });
    await expect(card.getByText('Accounts: All accounts')).toBeVisible();
    await card.getByRole('button', { name: 'Edit accounts of Casey Writer' }).click();
    await card.getByRole('radio', { name: 'Only these' }).check();
    await card.getByRole('checkbox', { name: /Harbor Cafe/ }).check();
    if (SHOTS) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `${SHOTS}/account-access-team-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/account-access-team-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await card.getByRole('button', { name: 'Save accounts' }).click();
    await expect(page.getByText('Casey Writer now works with the chosen accounts')).toBeVisible();
    await expect(card.getByText('Accounts: 1 of 2 accounts')).toBeVisible();

    // The writer's connected accounts are Harbor Cafe's only.
    const listed = await (
      await writer.request.get(`/api/organizations/${orgId}/integrations`)
    ).json();
    expect(
      listed.data.platforms.map((p: { metadata: { name: string } }) => p.metadata.name),
    ).toEqual(['Harbor Cafe']);
    await writerContext.close();
  });
});
