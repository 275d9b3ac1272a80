import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

/** The picker and the crop dialog at the two widths people use (SHOTS_DIR, or none). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(dir, `${name}-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function chooseX(page: Page) {
  const box = page.getByRole('checkbox', { name: 'X', exact: true });
  await page.locator('label').filter({ has: box }).click();
  await expect(box).toBeChecked();
}

interface LibraryItem {
  id: string;
  fileName: string;
  width: number;
  height: number;
  usedInPosts: number;
  derivedFromId: string | null;
}

test.describe('media library', () => {
  test('a picture uploaded in one post is reused in a second from the library, cropped to 1:1, and stored once', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    await signInAs(page, 'library-owner@example.com', 'Lena Library');
    const orgId = await createOrganizationFromOnboarding(page, 'Lantern Library');
    await startTrial(page, orgId, baseURL ?? '');

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('region', { name: 'Connected Platforms' })
      .getByRole('button', { name: 'Continue with X' })
      .click();
    await page.getByLabel('X username').fill(`lantern_library_${Date.now()}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/organizations/${orgId}/integrations`);
        return ((await res.json()).data?.platforms ?? []).length;
      })
      .toBe(1);

    // The first post uploads a picture.
    await page.goto('/create-post');
    await expect(page.getByRole('heading', { name: 'Create Social Post' })).toBeVisible();
    await chooseX(page);
    await page.getByLabel('Post content').fill('The terrace opens on Friday');
    const image = await page.screenshot({ clip: { x: 0, y: 0, width: 640, height: 400 } });
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'terrace.png', mimeType: 'image/png', buffer: image });
    await expect(page.getByRole('button', { name: 'Remove terrace.png' })).toBeVisible();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/content$/);

    // The second post takes it from the library, and its 1:1 crop.
    await page.goto('/create-post');
    await expect(page.getByRole('heading', { name: 'Create Social Post' })).toBeVisible();
    await chooseX(page);
    await page.getByLabel('Post content').fill('Friday: the terrace, square');
    await page.getByRole('button', { name: 'Choose shared media from the media library' }).click();
    const picker = page.getByRole('dialog', { name: 'Media library' });
    await expect(picker.getByRole('button', { name: 'Choose terrace.png' })).toBeVisible();
    await expect(picker.getByText('Used in 1 post')).toBeVisible();
    await expect(picker.getByText(/ of 5 GB used$/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'media-library-picker');

    await picker.getByRole('button', { name: 'Crop terrace.png' }).click();
    const crop = page.getByRole('dialog', { name: 'Crop terrace.png' });
    await expect(crop.getByText('Result: 400×400 pixels')).toBeVisible();
    await crop.getByLabel(/^16:9/).check();
    await expect(crop.getByText('Result: 640×360 pixels')).toBeVisible();
    await crop.getByLabel(/^1:1/).check();
    await shot(page, 'media-library-crop');
    await crop.getByRole('button', { name: 'Crop to 1:1' }).click();
    await expect(crop).toBeHidden();
    await picker.getByRole('button', { name: 'Choose terrace.png' }).click();
    await picker.getByRole('button', { name: 'Add 2 files to shared media' }).click();
    await expect(picker).toBeHidden();
    await expect(page.getByRole('button', { name: 'Remove terrace-1x1.png' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove terrace.png' })).toBeVisible();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/content$/);

    // One stored original used by both posts, and its square crop used by the second.
    const res = await page.request.get(`/api/organizations/${orgId}/media`);
    expect(res.ok()).toBe(true);
    const items = (await res.json()).data.items as LibraryItem[];
    expect(items).toHaveLength(2);
    const original = items.find((i) => i.fileName === 'terrace.png')!;
    const square = items.find((i) => i.fileName === 'terrace-1x1.png')!;
    expect(original).toMatchObject({ width: 640, height: 400, usedInPosts: 2 });
    expect(square).toMatchObject({
      width: 400,
      height: 400,
      usedInPosts: 1,
      derivedFromId: original.id,
    });
  });
});
