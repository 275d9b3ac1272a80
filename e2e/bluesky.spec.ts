import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const TEXT = 'First post from Herald on #Bluesky ☕';

/** A short MP4 made with ffmpeg, as a phone would give one. */
function shortVideo(): Buffer {
  const file = join(mkdtempSync(join(tmpdir(), 'herald-bsky-')), 'clip.mp4');
  const made = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=25:duration=3',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    file,
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr.toString()}`);
  return readFileSync(file);
}

test.describe('Bluesky', () => {
  test('an owner connects a Bluesky account with a handle and an app password and publishes to it', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'bluesky.owner@example.com', 'Bea Bluesky');
    const orgId = await createOrganizationFromOnboarding(page, 'Sky Notes');
    await startTrial(page, orgId, baseURL ?? '');

    // Settings: Bluesky has no sign-in page for apps; the handle and app password are asked here.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with Bluesky' }).click();
    const form = card.getByRole('form', { name: 'Connect Bluesky with an app password' });
    await expect(form).toContainText('direct messages');
    await form.getByLabel('Handle').fill('@bea.bsky.sandbox');
    await form.getByLabel('App password').fill('bea1-bea2-bea3-bea4');
    await shot(page, 'bluesky-connect-form', card);
    await form.getByRole('button', { name: 'Connect Bluesky' }).click();
    await expect(page.getByText('Bluesky connected.')).toBeVisible();
    const account = card.getByRole('region', { name: 'Bluesky accounts' }).getByRole('listitem');
    await expect(account).toContainText('bea.bsky.sandbox');
    await shot(page, 'bluesky-connected', card);

    const integrations = (
      await (await page.request.get(`/api/organizations/${orgId}/integrations`)).json()
    ).data.platforms as Array<{ id: string; platform: { name: string } }>;
    const bluesky = integrations.find((i) => i.platform.name === 'Bluesky')!;

    // Published at once; the post's link leads to the post on Bluesky's web app.
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        integrationIds: JSON.stringify([bluesky.id]),
        content: TEXT,
        action: 'publish',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const postId = (await created.json()).data.post.id as string;
    await page.goto(`/content/${postId}`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('link', { name: 'View on Bluesky' })).toBeVisible({
        timeout: 2000,
      });
    }).toPass({ timeout: 90_000, intervals: [2000] });
    const link = page.getByRole('link', { name: 'View on Bluesky' });
    await expect(link).toHaveAttribute(
      'href',
      /\/sandbox\/bluesky\/web\/profile\/did:plc:[a-z2-7]{24}\/post\/[2-7a-z]{13}$/,
    );
    await shot(page, 'bluesky-published');
    const postPage = await page.request.get((await link.getAttribute('href')) ?? '');
    expect(await postPage.text()).toContain('First post from Herald on #Bluesky');
  });

  test('the composer says how many videos Bluesky lets the account upload today', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    await signInAs(page, 'bluesky.video@example.com', 'Vic Video');
    const orgId = await createOrganizationFromOnboarding(page, 'Sky Clips');
    await startTrial(page, orgId, baseURL ?? '');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('region', { name: 'Connected Platforms' });
    await card.getByRole('button', { name: 'Continue with Bluesky' }).click();
    const form = card.getByRole('form', { name: 'Connect Bluesky with an app password' });
    await form.getByLabel('Handle').fill('vic.bsky.sandbox');
    await form.getByLabel('App password').fill('vic1-vic2-vic3-vic4');
    await form.getByRole('button', { name: 'Connect Bluesky' }).click();
    await expect(page.getByText('Bluesky connected.')).toBeVisible();

    await page.goto('/create-post');
    const box = page.getByRole('checkbox', { name: 'Bluesky', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await expect(box).toBeChecked();
    await page.getByLabel('Post content').fill('Three seconds of test pattern.');
    // No video yet: nothing to say about videos.
    await expect(page.getByRole('region', { name: 'Bluesky video allowance' })).toHaveCount(0);
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: shortVideo() });
    await expect(page.getByRole('button', { name: 'Remove clip.mp4' })).toBeVisible({
      timeout: 60_000,
    });
    const note = page.getByRole('region', { name: 'Bluesky video allowance' });
    await expect(note).toHaveText(
      'Bluesky lets this account upload 25 videos (10.0 GB) more today.',
    );
    await shot(page, 'bluesky-composer-video-allowance');
    await shot(page, 'bluesky-composer-video-allowance-note', note);
  });
});

/** The screen (or one part of it) at both sizes the project checks, into SHOTS_DIR when set. */
async function shot(page: Page, name: string, part?: Locator) {
  const dir = process.env.SHOTS_DIR ?? process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const path = `${dir}/${name}-${width}x${height}.png`;
    if (part) await part.screenshot({ path });
    else await page.screenshot({ path });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
