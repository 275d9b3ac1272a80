import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const TEXT = 'Tide tables for the weekend regatta';
// ADMIN_EMAILS in playwright.config.ts makes this address an operator at sign-in.
const OPERATOR = { email: 'operator@example.com', name: 'Opal Operator' };

/** The rows of a CSV file (RFC 4180 quoting), header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

test.describe('analytics', () => {
  test('a post published to X and Threads is read when the sandbox clock moves on: the screen fills in by itself, Refresh metrics reads again, the CSV has its rows, the dashboard shows the engagement rate', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'regatta.owner@example.com', 'Rae Regatta');
    const orgId = await createOrganizationFromOnboarding(page, 'Regatta Tides');
    await startTrial(page, orgId, baseURL ?? '');

    // Before anything is published, the dashboard has no engagement rate to show.
    const engagement = page.locator('dl').filter({ hasText: 'Engagement Rate' });
    await expect(engagement).toContainText('No data yet');

    // Two sandbox networks, connected as a member does from /settings.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const platformsCard = page.getByRole('region', { name: 'Connected Platforms' });
    await platformsCard.getByRole('button', { name: 'Continue with X' }).click();
    await page.getByLabel('X username').fill('regatta_tides');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();
    await platformsCard.getByRole('button', { name: 'Continue with Threads' }).click();
    // A sandbox account is one organization's: each test signs in as its own.
    await page.getByLabel('Threads username').fill('regatta_tides');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Threads connected successfully.')).toBeVisible();

    // X bills every read: the owner turns X metrics on from /analytics first.
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    const xCard = page.getByRole('region', { name: 'X metrics' });
    await xCard.getByRole('switch', { name: 'Read X metrics' }).click();
    await xCard.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/organizations/${orgId}/analytics/settings`);
        return (await res.json()).data.xEnabled;
      })
      .toBe(true);

    // A post for both networks, published now from its details page.
    const supported = await (await page.request.get('/api/platforms/supported')).json();
    const idOf = (name: string) =>
      supported.data.platforms.find((p: { name: string }) => p.name === name).id as string;
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        platformIds: JSON.stringify([idOf('X'), idOf('Threads')]),
        content: TEXT,
        scheduledAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
      },
    });
    expect(created.status()).toBe(201);
    const postId = (await created.json()).data.post.id as string;
    await page.goto(`/content/${postId}`);
    const panel = page.getByRole('region', { name: 'Publish to Platform' });
    for (const name of ['X', 'Threads']) {
      await panel
        .getByRole('listitem', { name })
        .getByRole('checkbox', { name: `Publish to ${name}` })
        .check();
    }
    await panel.getByRole('button', { name: 'Publish Now' }).click();
    for (const name of ['X', 'Threads'])
      await expect(
        panel.getByRole('listitem', { name }).getByRole('link', { name: `View on ${name}` }),
      ).toBeVisible({ timeout: 30_000 });

    // Published, not read yet: the screen says so.
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Getting started with analytics' })
        .getByRole('heading', { name: 'The first figures are on their way' }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Key figures' })).toHaveCount(0);

    // An hour and a half passes on both networks (within X's two-hour token), so the post has
    // been seen and liked there. The networks' clocks are every organization's: an operator
    // moves them.
    const ops = await browser.newContext();
    const opsPage = await ops.newPage();
    await signInAs(opsPage, OPERATOR.email, OPERATOR.name);
    await expect(opsPage).not.toHaveURL(/\/login/);
    for (const net of ['x', 'threads']) {
      const res = await opsPage.request.post(`/api/sandbox/${net}/_emu/clock`, {
        data: { advance_seconds: 5400 },
      });
      expect(res.ok()).toBe(true);
    }
    await ops.close();

    // By the networks' time the 10-minute and 1-hour readings are due: the worker takes them
    // and the screen fills in without anyone collecting by hand.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('region', { name: 'Key figures' })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });

    // The owner reads the networks again now; then the button waits out its cooldown.
    await page.getByRole('button', { name: 'Refresh metrics' }).click();
    await expect(page.getByText('Metrics refreshed: 2 post readings taken.')).toBeVisible();
    const refresh = page.getByRole('button', { name: 'Refresh metrics' });
    await expect(refresh).toBeDisabled();
    await expect(refresh).toHaveAccessibleDescription(/^You can refresh again at \d{2}:\d{2}$/);
    // Collecting for any organization stays the operators'.
    const refused = await page.request.post('/api/admin/analytics/collect', {
      headers: origin,
      data: { organizationId: orgId },
    });
    expect(refused.status()).toBe(403);

    // The screen is filled in: KPIs, the daily chart, top posts and the best-time heatmap.
    const kpis = page.getByRole('region', { name: 'Key figures' });
    await expect(kpis).toBeVisible();
    const figure = (label: string) =>
      kpis.locator('div').filter({ has: page.getByText(label, { exact: true }) });
    await expect(figure('Posts published')).toContainText(/^Posts published1/);
    await expect(figure('Views')).toContainText(/^Views[1-9][\d,]*/);
    await expect(figure('Engagement rate')).toContainText(/^Engagement rate\d+(\.\d+)?%/);
    const daily = page.getByRole('region', { name: 'Views and interactions per day' });
    await expect(daily).toContainText(/[1-9][\d,]* views and [\d,]+ interactions gained over/);
    const top = page.getByRole('region', { name: 'Top posts' });
    const topRows = top.getByRole('row').filter({ has: page.getByRole('link', { name: TEXT }) });
    await expect(topRows).toHaveCount(2);
    await expect(topRows.filter({ hasText: 'X' }).first()).toBeVisible();
    await expect(topRows.filter({ hasText: 'Threads' })).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Best time to post' })).toContainText(
      /Based on \d+ posts? published from/,
    );

    // The posts CSV: one row per network the post went to, with the figures read.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export posts CSV' }).click();
    const download = await downloading;
    const csv = await readFile((await download.path())!, 'utf8');
    // A byte-order mark first, so spreadsheet programs read it as UTF-8.
    const rows = parseCsv(csv.replace(/^\uFEFF/, ''));
    const [header, ...body] = rows;
    expect(header!.slice(0, 7)).toEqual([
      'published_at',
      'network',
      'account',
      'post_id',
      'title',
      'text',
      'views',
    ]);
    const col = (name: string) => header!.indexOf(name);
    const records = body.filter((r) => r.length > 1);
    expect(records).toHaveLength(2);
    expect(records.map((r) => r[col('network')]).sort()).toEqual(['Threads', 'X']);
    for (const r of records) {
      expect(r[col('post_id')]).toBe(postId);
      expect(r[col('text')]).toBe(TEXT);
      expect(Number(r[col('views')])).toBeGreaterThan(0);
      expect(r[col('engagement_rate')]).toMatch(/^\d+(\.\d+)?$/);
      expect(r[col('read_at')]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(r[col('permalink')]).toMatch(/^https:\/\//);
    }

    // The dashboard's Engagement Rate is the networks' own now, with its formula.
    await page.goto('/dashboard');
    await expect(engagement).toContainText(/\d+(\.\d+)?%/);
    await expect(engagement).not.toContainText('No data');
    await expect(engagement).toContainText('Rate = ');
  });
});
