import { expect, test, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

const BEFORE = 'Harbor Cafe opens at nine tomorrow';
const AFTER = 'Harbor Jobs: we are hiring baristas for the summer';

interface Publication {
  accountName: string;
  text: string;
  mediaCount: number;
}

/** What the Facebook sandbox actually published, oldest first. */
async function publications(page: Page): Promise<Publication[]> {
  const res = await page.request.get('/api/sandbox/facebook/_emu/posts');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { posts: Publication[] }).posts;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The picker's value for a local date and time. */
const pickerValue = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

test.describe('editing a scheduled post', () => {
  test('a scheduled post is edited (account, text, media, time) and then publishes as edited', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'edit.owner@example.com', 'Edie Edits');
    const orgId = await createOrganizationFromOnboarding(page, 'Harbor Edits');
    await startTrial(page, orgId, baseURL ?? '');

    // Two Facebook Pages.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('region', { name: 'Connected Platforms' })
      .getByRole('button', { name: 'Continue with Facebook' })
      .click();
    await page.getByLabel('Facebook account name').fill('Edie Facebook');
    await page.getByLabel(/Pages this account manages/).fill('Harbor Cafe, Harbor Jobs');
    await page.getByRole('button', { name: 'Approve' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose Facebook accounts' });
    await picker.getByRole('checkbox', { name: /Harbor Cafe/ }).check();
    await picker.getByRole('checkbox', { name: /Harbor Jobs/ }).check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
    await expect(page.getByText('2 Facebook accounts connected successfully.')).toBeVisible();
    const integrations = await (
      await page.request.get(`/api/organizations/${orgId}/integrations`)
    ).json();
    const cafe = integrations.data.platforms.find(
      (i: { metadata: { name: string } }) => i.metadata.name === 'Harbor Cafe',
    );

    // A post scheduled for the Cafe Page tomorrow, with two pictures.
    const image = await page.screenshot({ clip: { x: 0, y: 0, width: 400, height: 300 } });
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(9, 0, 0, 0);
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        integrationIds: JSON.stringify([cafe.id]),
        content: BEFORE,
        scheduledAt: tomorrow.toISOString(),
        media: { name: 'menu.png', mimeType: 'image/png', buffer: image },
        // Playwright sends one part per key: the second picture follows under another name.
        extra: { name: 'terrace.png', mimeType: 'image/png', buffer: image },
      },
    });
    expect(created.status()).toBe(201);
    const postId = (await created.json()).data.post.id as string;
    const before = (await publications(page)).length;

    // Edit Post opens the composer with everything loaded.
    await page.goto(`/content/${postId}`);
    await page.getByRole('link', { name: 'Edit Post' }).click();
    await expect(page).toHaveURL(new RegExp(`/content/${postId}/edit$`));
    const cafeTile = page.getByRole('checkbox', { name: 'Facebook (Harbor Cafe)' });
    const jobsTile = page.getByRole('checkbox', { name: 'Facebook (Harbor Jobs)' });
    await expect(cafeTile).toBeChecked();
    await expect(jobsTile).not.toBeChecked();
    await expect(page.getByLabel('Post content')).toHaveValue(BEFORE);
    const shared = page.getByRole('list', { name: 'Shared media' });
    await expect(shared.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByLabel('Publish Date & Time')).toHaveValue(pickerValue(tomorrow));
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The Jobs Page instead of the Cafe, new words, one picture swapped, a day later at 11:30.
    await page.locator('label').filter({ has: cafeTile }).click();
    await page.locator('label').filter({ has: jobsTile }).click();
    await expect(jobsTile).toBeChecked();
    await expect(cafeTile).not.toBeChecked();
    await page.getByLabel('Post content').fill(AFTER);
    const removeNames = await shared.getByRole('button', { name: /^Remove / }).all();
    await removeNames[1]!.click();
    await expect(shared.getByRole('listitem')).toHaveCount(1);
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'hiring.png', mimeType: 'image/png', buffer: image });
    await expect(shared.getByText('hiring.png')).toBeVisible();
    const later = new Date(tomorrow);
    later.setDate(later.getDate() + 1);
    later.setHours(11, 30, 0, 0);
    await page.getByLabel('Publish Date & Time').fill(pickerValue(later));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Post updated successfully!')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/content/${postId}$`));
    await expect(page.getByRole('region', { name: 'Content' }).getByText(AFTER)).toBeVisible();

    const saved = (
      await (await page.request.get(`/api/organizations/${orgId}/posts/${postId}`)).json()
    ).data.post;
    expect(saved.accounts).toEqual([expect.objectContaining({ name: 'Harbor Jobs' })]);
    expect(saved.content).toBe(AFTER);
    expect(saved.scheduledAt).toBe(later.toISOString());
    expect(saved.media).toHaveLength(2);
    expect(saved.media.map((m: { fileName: string }) => m.fileName)).toContain('hiring.png');
    expect(saved.platformPosts).toEqual([
      expect.objectContaining({ status: 'QUEUED', dueAt: later.toISOString() }),
    ]);

    // Published now, it goes out as edited: from Harbor Jobs, the new words, two pictures.
    const panel = page.getByRole('region', { name: 'Publish to Platform' });
    await panel.getByRole('checkbox', { name: /Publish to Facebook/ }).check();
    await panel.getByRole('button', { name: 'Publish Now' }).click();
    await expect(async () => {
      const made = (await publications(page)).slice(before);
      expect(made).toEqual([
        expect.objectContaining({ accountName: 'Harbor Jobs', text: AFTER, mediaCount: 2 }),
      ]);
    }).toPass({ timeout: 60_000, intervals: [1000] });
    expect((await publications(page)).filter((p) => p.accountName === 'Harbor Cafe')).toEqual([]);
  });
});
