import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const TEXT = 'Now hiring baristas for the summer';

interface Publication {
  accountName: string;
  text: string;
}

/** What the Facebook sandbox actually published, oldest first. */
async function publications(page: Page): Promise<Publication[]> {
  const res = await page.request.get('/api/sandbox/facebook/_emu/posts');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { posts: Publication[] }).posts;
}

test.describe('accounts', () => {
  test('with two Facebook Pages connected, a post for the second Page goes out from the second Page only', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'two.pages@example.com', 'Tess Pages');
    const orgId = await createOrganizationFromOnboarding(page, 'Harbor Two Pages');
    await startTrial(page, orgId, baseURL ?? '');

    // One Facebook sign-in manages two Pages; both are connected.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('region', { name: 'Connected Platforms' })
      .getByRole('button', { name: 'Continue with Facebook' })
      .click();
    await page.getByLabel('Facebook account name').fill('Tess Facebook');
    await page.getByLabel(/Pages this account manages/).fill('Harbor Cafe, Harbor Jobs');
    await page.getByRole('button', { name: 'Approve' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose Facebook accounts' });
    await picker.getByRole('checkbox', { name: /Harbor Cafe/ }).check();
    await picker.getByRole('checkbox', { name: /Harbor Jobs/ }).check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
    await expect(page.getByText('2 Facebook accounts connected successfully.')).toBeVisible();
    const before = (await publications(page)).length;

    // The composer offers each Page as its own tile; only the second is chosen.
    await page.goto('/create-post');
    const accounts = page.getByRole('group', { name: 'Platforms' });
    await expect(accounts.getByRole('checkbox')).toHaveCount(2);
    // The tiles are labels around visually hidden checkboxes: click the tile.
    const jobs = page.getByRole('checkbox', { name: 'Facebook (Harbor Jobs)' });
    await page.locator('label').filter({ has: jobs }).click();
    await expect(jobs).toBeChecked();
    await expect(
      accounts.getByRole('checkbox', { name: 'Facebook (Harbor Cafe)' }),
    ).not.toBeChecked();
    const preview = page.getByRole('article', { name: 'Facebook (Harbor Jobs) preview' });
    await expect(preview.getByText('Harbor Jobs', { exact: true })).toBeVisible();
    await expect(page.getByRole('article', { name: /preview$/ })).toHaveCount(1);
    await page.getByLabel('Post content').fill(TEXT);
    await page.getByRole('radio', { name: 'Publish now' }).check();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish now?' });
    await expect(confirm.getByRole('list', { name: 'Accounts it goes to' })).toContainText(
      'Harbor Jobs',
    );
    await expect(confirm).not.toContainText('Harbor Cafe');
    await confirm.getByRole('button', { name: 'Publish now' }).click();
    // Publish now follows the account until it settles, then Done goes to the library.
    const progress = page.getByRole('dialog', { name: 'Publishing finished' });
    await expect(progress).toBeVisible({ timeout: 60_000 });
    await progress.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/content$/);

    // The sandbox's list of publications: one new one, from Harbor Jobs, none from Harbor Cafe.
    await expect(async () => {
      const made = (await publications(page)).slice(before);
      expect(made).toEqual([expect.objectContaining({ accountName: 'Harbor Jobs', text: TEXT })]);
    }).toPass({ timeout: 60_000, intervals: [1000] });
    expect((await publications(page)).filter((p) => p.accountName === 'Harbor Cafe')).toEqual([]);

    // The post says which account it went out from.
    const list = await (await page.request.get(`/api/organizations/${orgId}/posts`)).json();
    const post = list.data.posts.find((p: { content: string }) => p.content === TEXT);
    expect(post.accounts).toEqual([expect.objectContaining({ name: 'Harbor Jobs' })]);
    await page.goto(`/content/${post.id}`);
    const rows = page.getByRole('list', { name: 'Platforms of this post' });
    await expect(rows).toContainText('Harbor Jobs');
    await expect(rows).not.toContainText('Harbor Cafe');
  });
});
