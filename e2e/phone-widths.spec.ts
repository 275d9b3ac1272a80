import { expect, test, type Page } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

// ADMIN_EMAILS in playwright.config.ts makes this address an operator at sign-in.
const OPERATOR = { email: 'pocket.operator@example.com', name: 'Pia Pocket' };
const SMALL_PHONE = { width: 360, height: 740 };
const PHONE = { width: 390, height: 844 };

/**
 * How far the page reaches past the right edge of the window, in CSS pixels (0 when it fits),
 * and the outermost elements that stick out past it, so a failure says where to look.
 */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits?: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const overflow = root.scrollWidth - root.clientWidth;
    if (overflow <= 0) return { overflow };
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > root.clientWidth + 0.5;
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => sticksOut(el) && !(el.parentElement && sticksOut(el.parentElement)))
      .slice(0, 4)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}">`);
    return { overflow, culprits };
  });
}

/** Opens `path`, waits for `ready` and the end of loading, and returns the overflow. */
async function overflowAt(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  return { path, ...(await sidewaysOverflow(page)) };
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { name }).first()).toBeVisible();
};

/**
 * A new organization on a trial with X connected (username `handle`) through its sandbox;
 * returns what creating posts through the API needs.
 */
async function organizationWithX(page: Page, baseURL: string, name: string, handle: string) {
  const orgId = await createOrganizationFromOnboarding(page, name);
  await startTrial(page, orgId, baseURL);
  await page.goto('/settings');
  await page
    .getByRole('region', { name: 'Connected Platforms' })
    .getByRole('button', { name: 'Continue with X' })
    .click();
  await page.getByLabel('X username').fill(handle);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('X connected successfully.')).toBeVisible();
  const supported = await (await page.request.get('/api/platforms/supported')).json();
  const x = supported.data.platforms.find((p: { name: string }) => p.name === 'X');

  /** Creates a post for X through the API the composer uses; without a time it is a draft. */
  const createPost = async (fields: { content: string; title?: string; at?: Date }) => {
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: { origin: baseURL },
      multipart: {
        platformIds: JSON.stringify([x.id]),
        content: fields.content,
        ...(fields.title ? { title: fields.title } : {}),
        ...(fields.at ? { scheduledAt: fields.at.toISOString() } : { action: 'draft' }),
      },
    });
    expect(created.status()).toBe(201);
    return (await created.json()).data.post.id as string;
  };
  return { orgId, createPost };
}

/** Local days and times as the browser (same machine) sees them. */
function startOfWeek(from: Date): Date {
  const day = new Date(from);
  day.setHours(0, 0, 0, 0);
  day.setDate(day.getDate() - day.getDay());
  return day;
}
function at(day: Date, addDays: number, hour: number, minute = 0): Date {
  const date = new Date(day);
  date.setDate(date.getDate() + addDays);
  date.setHours(hour, minute, 0, 0);
  return date;
}
const dayName = (d: Date) =>
  d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
/** "9:15 AM", as the calendar writes times. */
const timeText = (d: Date) =>
  `${d.getHours() % 12 || 12}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;

test.describe('phone widths', () => {
  test('no screen of the app scrolls sideways at 360 px, signed out, signed in or in the back-office', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(SMALL_PHONE);
    const results: Array<{ path: string; overflow: number; culprits?: string[] }> = [];

    // Signed out.
    for (const path of [
      '/',
      '/login',
      '/signup',
      '/privacy-policy',
      '/terms-of-service',
      '/cookie-policy',
      '/no-such-page',
    ]) {
      results.push(await overflowAt(page, path, heading(/./)));
    }

    // An operator with an organization, a connected network with a long handle, and a post
    // whose title and text are long addresses without spaces.
    await signInAs(page, OPERATOR.email, OPERATOR.name);
    await expect(page).toHaveURL(/\/onboarding$/);
    results.push({ path: '/onboarding', ...(await sidewaysOverflow(page)) });
    const { orgId, createPost } = await organizationWithX(
      page,
      baseURL ?? '',
      'Pocket Sized Organization',
      'pocket_sized_organization_account',
    );
    const postId = await createPost({
      title: 'A long title with https://example.com/a/very/long/link/that/does/not/break/anywhere',
      content: `Pocket sized launch ${'https://example.com/an-address-with-no-spaces-at-all-'.repeat(3)}`,
      at: new Date(Date.now() + 86_400_000),
    });

    const signedIn: Array<[string, (page: Page) => Promise<void>]> = [
      ['/dashboard', heading(/./)],
      ['/content', heading(/Content Library/)],
      [`/content/${postId}`, heading('Post Details')],
      ['/calendar', heading('Calendar')],
      ['/calendar?view=week', heading('Calendar')],
      ['/calendar?view=month', heading('Calendar')],
      // The composer as it opens (its previews are checked with the composer).
      ['/create-post', heading('Create Social Post')],
      ['/team', heading(/./)],
      [`/org/${orgId}/invite-members`, heading(/./)],
      ['/settings', heading(/./)],
      [`/org/${orgId}/settings/integrations`, heading(/./)],
      ['/pricing', heading(/./)],
      ['/notifications', heading(/./)],
      ['/admin/dashboard', heading(/./)],
      ['/admin/users', heading('User Management')],
      ['/admin/plans', heading('Plan Management')],
      ['/admin/platforms', heading(/./)],
      ['/admin/network-setup', heading('Network setup')],
    ];
    for (const [path, ready] of signedIn) results.push(await overflowAt(page, path, ready));

    expect(results.length).toBeGreaterThan(20);
    expect(results.filter((r) => r.overflow > 0)).toEqual([]);

    // The back-office pages are all in sight in the phone's menu, none past the right edge.
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Back-office menu' });
    const links = menu.getByRole('link');
    await expect(links).toHaveText(['Dashboard', 'Users', 'Plans', 'Platforms', 'Network setup']);
    for (const link of await links.all()) {
      await expect(link).toBeInViewport({ ratio: 1 });
    }
    await menu.getByRole('link', { name: 'Platforms' }).click();
    await expect(page).toHaveURL(/\/admin\/platforms$/);
    await expect(menu).toBeHidden();
  });

  test("a phone's calendar is an agenda of the week, every post by day, without sideways scrolling", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'pocket.planner@example.com', 'Pia Planner');
    const { createPost } = await organizationWithX(
      page,
      baseURL ?? '',
      'Pocket Planner',
      'pocket_planner',
    );

    // Posts on the days left of this week (the server schedules only ahead) and three on days
    // of next week; a draft without a time is on no day but in the Unscheduled tray.
    const now = new Date();
    const thisWeek = startOfWeek(now);
    const nextWeek = at(thisWeek, 7, 0);
    const seeded: Array<{ content: string; at: Date }> = [];
    await createPost({ content: 'Draft without a date yet' });
    for (let day = now.getDay() + 1; day <= 6; day += 1) {
      seeded.push({ content: `This week, day ${day}`, at: at(thisWeek, day, 8 + day, 15) });
    }
    for (const day of [1, 3, 5]) {
      seeded.push({ content: `Next week, day ${day}`, at: at(nextWeek, day, 9 + day, 45) });
    }
    for (const post of seeded) await createPost(post);

    await page.setViewportSize(PHONE);
    await page.goto('/calendar');
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    await expect(page.getByText(/^Times in /)).toBeVisible();
    const agenda = page.getByRole('list', { name: 'Agenda' });
    await expect(agenda).toBeVisible();
    await expect(page.getByRole('button', { name: 'Agenda' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await expect(
      page
        .getByRole('region', { name: /Unscheduled/ })
        .getByRole('link', { name: /Draft without a date yet/ }),
    ).toBeVisible();

    const expectWeek = async (weekStart: Date) => {
      const inWeek = seeded.filter((p) => p.at >= weekStart && p.at < at(weekStart, 7, 0));
      // On a Saturday this week has no day left: only next week's posts.
      if (weekStart === thisWeek && inWeek.length === 0) return;
      await expect(agenda.getByRole('region')).toHaveCount(7);
      await expect(agenda.getByRole('link', { name: /AM|PM/ })).toHaveCount(inWeek.length);
      for (const post of inWeek) {
        const day = agenda.getByRole('region', { name: dayName(post.at) });
        const item = day.getByRole('link', { name: new RegExp(post.content) });
        await expect(item).toBeVisible();
        await expect(item).toContainText(timeText(post.at));
        await expect(item).toContainText(', on X');
      }
      await page.waitForLoadState('networkidle');
      expect(await sidewaysOverflow(page)).toEqual({ overflow: 0 });
    };

    await expectWeek(thisWeek);
    await page.getByRole('button', { name: 'Next week' }).click();
    await expectWeek(nextWeek);

    // An item opens its post.
    await agenda.getByRole('link', { name: /Next week, day 3/ }).click();
    await expect(page.getByRole('heading', { name: 'Post Details', level: 1 })).toBeVisible();
  });
});
