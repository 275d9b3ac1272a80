import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

/** The browser (and so the machine, for the app) is in New York; the people are not. */
const BROWSER_ZONE = 'America/New_York';
const ORG_ZONE = 'Asia/Tokyo';
const USER_ZONE = 'Pacific/Auckland';
const TEXT = 'Harbour lights at ten, Auckland time';

test.use({ timezoneId: BROWSER_ZONE });

const pad = (n: number) => String(n).padStart(2, '0');

/** What the clocks in `zone` show at `ms`, as numbers. */
function wallParts(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour') % 24, mi: get('minute') };
}

/** The instant at which the clocks in `zone` show y-m-d h:00 (no daylight change that hour). */
function instantOf(y: number, m: number, d: number, h: number, zone: string): number {
  const guess = Date.UTC(y, m - 1, d, h);
  const w = wallParts(guess, zone);
  const offset = Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi) - guess;
  return guess - offset;
}

async function connectX(page: Page) {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const platforms = page.getByRole('region', { name: 'Connected Platforms' });
  await platforms.getByRole('button', { name: 'Continue with X' }).click();
  await expect(page.getByRole('heading', { name: 'X sandbox' })).toBeVisible();
  await page.getByLabel('X username').fill('harbour_lights');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('X connected successfully.')).toBeVisible();
}

test.describe('time zones', () => {
  test("a person's zone starts as the browser's, a team default does not override it, and the zone they choose is the one times are shown and scheduled in", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'harbour.owner@example.com', 'Hana Harbour');
    const orgId = await createOrganizationFromOnboarding(page, 'Harbour Lights');
    await startTrial(page, orgId, baseURL ?? '');
    await connectX(page);

    // The first sign-in made the browser's zone the person's own: the library names it, and
    // Settings shows it chosen.
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await expect(page.getByText(`Times in ${BROWSER_ZONE}`)).toBeVisible();
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Profile' }).getByLabel('Timezone')).toHaveValue(
      BROWSER_ZONE,
    );

    // The org admin gives the team a default zone; it is for members without a zone of their own,
    // so this person keeps theirs.
    const organization = page.getByRole('region', { name: 'Organization' });
    await organization.getByLabel('Default time zone').selectOption(ORG_ZONE);
    await organization.getByRole('button', { name: 'Save Organization' }).click();
    await expect(page.getByText('Organization time zone saved.')).toBeVisible();
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await expect(page.getByText(`Times in ${BROWSER_ZONE}`)).toBeVisible();
    await expect(page.getByText(`Times in ${ORG_ZONE}`)).toHaveCount(0);

    // The person saves a zone of their own, which wins over the team's.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByLabel('Timezone').selectOption(USER_ZONE);
    await profile.getByRole('button', { name: 'Save Profile' }).click();
    await expect(page.getByText('Settings saved successfully!')).toBeVisible();

    // Schedule for 10:00 three days from now, Auckland's day and Auckland's clock.
    const day = wallParts(Date.now() + 3 * 86_400_000, USER_ZONE);
    const expected = instantOf(day.y, day.m, day.d, 10, USER_ZONE);
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByRole('link', { name: 'Create Post' }).click();
    await expect(page.getByRole('heading', { name: 'Create Social Post' })).toBeVisible();
    const box = page.getByRole('checkbox', { name: 'X', exact: true });
    await page.locator('label').filter({ has: box }).click();
    await page.getByLabel('Post content').fill(TEXT);
    await page.getByRole('radio', { name: 'Schedule' }).check();
    await expect(page.getByText(`Times in ${USER_ZONE}`)).toBeVisible();
    await page.getByLabel('Publish Date & Time').fill(`${day.y}-${pad(day.m)}-${pad(day.d)}T10:00`);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page).toHaveURL(/\/content$/);

    // The server got 10:00 in Auckland as an instant, not 10:00 in New York.
    const list = await (await page.request.get(`/api/organizations/${orgId}/posts`)).json();
    const post = list.data.posts[0];
    expect(new Date(post.scheduledAt).getTime()).toBe(expected);

    // The library and the details say 10:00 AM on Auckland's day, and name the zone.
    const shown = new Date(Date.UTC(day.y, day.m - 1, day.d)).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    });
    await expect(page.getByText(`Times in ${USER_ZONE}`)).toBeVisible();
    const card = page.getByRole('list', { name: 'Posts' }).getByRole('article');
    await expect(card.getByText(`${shown} 10:00 AM`)).toBeVisible();
    await card.getByRole('link', { name: TEXT, exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Post Details', level: 1 })).toBeVisible();
    const details = page.getByRole('region', { name: 'Details' });
    await expect(details.getByText(`${shown} 10:00 AM`)).toBeVisible();
    await expect(details.getByText(`Times in ${USER_ZONE}`)).toBeVisible();

    // The calendar puts it at 10:00 AM too.
    await page.goto(`/calendar?date=${day.y}-${pad(day.m)}-${pad(day.d)}`);
    await expect(page.getByText(`Times in ${USER_ZONE}`)).toBeVisible();
    await expect(page.getByRole('link', { name: /10:00 AM.*Harbour lights/ })).toBeVisible();
  });
});
