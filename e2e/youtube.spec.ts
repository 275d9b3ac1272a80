import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

/** A short landscape MP4 made with ffmpeg, as a person's camera would give one. */
function landscapeVideo(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'herald-yt-'));
  const file = join(dir, 'walk.mp4');
  const made = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=25:duration=4',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    file,
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr.toString()}`);
  return readFileSync(file);
}

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

test.describe('YouTube', () => {
  test('an owner connects a brand channel of their Google account and publishes a video to it', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await signInAs(page, 'youtube.owner@example.com', 'Yara Youtube');
    const orgId = await createOrganizationFromOnboarding(page, 'Park Walks');
    await startTrial(page, orgId, baseURL ?? '');

    // Google's consent page: the Google account, and the brand channels it manages.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with YouTube' }).click();
    await page.getByLabel('Google account name').fill('Yara Walks');
    await page.getByLabel(/Brand channels/).fill('Park Walks Channel');
    await page.getByRole('button', { name: 'Approve' }).click();
    // Two channels: Herald asks which to connect.
    const picker = page.getByRole('dialog');
    await expect(picker.getByText('Park Walks Channel', { exact: true })).toBeVisible();
    await shot(page, 'youtube-channel-picker');
    await picker.getByRole('checkbox', { name: /Yara Walks/ }).uncheck();
    await picker.getByRole('checkbox', { name: /Park Walks Channel/ }).check();
    await picker.getByRole('button', { name: 'Connect selected' }).click();
    await expect(page.getByText('YouTube connected successfully.')).toBeVisible();
    // The brand channel alone, by its handle.
    const accounts = card.getByRole('region', { name: 'YouTube accounts' });
    await expect(accounts.getByRole('listitem')).toHaveCount(1);
    await expect(accounts).toContainText('@parkwalkschannel');

    // Compose: the YouTube section asks for a title and the made-for-kids answer.
    await page.goto('/create-post');
    const box = page.getByRole('checkbox', { name: 'YouTube', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await expect(box).toBeChecked();
    await page.getByLabel('Post content').fill('Down the park and back, in four seconds.');
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'walk.mp4', mimeType: 'video/mp4', buffer: landscapeVideo() });
    await expect(page.getByRole('button', { name: 'Remove walk.mp4' })).toBeVisible({
      timeout: 60_000,
    });
    const section = page.getByRole('region', { name: 'YouTube' });
    await expect(section.getByTestId('youtube-kind')).toHaveText(
      'This video goes up as a regular YouTube video.',
    );
    await page.getByRole('radio', { name: 'Publish now' }).check();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    // Nothing is assumed: the title and the made-for-kids answer are required.
    await expect(section.getByText('Give the YouTube video a title.')).toBeVisible();
    await expect(section.getByText(/Say whether the YouTube video is made for kids/)).toBeVisible();
    await section.getByLabel('Title (required)').fill('A walk in the park');
    await section.getByLabel('Tags (comma-separated)').fill('walk, park');
    await section.getByRole('radio', { name: 'No, it’s not made for kids' }).check();
    await shot(page, 'youtube-composer');
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish now' })
      .click();
    const progress = page.getByRole('dialog', { name: /^Publishing (now|finished)$/ });
    await expect(page.getByRole('dialog', { name: 'Publishing finished' })).toBeVisible({
      timeout: 90_000,
    });
    const item = progress.getByRole('listitem', { name: /^YouTube / });
    await expect(item.getByText('Published', { exact: true })).toBeVisible();
    await expect(item.getByRole('link', { name: 'View on YouTube' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}$/,
    );
    await shot(page, 'youtube-published');

    // The sandbox holds one video on the chosen brand channel, with what was chosen.
    const videos = (await (await page.request.get('/api/sandbox/youtube/_emu/videos')).json())
      .videos as Array<{
      title: string;
      tags: string[];
      madeForKids: boolean;
      description: string;
    }>;
    expect(videos).toHaveLength(1);
    expect(videos[0]).toMatchObject({
      title: 'A walk in the park',
      tags: ['walk', 'park'],
      madeForKids: false,
      description: 'Down the park and back, in four seconds.',
    });

    // Scheduled for tomorrow, YouTube publishes it: Herald uploads it now, as private.
    await page.goto('/create-post');
    await page.locator('label').filter({ has: box }).click();
    await page.getByLabel('Post content').fill('Tomorrow’s walk, uploaded today.');
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'walk.mp4', mimeType: 'video/mp4', buffer: landscapeVideo() });
    await expect(page.getByRole('button', { name: 'Remove walk.mp4' })).toBeVisible({
      timeout: 60_000,
    });
    const option = section.getByRole('checkbox', {
      name: 'YouTube publishes at the scheduled time',
    });
    // Offered only when the post is scheduled for later.
    await expect(option).toHaveCount(0);
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(15, 0, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page
      .getByLabel('Publish Date & Time')
      .fill(
        `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T15:00`,
      );
    await section.getByLabel('Title (required)').fill('Tomorrow’s walk');
    await section.getByRole('radio', { name: 'No, it’s not made for kids' }).check();
    await option.check();
    await expect(section.getByText(/Herald uploads the video now, as private/)).toBeVisible();
    await shot(page, 'youtube-schedule-on-youtube');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page).toHaveURL(/\/content$/);
    await page
      .getByRole('list', { name: 'Posts' })
      .getByRole('link', { name: 'Tomorrow’s walk, uploaded today.', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Post Details', level: 1 })).toBeVisible();
    const row = page
      .getByRole('region', { name: 'Publish to Platform' })
      .getByRole('listitem', { name: 'YouTube' });
    // The engine uploads it at once; the page shows it when it reloads the post.
    await expect(async () => {
      await page.reload();
      await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 90_000 });
    await expect(row.getByText(/^YouTube publishes it at .* 3:00 PM\.$/)).toBeVisible();
    await shot(page, 'youtube-uploaded-ahead');
    const scheduled = (
      (await (await page.request.get('/api/sandbox/youtube/_emu/videos')).json()).videos as Array<{
        title: string;
        privacyStatus: string;
        publishAt: string | null;
      }>
    ).filter((v) => v.title === 'Tomorrow’s walk');
    expect(scheduled).toEqual([
      expect.objectContaining({ privacyStatus: 'private', publishAt: tomorrow.toISOString() }),
    ]);
  });
});
