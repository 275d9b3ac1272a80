import { expect, test } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

const ORG_NAME = 'Harbor Agency';
const CREATOR = 'cleo.creator@example.com';
const TEXT = 'Spring menu is here: pea soup, lemon tart and long evenings on the terrace';

/**
 * docs/product.md#client-approval-links: an approver sends a post waiting for approval to a
 * client, who opens the link in a browser with no session, approves it, and the post is
 * scheduled in the app.
 */
test('an admin sends a pending post to a client, who approves it without an account', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? '';
  const origin = { origin: base };

  // The owner: organization, trial, X through its sandbox, approvals on, a Content Creator.
  await signInAs(page, 'hana.owner@example.com', 'Hana Harbor');
  const orgId = await createOrganizationFromOnboarding(page, ORG_NAME);
  await startTrial(page, orgId, base);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page
    .getByRole('region', { name: 'Connected Platforms' })
    .getByRole('button', { name: 'Continue with X' })
    .click();
  await page.getByLabel('X username').fill('harbor_agency');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('X connected successfully.')).toBeVisible();
  const approvals = await page.request.patch(`/api/organizations/${orgId}`, {
    data: { requirePostApproval: true },
    headers: origin,
  });
  expect(approvals.ok()).toBe(true);
  const xAccount = (
    await (await page.request.get(`/api/organizations/${orgId}/integrations`)).json()
  ).data.platforms[0] as { id: string };
  const roles = (await (await page.request.get(`/api/organizations/${orgId}/roles`)).json()) as {
    id: string;
    name: string;
  }[];
  const invite = await page.request.post(`/api/member/invite/${orgId}`, {
    data: { email: CREATOR, roleId: roles.find((r) => /content ?creator/i.test(r.name))!.id },
    headers: origin,
  });
  expect(invite.ok()).toBe(true);

  const creatorContext = await browser.newContext({ baseURL: base });
  const creator = await creatorContext.newPage();
  await signInAs(creator, CREATOR, 'Cleo Creator');
  await creator.getByRole('button', { name: 'View Invitations' }).click();
  await creator.getByRole('button', { name: `Accept invitation to ${ORG_NAME}` }).click();
  await expect(creator).toHaveURL(/\/dashboard$/);
  const scheduledAt = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
  const created = await creator.request.post(`/api/organizations/${orgId}/post`, {
    headers: origin,
    multipart: {
      integrationIds: JSON.stringify([xAccount.id]),
      content: TEXT,
      scheduledAt,
      action: 'schedule',
    },
  });
  expect(created.status()).toBe(201);
  const post = (await created.json()).data.post as { id: string; status: string };
  expect(post.status).toBe('pending_approval');
  await creatorContext.close();

  // The owner sends it to the client from the post's details and copies the link shown once.
  await page.goto(`/content/${post.id}`);
  const panel = page.getByRole('region', { name: 'Client approval' });
  await panel.getByRole('button', { name: 'Send to client for approval' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send to client for approval' });
  await dialog.getByLabel('Client’s name').fill('Dana Client');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const ready = page.getByRole('dialog', { name: 'Approval link ready' });
  const url = await ready.getByLabel('Approval link').inputValue();
  expect(url).toMatch(new RegExp(`^${base}/approve/[A-Za-z0-9_-]{43}$`));
  await ready.getByRole('button', { name: 'Done' }).click();
  await expect(panel.getByRole('list', { name: 'Client approval links' })).toContainText(
    'Waiting for the client',
  );

  // The client: a fresh browser, no session, no cookies.
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await client.goto(url);
  await expect(
    client.getByRole('heading', { level: 1, name: 'Please review this post' }),
  ).toBeVisible();
  await expect(client.getByText(ORG_NAME, { exact: true })).toBeVisible();
  const card = client.getByRole('listitem', { name: new RegExp(`^${TEXT.slice(0, 20)}`) });
  await expect(card.getByRole('article', { name: /^X · .* preview$/ })).toContainText(TEXT);
  expect(await seriousViolations(client)).toEqual([]);
  await card.getByLabel('Comment for the team').fill('Lovely, go ahead');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByText('You approved this post.')).toBeVisible();
  await expect(
    client.getByText('Thank you: nothing else waits for your decision.', { exact: false }),
  ).toBeVisible();
  expect(await clientContext.cookies()).toEqual([]);
  // The link decides once: opening it again shows the decision, not the buttons.
  await client.reload();
  await expect(client.getByText('You approved this post.')).toBeVisible();
  await expect(client.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await clientContext.close();

  // Back in the app: scheduled, approved by the client.
  await page.reload();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText(/Scheduled/);
  await expect(details.getByRole('list', { name: 'Approval history' })).toContainText(
    'Approved by Dana Client (client)',
  );
  await expect(panel.getByRole('list', { name: 'Client approval links' })).toContainText(
    'Approved: “Lovely, go ahead”',
  );
});
