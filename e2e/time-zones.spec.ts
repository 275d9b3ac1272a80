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
  test("times are in the person's own zone (first the browser's) until the organization sets one, which then applies to everyone, named on every screen", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'harbour.owner@example.com', 'Hana Harbour');
    const orgId = await createOrganizationFromOnboarding(page, 'Harbour Lights');
    await startTrial(page, orgId, baseURL ?? '');
    await connectX(page);

    // The first sign-in made the browser's zone the person's own: the library names it and why,
    // and Settings shows it chosen.
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await expect(
      page.getByText(`Times in ${BROWSER_ZONE} (your time zone; the organization has none set)`),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Profile' }).getByLabel('Timezone')).toHaveValue(
      BROWSER_ZONE,
    );

    // The person saves a zone of their own: with no organization zone, it is the one used.
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
    await expect(page.getByText(`Times in ${USER_ZONE} (your time zone`)).toBeVisible();
    await page.getByLabel('Publish Date & Time').fill(`${day.y}-${pad(day.m)}-${pad(day.d)}T10:00`);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page).toHaveURL(/\/content$/);

    // The server got 10:00 in Auckland as an instant, not 10:00 in New York.
    const list = await (await page.request.get(`/api/organizations/${orgId}/posts`)).json();
    const post = list.data.posts[0];
    expect(new Date(post.scheduledAt).getTime()).toBe(expected);

    // The library and the details say 10:00 AM on Auckland's day, and name the zone.
    const shownOn = (y: number, m: number, d: number) =>
      new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
        timeZone: 'UTC',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
      });
    const shown = shownOn(day.y, day.m, day.d);
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

    // The organization sets its time zone: it applies to every member, this one included.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const organization = page.getByRole('region', { name: 'Organization' });
    const zoneField = organization.getByLabel('Organization time zone');
    await expect(zoneField.locator('option:checked')).toHaveText(
      'None: each member sees their own time zone',
    );
    await zoneField.selectOption(ORG_ZONE);
    await organization.getByRole('button', { name: 'Save Organization' }).click();
    await expect(page.getByText('Organization time zone saved.')).toBeVisible();
    await expect(
      page.getByText(`Your organization's time zone (${ORG_ZONE}) is used`),
    ).toBeVisible();

    // The same instant, now written on Tokyo's clock.
    const tokyo = wallParts(expected, ORG_ZONE);
    const hour = tokyo.h % 12 === 0 ? 12 : tokyo.h % 12;
    const inTokyo = `${shownOn(tokyo.y, tokyo.m, tokyo.d)} ${hour}:${pad(tokyo.mi)} ${tokyo.h < 12 ? 'AM' : 'PM'}`;
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await expect(
      page.getByText(`Times in ${ORG_ZONE} (the organization's time zone)`),
    ).toBeVisible();
    await expect(page.getByText(`Times in ${USER_ZONE}`)).toHaveCount(0);
    await expect(
      page.getByRole('list', { name: 'Posts' }).getByRole('article').getByText(inTokyo),
    ).toBeVisible();
    await page.goto(`/calendar?date=${tokyo.y}-${pad(tokyo.m)}-${pad(tokyo.d)}`);
    await expect(
      page.getByText(`Times in ${ORG_ZONE} (the organization's time zone)`),
    ).toBeVisible();
  });
});
