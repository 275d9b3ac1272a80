import { expect, test } from '@playwright/test';
import { createOrganizationFromOnboarding, signInAs, startTrial } from './helpers';

const TEXT = 'Harbor lights go on at dusk tonight';

test.describe('publishing', () => {
  test('a post scheduled a minute ahead goes out by itself, is announced, shows its permalink, and a reply to a comment appears in the thread', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'harbor.owner@example.com', 'Hana Harbor');
    const orgId = await createOrganizationFromOnboarding(page, 'Harbor Lights');
    await startTrial(page, orgId, baseURL ?? '');

    // Connect X through its sandbox, as a member does from /settings.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('region', { name: 'Connected Platforms' })
      .getByRole('button', { name: 'Continue with X' })
      .click();
    await page.getByLabel('X username').fill('harbor_lights');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();

    // Schedule one minute ahead through the API the composer uses.
    const supported = await (await page.request.get('/api/platforms/supported')).json();
    const x = supported.data.platforms.find((p: { name: string }) => p.name === 'X');
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        platformIds: JSON.stringify([x.id]),
        content: TEXT,
        scheduledAt: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(created.status()).toBe(201);
    const postId = (await created.json()).data.post.id as string;

    // Nobody touches it: the worker publishes it when its time comes.
    await page.goto(`/content/${postId}`);
    await expect(page.getByRole('heading', { name: 'Post Details', level: 1 })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('link', { name: 'View on X' })).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 150_000, intervals: [3000] });
    await expect(page.getByRole('link', { name: 'View on X' })).toHaveAttribute(
      'href',
      /^https:\/\/x\.com\/harbor_lights\/status\/\d+$/,
    );
    await expect(page.getByRole('link', { name: 'Edit Post' })).toHaveCount(0);

    // The notification is there.
    await page.goto('/notifications');
    await expect(
      page.getByText(`'${TEXT}' was published to X (@harbor_lights).`).first(),
    ).toBeVisible();

    // Someone answers on X; the owner replies from Herald and sees it in the thread.
    const post = (
      await (await page.request.get(`/api/organizations/${orgId}/posts/${postId}`)).json()
    ).data.post;
    const tweetId = post.platformPosts[0].externalId as string;
    const comment = await page.request.post('/api/sandbox/x/_emu/comments', {
      data: {
        postId: tweetId,
        fromName: 'Quinn Reader',
        // X accepts an app's reply only to someone who mentioned the account ("summoned" it).
        message: '@harbor_lights Cannot wait to see it!',
      },
    });
    expect(comment.ok()).toBe(true);
    await page.goto(`/content/${postId}`);
    await page.getByRole('button', { name: 'See Comments' }).click();
    const thread = page.getByRole('list', { name: 'Comments on X' });
    await expect(thread.getByText('Cannot wait to see it!')).toBeVisible();
    await thread.getByRole('button', { name: 'Reply' }).first().click();
    await thread.getByRole('textbox', { name: /^Reply to/ }).fill('See you at the harbor!');
    await thread.getByRole('button', { name: 'Send' }).click();
    await expect(thread.getByText('See you at the harbor!')).toBeVisible();
  });
  test('Publish now to one network of a post scheduled for tomorrow reads Partially published, each network exact', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const origin = { origin: baseURL ?? '' };
    await signInAs(page, 'pier.owner@example.com', 'Pia Pier');
    const orgId = await createOrganizationFromOnboarding(page, 'Pier Lanterns');
    await startTrial(page, orgId, baseURL ?? '');

    // Two sandbox networks, connected as a member does from /settings.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const platformsCard = page.getByRole('region', { name: 'Connected Platforms' });
    await platformsCard.getByRole('button', { name: 'Continue with X' }).click();
    await page.getByLabel('X username').fill('pier_lanterns');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();
    await platformsCard.getByRole('button', { name: 'Continue with Threads' }).click();
    // A sandbox account is one organization's: each test signs in as its own.
    await page.getByLabel('Threads username').fill('pier_lanterns');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Threads connected successfully.')).toBeVisible();

    // Scheduled for tomorrow to both.
    const supported = await (await page.request.get('/api/platforms/supported')).json();
    const idOf = (name: string) =>
      supported.data.platforms.find((p: { name: string }) => p.name === name).id as string;
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const created = await page.request.post(`/api/organizations/${orgId}/post`, {
      headers: origin,
      multipart: {
        platformIds: JSON.stringify([idOf('X'), idOf('Threads')]),
        content: 'Lanterns along the pier tomorrow night',
        scheduledAt: tomorrow.toISOString(),
      },
    });
    expect(created.status()).toBe(201);
    const postId = (await created.json()).data.post.id as string;

    // From the details page, Publish now to X only.
    await page.goto(`/content/${postId}`);
    const panel = page.getByRole('region', { name: 'Publish to Platform' });
    const row = (name: string) => panel.getByRole('listitem', { name });
    await expect(row('Threads')).toContainText('Queued for');
    await row('X').getByRole('checkbox', { name: 'Publish to X' }).check();
    await panel.getByRole('button', { name: 'Publish Now' }).click();
    await expect(page.getByText('Published to: X')).toBeVisible();

    // Exact per network, and the same after reading the post again from the server.
    for (let read = 0; read < 2; read += 1) {
      await expect(row('X')).toContainText('Published');
      await expect(row('X').getByRole('link', { name: 'View on X' })).toBeVisible();
      await expect(row('Threads')).toContainText(
        /Queued for \w{3} \d{1,2}, \d{4} \d{1,2}:\d{2} (AM|PM)/,
      );
      await expect(panel.getByText('Publishing...')).toHaveCount(0);
      await expect(
        row('Threads').getByRole('checkbox', { name: 'Publish to Threads' }),
      ).toBeEnabled();
      const details = page.getByRole('region', { name: 'Details' });
      await expect(details).toContainText('Partially published');
      await expect(details).toContainText(/Next: \w{3} \d{1,2}, \d{4}/);
      await expect(details.getByText('Published At')).toHaveCount(0);
      await expect(
        page.locator('header').filter({ hasText: 'Post Details' }).getByText('Partially published'),
      ).toBeVisible();
      await page.reload();
    }

    // The post's record agrees: Threads still waits for its time.
    const post = (
      await (await page.request.get(`/api/organizations/${orgId}/posts/${postId}`)).json()
    ).data.post;
    expect(post.status).toBe('partially_published');
    expect(post.publishedAt).toBeNull();
    const threads = post.platformPosts.find(
      (p: { platformName: string }) => p.platformName === 'Threads',
    );
    expect(threads).toMatchObject({ status: 'QUEUED', dueAt: tomorrow.toISOString() });

    // The library lists it under Scheduled, with when the next network goes.
    await page.goto('/content');
    await page.getByRole('tab', { name: 'Scheduled' }).click();
    const card = page.getByRole('article').filter({ hasText: 'Lanterns along the pier' });
    await expect(card).toContainText('Partially published');
    await expect(card).toContainText('Next');
  });

  test('Publish now from the composer shows each account as it settles, a failure with its reason in words, and one summary toast', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'quay.owner@example.com', 'Quinn Quay');
    const orgId = await createOrganizationFromOnboarding(page, 'Quay Bells');
    await startTrial(page, orgId, baseURL ?? '');

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const platformsCard = page.getByRole('region', { name: 'Connected Platforms' });
    await platformsCard.getByRole('button', { name: 'Continue with X' }).click();
    await page.getByLabel('X username').fill('quay_bells');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('X connected successfully.')).toBeVisible();
    await platformsCard.getByRole('button', { name: 'Continue with Threads' }).click();
    await page.getByLabel('Threads username').fill('quay_bells');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Threads connected successfully.')).toBeVisible();
    // Threads revokes the account's access: the publication fails at once, saying what to do.
    const knob = await page.request.post('/api/sandbox/threads/_emu/scenario', {
      headers: { origin: baseURL ?? '' },
      data: { account: 'quay_bells', knob: 'token_revoked', on: true },
    });
    expect(knob.ok()).toBe(true);

    await page.goto('/create-post');
    for (const name of ['X', 'Threads']) {
      const box = page.getByRole('checkbox', { name, exact: true });
      await page.locator('label').filter({ has: box }).click();
      await expect(box).toBeChecked();
    }
    await page.getByLabel('Post content').fill('Bells ring at the quay at noon');
    await page.getByRole('radio', { name: 'Publish now' }).check();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish now' })
      .click();

    const progress = page.getByRole('dialog', { name: /^Publishing (now|finished)$/ });
    await expect(progress).toBeVisible();
    const list = progress.getByRole('list', { name: 'Accounts it is published to' });
    await expect(page.getByRole('dialog', { name: 'Publishing finished' })).toBeVisible({
      timeout: 60_000,
    });
    const x = list.getByRole('listitem', { name: /^X / });
    await expect(x.getByText('Published', { exact: true })).toBeVisible();
    await expect(x.getByRole('link', { name: 'View on X' })).toHaveAttribute(
      'href',
      /^https:\/\/x\.com\/quay_bells\/status\/\d+$/,
    );
    // The reason is on the screen, not behind a hover.
    const threads = list.getByRole('listitem', { name: /^Threads / });
    await expect(threads.getByText(/^Failed: .*Reconnect the account in Settings/)).toBeVisible();
    await expect(threads.getByText(/publish to this account again/)).toBeVisible();

    // One toast for the post (beside the dialog's own line), none per account. The dialog hides
    // the rest of the page from the accessibility tree, so the toasts are found by their text.
    const summary = 'Published to 1 of 2 accounts. 1 account needs attention: see why in the list.';
    await expect(page.getByText(summary)).toHaveCount(2);
    await expect(progress.getByText(summary)).toHaveCount(1);
    await page.waitForTimeout(1500);
    await expect(page.getByText(/was published to|could not be published/)).toHaveCount(0);

    await progress.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/content$/);
  });
});
