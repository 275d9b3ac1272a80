import { expect, test } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

/** Where the screens of this walk are kept for people to look at (E2E_SHOTS_DIR, or none). */
const SHOTS = process.env.E2E_SHOTS_DIR;

test.describe('API keys', () => {
  test('a manager creates a key in Settings, an integration uses it, and revoking stops it', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await signInAs(page, 'keys.keeper@example.com', 'Kira Keeper');
    const orgId = await createOrganizationFromOnboarding(page, 'Keyring Studio');
    await startTrial(page, orgId, baseURL ?? '');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: baseURL,
    });

    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'API keys' });
    await expect(card.getByText('No API keys yet.')).toBeVisible();
    await card.getByRole('button', { name: 'Create Key' }).click();
    await expect(card.getByRole('alert')).toHaveText(
      'Give the key a name, such as the tool that will use it.',
    );
    await card.getByLabel('Key name').fill('Zapier');
    await card.getByLabel('Create Posts').check();
    await card.getByRole('button', { name: 'Create Key' }).click();
    await expect(card.getByText('it will not be shown again', { exact: false })).toBeVisible();
    await card.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByText('API key copied.')).toBeVisible();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^hrld_[0-9a-f]{8}_/);
    await expect(card.getByRole('list', { name: 'API keys' })).toContainText('Zapier');
    await expect(card.getByRole('list', { name: 'API keys' })).toContainText('Create Posts');
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) {
      // The new key's box in view, its Copy and Done buttons at the least.
      const showCard = () => card.getByRole('list', { name: 'API keys' }).scrollIntoViewIfNeeded();
      await showCard();
      await page.screenshot({ path: `${SHOTS}/api-keys-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(card).toBeVisible();
      await showCard();
      await page.screenshot({ path: `${SHOTS}/api-keys-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // The key on its own header. page.request also carries the browser's session cookie: a
    // bearer request is answered to the key alone, so the refusals below are the key's.
    const call = (url: string) =>
      page.request.get(url, { headers: { authorization: `Bearer ${key}` } });
    const posts = await call(`/api/organizations/${orgId}/posts`);
    expect(posts.status()).toBe(200);
    const refused = await call(`/api/organizations/${orgId}/api-keys`);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toMatch(/needs the "Manage Organization" permission/);

    await card.getByRole('button', { name: 'Done' }).click();
    await expect(card.getByText('it will not be shown again', { exact: false })).toHaveCount(0);
    await card.getByRole('button', { name: 'Revoke Zapier' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke “Zapier”?' });
    await confirm.getByRole('button', { name: 'Revoke Key' }).click();
    await expect(page.getByText('API key revoked.', { exact: false })).toBeVisible();
    await expect(card.getByText('No API keys yet.')).toBeVisible();
    const after = await call(`/api/organizations/${orgId}/posts`);
    expect(after.status()).toBe(401);
    expect((await after.json()).message).toMatch(/This API key was revoked/);
  });
});
