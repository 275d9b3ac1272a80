import { expect, test, type Page } from '@playwright/test';
import {
  createOrganizationFromOnboarding,
  seriousViolations,
  signInAs,
  startTrial,
} from './helpers';

const ORG_NAME = 'Lantern Posts';
const SHARED_TEXT = 'Lantern spring launch is almost here';
const X_TEXT = 'Spring launch tomorrow. #lantern';
const FACEBOOK_TEXT = 'Our spring launch is tomorrow: come and see what we built all winter.';
const EDITED_TEXT = 'Lantern spring launch: doors open at ten';

const settingsPlatforms = (page: Page) => page.getByRole('region', { name: 'Connected Platforms' });

/** Local dates as the browser (same machine) sees them. */
function dayAfter(days: number, hour = 10) {
  const date = new Date();
  date.setDate(date.getDate() + days);
  date.setHours(hour, 0, 0, 0);
  return date;
}
const pad = (n: number) => String(n).padStart(2, '0');
const dateKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const inputValue = (d: Date) => `${dateKey(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
const fullDay = (d: Date) =>
  d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });

/** Connects X and a Facebook Page through their sandboxes, as a member does from /settings. */
async function connectXAndFacebook(page: Page) {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await settingsPlatforms(page).getByRole('button', { name: 'Continue with X' }).click();
  await expect(page.getByRole('heading', { name: 'X sandbox' })).toBeVisible();
  await page.getByLabel('X username').fill('lantern_posts');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('X connected successfully.')).toBeVisible();

  await settingsPlatforms(page).getByRole('button', { name: 'Continue with Facebook' }).click();
  await expect(page.getByRole('heading', { name: 'Facebook sandbox' })).toBeVisible();
  await page.getByLabel('Facebook account name').fill('Lantern Facebook');
  await page.getByLabel(/Pages this account manages/).fill('Lantern Page, Lantern Jobs');
  await page.getByRole('button', { name: 'Approve' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose Facebook accounts' });
  await picker.getByRole('checkbox', { name: /Lantern Page/ }).check();
  await picker.getByRole('button', { name: 'Connect selected' }).click();
  await expect(page.getByText('Facebook connected successfully.')).toBeVisible();
}

test.describe('posts: library, calendar and details', () => {
  test('a person composes a post for two sandbox networks with customized text and an image, schedules it for tomorrow, sees it on the calendar and in the library, opens it, edits the text, drags it to another day', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const tomorrow = dayAfter(1);

    await signInAs(page, 'lantern.owner@example.com', 'Lena Lantern');
    const orgId = await createOrganizationFromOnboarding(page, ORG_NAME);
    await startTrial(page, orgId, baseURL ?? '');
    await connectXAndFacebook(page);

    // The library starts empty.
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await expect(page.getByRole('heading', { name: `${ORG_NAME} Content Library` })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Posts Yet' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Compose: shared text, then a text of its own for each network, an image, tomorrow 10:00.
    await page.getByRole('link', { name: 'Create Post' }).click();
    await expect(page.getByRole('heading', { name: 'Create Social Post' })).toBeVisible();
    // The platform tiles are labels around visually hidden checkboxes: click the tiles.
    for (const name of ['X', 'Facebook']) {
      const box = page.getByRole('checkbox', { name, exact: true });
      await page.locator('label').filter({ has: box }).click();
      await expect(box).toBeChecked();
    }
    await page.getByLabel('Post content').fill(SHARED_TEXT);
    await page.getByRole('tab', { name: 'Customize per Platform' }).click();
    await page.getByLabel('X content').fill(X_TEXT);
    await page.getByLabel('Facebook content').fill(FACEBOOK_TEXT);
    const image = await page.screenshot({ clip: { x: 0, y: 0, width: 400, height: 300 } });
    await page
      .getByLabel('Add shared media')
      .setInputFiles({ name: 'launch.png', mimeType: 'image/png', buffer: image });
    await expect(page.getByRole('button', { name: 'Remove launch.png' })).toBeVisible();
    // Nothing goes out by default: without a time it is a draft, a chosen time schedules it.
    await expect(page.getByRole('radio', { name: 'Save as draft' })).toBeChecked();
    await page.getByLabel('Publish Date & Time').fill(inputValue(tomorrow));
    await expect(page.getByRole('radio', { name: 'Schedule' })).toBeChecked();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page).toHaveURL(/\/content$/);

    // The library: one scheduled card with the picture and both networks.
    const card = page.getByRole('list', { name: 'Posts' }).getByRole('article');
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Scheduled', { exact: true })).toBeVisible();
    await expect(card.getByRole('img', { name: 'X' })).toBeVisible();
    await expect(card.getByRole('img', { name: 'Facebook' })).toBeVisible();
    await expect(card.getByRole('img', { name: 'launch.png' })).toBeVisible();
    await expect(card.getByRole('link', { name: SHARED_TEXT, exact: true })).toBeVisible();
    // A post not yet out offers Edit on its card.
    await expect(card.getByRole('link', { name: `Edit ${SHARED_TEXT}` })).toBeVisible();
    await page.getByRole('tab', { name: 'Drafts' }).click();
    await expect(page.getByRole('heading', { name: 'No Drafts Yet' })).toBeVisible();
    await page.getByRole('tab', { name: 'Scheduled' }).click();
    await page.getByRole('searchbox', { name: 'Search content' }).fill('SPRING LAUNCH');
    await expect(card).toHaveCount(1);
    await page.getByRole('searchbox', { name: 'Search content' }).fill('nothing like this');
    await expect(page.getByRole('heading', { name: 'No Posts Match Your Search' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search content' }).fill('');
    await expect(card).toHaveCount(1);

    // The calendar shows it on tomorrow's column at 10:00 AM.
    await page.getByRole('link', { name: 'Calendar', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    if (tomorrow.getDay() === 0) await page.getByRole('button', { name: 'Next week' }).click();
    const tomorrowHeader = page.getByRole('columnheader', { name: fullDay(tomorrow) });
    await expect(tomorrowHeader.getByText('1 post')).toBeVisible();
    await expect(page.getByRole('link', { name: /10:00 AM.*Lantern spring launch/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await tomorrowHeader.getByRole('button').click();
    const day = page.getByRole('dialog', { name: new RegExp(`^${fullDay(tomorrow)}`) });
    await expect(day.getByRole('article')).toContainText(SHARED_TEXT);
    await expect(day.getByRole('img', { name: 'launch.png' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await day.getByRole('link', { name: /^View/ }).click();

    // Details: the shared text, each network's own text, and edit.
    await expect(page.getByRole('heading', { name: 'Post Details', level: 1 })).toBeVisible();
    const content = page.getByRole('region', { name: 'Content' });
    await expect(content.getByText(SHARED_TEXT)).toBeVisible();
    await expect(content.getByRole('listitem', { name: 'Text for X' })).toContainText(X_TEXT);
    await expect(content.getByRole('listitem', { name: 'Text for Facebook' })).toContainText(
      FACEBOOK_TEXT,
    );
    await expect(page.getByRole('region', { name: 'Media' }).getByRole('img')).toBeVisible();
    const publish = page.getByRole('region', { name: 'Publish to Platform' });
    // Scheduled: the publish panel offers both networks, none chosen yet.
    for (const name of ['X', 'Facebook']) {
      await expect(publish.getByRole('checkbox', { name: `Publish to ${name}` })).not.toBeChecked();
    }
    expect(await seriousViolations(page)).toEqual([]);

    // Edit Post opens the composer with the post loaded; one shared text replaces the custom ones.
    await page.getByRole('link', { name: 'Edit Post' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Post', level: 1 })).toBeVisible();
    await expect(page.getByLabel('X content')).toHaveValue(X_TEXT);
    await page.getByRole('tab', { name: 'Shared Content' }).click();
    await page.getByLabel('Post content').fill(EDITED_TEXT);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Post updated successfully!')).toBeVisible();
    await expect(content.getByText(EDITED_TEXT)).toBeVisible();
    await expect(content.getByRole('listitem', { name: 'Text for X' })).toHaveCount(0);
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Content' }).getByText(EDITED_TEXT),
    ).toBeVisible();

    // Back on the calendar, drag it to another day: same time, and the server keeps it.
    await page.goto(`/calendar?date=${dateKey(tomorrow)}`);
    const chip = page.getByRole('link', { name: /10:00 AM.*doors open at ten/ });
    await expect(chip).toBeVisible();
    const later = dayAfter(2);
    let target = page.getByRole('columnheader', { name: fullDay(later) });
    if (tomorrow.getDay() === 6) {
      // Tomorrow ends the week: the month shows both days. Its own posts and queue slots are
      // read first; a chip re-rendered by their answer mid-drag would drop nothing.
      const monthRead = Promise.all(
        ['/posts?from=', '/queue/slots?from='].map((path) =>
          page.waitForResponse((r) => r.url().includes(path) && r.url().includes('T00%3A00')),
        ),
      );
      await page.getByRole('button', { name: 'Month', exact: true }).click();
      await monthRead;
      await expect(
        page.getByRole('button', { name: new RegExp(`^${fullDay(tomorrow)}, 1 post`) }),
      ).toBeVisible();
      target = page
        .getByRole('button', { name: new RegExp(`^${fullDay(later)}, `) })
        .locator('xpath=ancestor::td[1]');
    }
    // Both in view before the button goes down: a page scrolled between the press and the first
    // move starts no drag in Chromium (the month's next row is below a 720 px viewport).
    await target.evaluate((cell) => cell.scrollIntoView({ block: 'center' }));
    await chip.dragTo(target);
    await expect(page.getByText(`Post moved to ${fullDay(later)} at 10:00 AM`)).toBeVisible();

    await page.goto(`/calendar?date=${dateKey(later)}`);
    // The calendar remembers the view last chosen: back to the week, whose columns name days.
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await expect(
      page.getByRole('columnheader', { name: fullDay(later) }).getByText('1 post'),
    ).toBeVisible();
    await page.getByRole('link', { name: /doors open at ten/ }).click();
    await expect(
      page
        .getByRole('region', { name: 'Details' })
        .getByText('Scheduled For', { exact: true })
        .locator('xpath=following-sibling::dd[1]'),
    ).toHaveText(
      `${later.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })} 10:00 AM`,
    );
  });
});

test.describe('posts: the library as a list, with filters and bulk actions', () => {
  test('a person with three scheduled posts switches to the list, shows the scheduled ones, moves two back to draft after confirming, duplicates them and undoes it, and moves the third a day later and back', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'ledger.owner@example.com', 'Lou Ledger');
    const orgId = await createOrganizationFromOnboarding(page, 'Ledger Posts');
    await startTrial(page, orgId, baseURL ?? '');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await settingsPlatforms(page).getByRole('button', { name: 'Continue with X' }).click();
    await page.getByLabel('X username').fill('ledger_posts');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();

    // Three scheduled posts and one draft, through the API the composer uses.
    const supported = await (await page.request.get('/api/platforms/supported')).json();
    const x = supported.data.platforms.find((p: { name: string }) => p.name === 'X');
    const posts: Array<Record<string, string>> = [
      { content: 'Ledger quarterly numbers', scheduledAt: dayAfter(2).toISOString() },
      { content: 'Ledger team outing', scheduledAt: dayAfter(3).toISOString() },
      { content: 'Ledger office move', scheduledAt: dayAfter(4).toISOString() },
      { content: 'Ledger ideas for later', action: 'draft' },
    ];
    for (const fields of posts) {
      const created = await page.request.post(`/api/organizations/${orgId}/post`, {
        headers: origin,
        multipart: { platformIds: JSON.stringify([x.id]), ...fields },
      });
      expect(created.status()).toBe(201);
    }

    // The list view, filtered to the scheduled posts.
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table', { name: 'Posts' });
    await expect(table.getByRole('row')).toHaveCount(5);
    await page.getByRole('tab', { name: 'Scheduled' }).click();
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(table.getByRole('link', { name: /Ledger ideas for later/ })).toHaveCount(0);
    await page.getByLabel('Network', { exact: true }).selectOption({ label: 'X' });
    await expect(table.getByRole('row')).toHaveCount(4);
    expect(await seriousViolations(page)).toEqual([]);

    // Two chosen, moved to draft after saying how many.
    await table.getByRole('checkbox', { name: 'Select Ledger team outing' }).check();
    await table.getByRole('checkbox', { name: 'Select Ledger office move' }).check();
    const bar = page.getByRole('toolbar', { name: 'Selected posts' });
    await expect(bar.getByText('2 posts selected')).toBeVisible();
    await bar.getByRole('button', { name: 'Move to draft' }).click();
    const confirm = page.getByRole('dialog', { name: 'Move 2 posts to draft?' });
    await expect(confirm).toContainText('The 2 selected posts will not be published');
    await confirm.getByRole('button', { name: 'Move to draft' }).click();
    await expect(page.getByText('2 posts moved to draft.')).toHaveCount(1);
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(
      table.getByRole('link', { name: 'Ledger quarterly numbers', exact: true }),
    ).toBeVisible();

    // The drafts tab has them, and the list view is remembered after a reload.
    await page.getByRole('tab', { name: 'Drafts' }).click();
    await expect(table.getByRole('row')).toHaveCount(4);
    await page.reload();
    await expect(page.getByRole('table', { name: 'Posts' }).getByRole('row')).toHaveCount(4);
    await expect(
      page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }),
    ).toHaveAttribute('aria-pressed', 'true');

    // The two drafts duplicated: two new drafts, which Undo deletes again.
    const list = page.getByRole('table', { name: 'Posts' });
    await list.getByRole('checkbox', { name: 'Select Ledger team outing' }).check();
    await list.getByRole('checkbox', { name: 'Select Ledger office move' }).check();
    await bar.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByText('2 copies made as drafts.')).toBeVisible();
    await expect(list.getByRole('row')).toHaveCount(6);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Undone.')).toBeVisible();
    await expect(list.getByRole('row')).toHaveCount(4);

    // The scheduled post moved a day later in the reschedule dialog, then back with Undo.
    await page.getByRole('tab', { name: 'Scheduled' }).click();
    await expect(list.getByRole('row')).toHaveCount(2);
    const shortDay = (d: Date) =>
      `${d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })} 10:00 AM`;
    const quarterly = list.getByRole('row', { name: /Ledger quarterly numbers/ });
    await expect(quarterly).toContainText(shortDay(dayAfter(2)));
    await quarterly.getByRole('checkbox').check();
    await bar.getByRole('button', { name: 'Reschedule' }).click();
    const move = page.getByRole('dialog', { name: 'Reschedule 1 post' });
    await move.getByRole('radio', { name: /Shift by days/ }).check();
    await move.getByRole('spinbutton', { name: 'Days' }).fill('1');
    await expect(move.getByRole('region', { name: 'Preview' })).toContainText(
      `${shortDay(dayAfter(2))} → ${shortDay(dayAfter(3))}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await move.getByRole('button', { name: 'Reschedule' }).click();
    await expect(page.getByText('1 post moved 1 day later.')).toBeVisible();
    await expect(quarterly).toContainText(shortDay(dayAfter(3)));
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Undone.')).toBeVisible();
    await expect(quarterly).toContainText(shortDay(dayAfter(2)));
  });
});
