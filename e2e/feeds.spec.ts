import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';
import { feedServerPort } from './playwright.config';

/** Where the screens of this walk are kept for people to look at (E2E_SHOTS_DIR, or none). */
const SHOTS = process.env.E2E_SHOTS_DIR;

/** The blog's items, newest first; the test adds one between checks. */
const items = [{ guid: 'first', title: 'Our first bake of the season' }];
const feedXml = () => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Crumb Journal</title><link>https://crumb.example.com/</link>
${items
  .map(
    (i) =>
      `<item><title>${i.title}</title><link>https://crumb.example.com/${i.guid}</link><guid>${i.guid}</guid></item>`,
  )
  .join('\n')}
</channel></rss>`;

let feedServer: Server;
test.beforeAll(async () => {
  feedServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feedXml());
  });
  await new Promise<void>((resolve) => feedServer.listen(feedServerPort, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => feedServer.close(resolve));
});

test.describe('feeds', () => {
  test('a member adds a blog feed in Settings, previews it, checks it now and finds the draft it made', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await signInAs(page, 'feed.reader@example.com', 'Fern Reader');
    const orgId = await createOrganizationFromOnboarding(page, 'Crumb Bakery');
    await startTrial(page, orgId, baseURL ?? '');
    await page.goto('/settings');
    const platforms = page.getByRole('region', { name: 'Connected Platforms' });
    await platforms.getByRole('button', { name: 'Continue with X' }).click();
    await expect(page.getByRole('heading', { name: 'X sandbox' })).toBeVisible();
    await page.getByLabel('X username').fill('crumb_bakery');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();

    const card = page.getByRole('region', { name: 'Feeds' });
    await expect(card.getByText('No feeds yet.')).toBeVisible();
    await card.getByRole('button', { name: 'Add Feed' }).click();
    const form = card.getByRole('form', { name: 'Add a feed' });
    await form.getByLabel('Feed address').fill(`http://127.0.0.1:${feedServerPort}/feed.xml`);
    await form.getByRole('checkbox').first().check();
    await form.getByLabel('Post text').fill('New on the blog: {title}\n\n{link}');
    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = form.getByRole('status');
    await expect(preview).toContainText('Crumb Journal · 1 item');
    await expect(preview).toContainText('New on the blog: Our first bake of the season');
    await expect(preview).toContainText('https://crumb.example.com/first');
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) {
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/feeds-add-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await form.getByRole('button', { name: 'Preview' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/feeds-add-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // No existing item is taken (importLatest 0): the feed is added, nothing posted.
    await form.getByRole('button', { name: 'Add Feed' }).click();
    await expect(page.getByText('Feed added. New items will become posts.')).toBeVisible();
    const list = card.getByRole('list', { name: 'Feeds' });
    await expect(list.getByText('Crumb Journal')).toBeVisible();
    await expect(list.getByText('Active')).toBeVisible();

    // A new item on the blog; Check now makes one draft of it.
    items.unshift({ guid: 'second', title: 'Rye is back on Fridays' });
    await list.getByRole('button', { name: 'Check now' }).click();
    await expect(page.getByText('1 post made.')).toBeVisible();
    await list.getByRole('button', { name: 'Items' }).click();
    const feedItems = card.getByRole('list', { name: 'Feed items' });
    await expect(feedItems.getByRole('listitem')).toHaveCount(2);
    await expect(
      feedItems.getByRole('listitem').filter({ hasText: 'Rye is back on Fridays' }),
    ).toContainText('Post made');
    await expect(
      feedItems.getByRole('listitem').filter({ hasText: 'Our first bake' }),
    ).toContainText('Seen (older)');
    if (SHOTS) {
      await list.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/feeds-list-1280x800.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await list.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/feeds-list-390x844.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // The draft is in the library with the template's text.
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByRole('tab', { name: 'Drafts' }).click();
    await expect(
      page.getByText('New on the blog: Rye is back on Fridays', { exact: false }),
    ).toBeVisible();
  });
});
