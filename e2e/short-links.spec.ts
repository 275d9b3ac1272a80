import { expect, test } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

/** Where the screens of this walk are kept for people to look at (none when unset). */
const SHOTS = process.env.SHOTS_DIR ?? process.env.E2E_SHOTS_DIR;
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

test.describe('short links', () => {
  test('a post published with short links sends Herald links, a visit is redirected and counted on the analytics screen', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const base = baseURL ?? '';
    await signInAs(page, 'shortlinks-owner@example.com', 'Sasha Short');
    const orgId = await createOrganizationFromOnboarding(page, 'Short Menu Cafe');
    await startTrial(page, orgId, base);

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const platformsCard = page.getByRole('region', { name: 'Connected Platforms' });
    await platformsCard.getByRole('button', { name: 'Continue with X' }).click();
    await page.getByLabel('X username').fill('short_menu_cafe');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();

    // The composer: short links are a switch of their own, off by the organization's default.
    await page.goto('/create-post');
    const box = page.getByRole('checkbox', { name: 'X', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await expect(box).toBeChecked();
    // The link leads to a page of Herald's own (the test's browser reaches no other host).
    await page.getByLabel('Post content').fill(`Our spring menu is out: ${base}/privacy-policy`);
    const toggle = page.getByRole('checkbox', { name: 'Count clicks with short links' });
    await expect(toggle).not.toBeChecked();
    await toggle.check();
    const section = page.getByRole('region', { name: 'Short links' });
    await expect(section).toContainText(`Each link goes out as ${base}/l/…`);
    if (SHOTS) {
      await section.scrollIntoViewIfNeeded();
      await page.setViewportSize({ width: 1280, height: 800 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/short-links-composer-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/short-links-composer-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.getByRole('radio', { name: 'Publish now' }).check();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish now' })
      .click();
    const progress = page.getByRole('dialog', { name: 'Publishing finished' });
    await expect(progress).toBeVisible({ timeout: 60_000 });
    await expect(progress.getByText('Published', { exact: true })).toBeVisible();
    await progress.getByRole('button', { name: 'Done' }).click();

    // X received the short link, not the address as written.
    const emu = await page.request.get('/api/sandbox/x/_emu/posts');
    const sent = ((await emu.json()).posts as Array<{ text: string }>).map((p) => p.text);
    const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = sent
      .map((text) =>
        new RegExp(`^Our spring menu is out: (${escaped}/l/[A-Za-z0-9]{10})$`).exec(text),
      )
      .find(Boolean);
    expect(match, sent.join('\n')).toBeTruthy();
    const shortUrl = match![1]!;

    // Someone follows it in their browser: redirected to the page, one click counted.
    const visitor = await browser.newContext({ userAgent: BROWSER_UA });
    const tab = await visitor.newPage();
    await tab.goto(shortUrl);
    await expect(tab).toHaveURL(`${base}/privacy-policy`);
    await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
    await visitor.close();
    // A link preview's robot fetches it too: not a click.
    const preview = await page.request.get(shortUrl, {
      headers: { 'user-agent': 'Twitterbot/1.0' },
      maxRedirects: 0,
    });
    expect(preview.status()).toBe(302);
    // A code that does not exist is a page saying so.
    const unknown = await page.request.get(`${base}/l/ZZZZZZZZZZ`);
    expect(unknown.status()).toBe(404);
    expect(await unknown.text()).toContain('This link does not exist');

    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    const clicks = page.getByRole('region', { name: 'Short link clicks' });
    const row = clicks.getByRole('row').filter({ hasText: 'Our spring menu is out' });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').last()).toHaveText('1');
    await expect(row).toContainText(`${shortUrl} · 1 click`);
    if (SHOTS) {
      await clicks.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/short-links-analytics-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await clicks.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/short-links-analytics-390x844.png` });
    }
  });
});
