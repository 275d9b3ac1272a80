import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(dir, `${name}-${width}x${height}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('Pinterest', () => {
  test('an owner connects a Pinterest account and publishes a pin to a board made in the composer', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await signInAs(page, 'pinterest-owner@example.com', 'Pia Pinner');
    const orgId = await createOrganizationFromOnboarding(page, 'Soup Studio');
    await startTrial(page, orgId, baseURL ?? '');

    // Pinterest's consent page.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with Pinterest' }).click();
    await page.getByLabel('Pinterest username').fill('Soup Studio');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Pinterest connected successfully.')).toBeVisible();
    const accounts = card.getByRole('region', { name: 'Pinterest accounts' });
    await expect(accounts.getByRole('listitem')).toHaveCount(1);

    // Compose: the Pinterest section asks for a board, offers the account's boards and a new one.
    const image = await page.screenshot({ clip: { x: 0, y: 0, width: 400, height: 600 } });
    await page.goto('/create-post');
    const box = page.getByRole('checkbox', { name: 'Pinterest', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await expect(box).toBeChecked();
    await page.getByLabel('Post content').fill('A warm pumpkin soup for the first cold evening.');
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'soup.png', mimeType: 'image/png', buffer: image });
    await expect(page.getByRole('button', { name: 'Remove soup.png' })).toBeVisible({
      timeout: 60_000,
    });
    const section = page.getByRole('region', { name: 'Pinterest' });
    await page.getByRole('radio', { name: 'Publish now' }).check();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await expect(
      section.getByText('Choose the Pinterest board this pin is saved on.'),
    ).toBeVisible();
    const boards = section.getByLabel('Board (required)');
    await expect(boards.locator('option', { hasText: 'Ideas' })).toHaveCount(1);
    await section.getByRole('button', { name: 'New board' }).click();
    await section.getByLabel('New board’s name').fill('Soups');
    await section.getByRole('button', { name: 'Create board' }).click();
    await expect(boards.locator('option:checked')).toHaveText('Soups');
    await section.getByLabel('Title').fill('Pumpkin soup');
    await section.getByLabel('Link (where the pin leads)').fill('https://example.com/pumpkin-soup');
    const preview = page.getByTestId('pinterest-preview');
    await expect(preview).toContainText('Pumpkin soup');
    await expect(preview).toContainText('example.com');
    await expect(preview).toContainText('Saved to Soups');
    await shot(page, 'pinterest-composer');

    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish now' })
      .click();
    const progress = page.getByRole('dialog', { name: /^Publishing (now|finished)$/ });
    await expect(page.getByRole('dialog', { name: 'Publishing finished' })).toBeVisible({
      timeout: 90_000,
    });
    const item = progress.getByRole('listitem', { name: /^Pinterest / });
    await expect(item.getByText('Published', { exact: true })).toBeVisible();
    await expect(item.getByRole('link', { name: 'View on Pinterest' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.pinterest\.com\/pin\/\d+\/$/,
    );

    // The sandbox holds one pin, on the board made in the composer, with what was chosen.
    const pins = (await (await page.request.get('/api/sandbox/pinterest/_emu/pins')).json())
      .pins as Array<{ title: string; description: string; link: string; mediaType: string }>;
    expect(pins).toHaveLength(1);
    expect(pins[0]).toMatchObject({
      title: 'Pumpkin soup',
      description: 'A warm pumpkin soup for the first cold evening.',
      link: 'https://example.com/pumpkin-soup',
      mediaType: 'image',
    });
  });
});
