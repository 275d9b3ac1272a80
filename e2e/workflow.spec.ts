import { expect, test, type Browser } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const ORG_NAME = 'Tidewater Studio';
const CREATOR = 'cora.creator@example.com';
const MANAGER = 'milo.manager@example.com';
const PARTS = [
  'Tide tables for the week, a thread (1/3)',
  'Monday and Tuesday: low tide before noon (2/3)',
  'The rest of the week: after lunch (3/3)',
];
const FIRST_COMMENT = 'Full tables on our site, updated daily';

interface SandboxTweet {
  id: string;
  account: string;
  text: string;
  inReplyTo: string | null;
}

/** A teammate signs in in a browser of their own and accepts the invitation from onboarding. */
async function joinAs(browser: Browser, baseURL: string, email: string, name: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAs(page, email, name);
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.getByRole('button', { name: 'View Invitations' }).click();
  await page.getByRole('button', { name: `Accept invitation to ${ORG_NAME}` }).click();
  await expect(page.getByText(`You joined ${ORG_NAME}!`)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page };
}

/** The next times (UTC) that are one of the daily wall times given, at least `lead` ms from now. */
function nextDailyTimes(times: string[], count: number, lead: number): string[] {
  const start = Date.now() + lead;
  const found: number[] = [];
  for (let day = 0; found.length < count && day < 3; day += 1) {
    for (const time of times) {
      const [h, m] = time.split(':').map(Number);
      const at = new Date();
      at.setUTCDate(at.getUTCDate() + day);
      at.setUTCHours(h!, m!, 0, 0);
      if (at.getTime() >= start) found.push(at.getTime());
    }
  }
  return found
    .sort((a, b) => a - b)
    .slice(0, count)
    .map((t) => new Date(t).toISOString());
}

test.describe('team workflow', () => {
  test('a Content Creator submits an X thread with a first comment, a manager approves it and it goes out in order; a CSV import refuses two rows and says why; the queue fills its next slots', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const base = baseURL ?? '';
    const origin = { origin: base };

    // 1. The owner: organization, trial, X through its sandbox, approvals on.
    await signInAs(page, 'tess.owner@example.com', 'Tess Tidewater');
    const orgId = await createOrganizationFromOnboarding(page, ORG_NAME);
    await startTrial(page, orgId, base);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('region', { name: 'Connected Platforms' })
      .getByRole('button', { name: 'Continue with X' })
      .click();
    await page.getByLabel('X username').fill('tidewater_studio');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();
    const approvalSwitch = page.getByRole('switch', {
      name: 'Posts need approval before they are scheduled',
    });
    await expect(approvalSwitch).toHaveAttribute('aria-checked', 'false');
    await approvalSwitch.click();
    await expect(
      page.getByText('Posts now need approval before they are scheduled.'),
    ).toBeVisible();
    await expect(approvalSwitch).toHaveAttribute('aria-checked', 'true');

    const integrations = await (
      await page.request.get(`/api/organizations/${orgId}/integrations`)
    ).json();
    const xAccount = integrations.data.platforms[0] as { id: string };
    expect(integrations.data.platforms).toHaveLength(1);

    // Invitations with a role each (the invite form's API), accepted by each teammate.
    const roles = (await (await page.request.get(`/api/organizations/${orgId}/roles`)).json()) as {
      id: string;
      name: string;
    }[];
    const roleId = (pattern: RegExp) => roles.find((r) => pattern.test(r.name))!.id;
    for (const [email, role] of [
      [CREATOR, roleId(/^content ?creator$/i)],
      [MANAGER, roleId(/^social ?media ?manager$/i)],
    ] as const) {
      const invite = await page.request.post(`/api/member/invite/${orgId}`, {
        data: { email, roleId: role },
        headers: origin,
      });
      expect(invite.ok()).toBe(true);
    }
    const creator = await joinAs(browser, base, CREATOR, 'Cora Creator');
    const manager = await joinAs(browser, base, MANAGER, 'Milo Manager');

    // 2. The Content Creator schedules a three-part thread with a first comment, two minutes
    // ahead (the composer's create call): it waits for approval instead.
    const scheduledAt = new Date(Date.now() + 120_000);
    const created = await creator.page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        integrationIds: JSON.stringify([xAccount.id]),
        content: PARTS[0]!,
        scheduledAt: scheduledAt.toISOString(),
        action: 'schedule',
        followUps: JSON.stringify({
          [xAccount.id]: { parts: PARTS.slice(1), firstComment: FIRST_COMMENT },
        }),
      },
    });
    expect(created.status()).toBe(201);
    const postId = (await created.json()).data.post.id as string;
    await creator.page.goto(`/content/${postId}`);
    await expect(
      creator.page.getByRole('heading', { name: 'Post Details', level: 1 }),
    ).toBeVisible();
    await expect(creator.page.getByRole('region', { name: 'Details' })).toContainText(
      /Pending approval/i,
    );
    // A Content Creator has no Approvals page in the sidebar.
    await expect(
      creator.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /Approvals/ }),
    ).toHaveCount(0);

    // 3. The manager sees the count in the sidebar and approves from /approvals.
    await manager.page.reload();
    const approvalsLink = manager.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Approvals 1 pending' });
    await expect(approvalsLink).toBeVisible();
    await approvalsLink.click();
    await expect(manager.page).toHaveURL(/\/approvals$/);
    const waiting = manager.page.getByRole('list', { name: 'Posts waiting for approval' });
    await expect(waiting.locator(':scope > li')).toHaveCount(1);
    await expect(waiting).toContainText(PARTS[0]!);
    await waiting.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(manager.page.getByText('Post approved and scheduled.')).toBeVisible();
    await expect(manager.page.getByText('Nothing is waiting for approval.')).toBeVisible();
    await expect(
      manager.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Approvals' }),
    ).toBeVisible();

    // 4. While the worker waits for the post's time, the owner imports a CSV of 20 rows, two of
    // which are refused (a time that is not one, a text over X's 280 characters).
    const header = 'text,accounts,time';
    const rows = Array.from({ length: 20 }, (_, i) => {
      const day = String(i + 1).padStart(2, '0');
      let text = `Imported tide note ${i + 1}`;
      let time = `2030-03-${day}T10:15:00Z`;
      if (i === 3) time = 'soon'; // row 5 (the header is row 1)
      if (i === 12) text = 'w'.repeat(300); // row 14
      return `${text},X,${time}`;
    });
    await page.goto('/content/import');
    await expect(
      page.getByRole('heading', { name: 'Import posts from CSV', level: 1 }),
    ).toBeVisible();
    await page.getByLabel('CSV file').setInputFiles({
      name: 'tides.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([header, ...rows].join('\n') + '\n'),
    });
    await page.getByRole('button', { name: 'Check file' }).click();
    const check = page.getByRole('region', { name: 'Check of tides.csv' });
    await expect(check.getByText('18 rows ready, 2 refused.')).toBeVisible();
    const rowItem = (n: number) =>
      check.getByRole('listitem').filter({ has: page.getByText(`Row ${n}`, { exact: true }) });
    await expect(rowItem(5)).toContainText('refused');
    await expect(rowItem(5)).toContainText('time: "soon" is not a date and time.');
    await expect(rowItem(14)).toContainText('refused');
    await expect(rowItem(14)).toContainText(/300.*280|too long/);
    await expect(rowItem(2)).toContainText('ready');
    await check.getByRole('button', { name: 'Import 18 rows' }).click();
    const outcome = check.getByRole('status');
    await expect(outcome).toContainText('Imported 18 posts.');
    await expect(outcome).toContainText('Row 5');
    await expect(outcome).toContainText('Row 14');
    const imported = await (
      await page.request.get(
        `/api/organizations/${orgId}/posts/export.csv?from=2030-03-01T00:00:00Z&to=2030-04-01T00:00:00Z`,
      )
    ).text();
    expect(imported.match(/Imported tide note \d+/g)?.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `Imported tide note ${i + 1}`)
        .filter((_, i) => i !== 3 && i !== 12)
        .sort(),
    );

    // 5. Queue slots for the X account (every day 03:00 and 15:00 in the organization's zone),
    // then two posts added to the queue take the next two slots.
    const slots = [0, 1, 2, 3, 4, 5, 6].flatMap((weekday) => [
      { weekday, time: '03:00' },
      { weekday, time: '15:00' },
    ]);
    const saved = await page.request.put(`/api/organizations/${orgId}/queue/${xAccount.id}`, {
      headers: origin,
      data: { slots },
    });
    expect(saved.ok()).toBe(true);
    const queue = await (await page.request.get(`/api/organizations/${orgId}/queue`)).json();
    expect(queue.data.timeZone).toBe('UTC');
    const expected = nextDailyTimes(['03:00', '15:00'], 2, 60_000);
    const queuedAt: string[] = [];
    for (const text of ['Queued tide note one', 'Queued tide note two']) {
      const res = await page.request.post(`/api/organizations/${orgId}/post`, {
        headers: origin,
        multipart: {
          integrationIds: JSON.stringify([xAccount.id]),
          content: text,
          action: 'queue',
        },
      });
      expect(res.status()).toBe(201);
      const post = (await res.json()).data.post;
      expect(post.status).toBe('scheduled');
      queuedAt.push(new Date(post.scheduledAt).toISOString());
    }
    expect(queuedAt).toEqual(expected);

    // Back to the thread: the worker publishes it at its time; X shows the three parts in
    // order, each replying to the one before, and the first comment once, on the post.
    let tweets: SandboxTweet[] = [];
    await expect(async () => {
      const res = await page.request.get(
        '/api/sandbox/x/_emu/posts?account=tidewater_studio&replies=1',
      );
      tweets = (await res.json()).posts;
      expect(tweets.length).toBeGreaterThanOrEqual(4);
    }).toPass({ timeout: 180_000, intervals: [3000] });
    // Give a duplicate a moment to show, if one were sent.
    await page.waitForTimeout(3000);
    tweets = (
      await (
        await page.request.get('/api/sandbox/x/_emu/posts?account=tidewater_studio&replies=1')
      ).json()
    ).posts;
    expect(tweets.map((t) => t.text)).toEqual([...PARTS, FIRST_COMMENT]);
    expect(tweets[0]!.inReplyTo).toBeNull();
    expect(tweets[1]!.inReplyTo).toBe(tweets[0]!.id);
    expect(tweets[2]!.inReplyTo).toBe(tweets[1]!.id);
    expect(tweets[3]!.inReplyTo).toBe(tweets[0]!.id);

    // The author sees it published, with the link to X.
    await creator.page.goto(`/content/${postId}`);
    await expect(creator.page.getByRole('link', { name: 'View on X' }).first()).toBeVisible();

    await creator.context.close();
    await manager.context.close();
  });
});
