import { expect, test } from '@playwright/test';
import { signInAs } from './helpers';

test.describe('signing in through the development identity provider', () => {
  test('a new user lands on /onboarding and /api/auth/me names them', async ({ page }) => {
    await signInAs(page, 'new.user@example.com', 'New User');
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByText('Welcome', { exact: false }).first()).toBeVisible();
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(200);
    const body = await me.json();
    expect(body.data.user.email).toBe('new.user@example.com');
    expect(body.data.member).toBeNull();
  });

  test('an invalid email gets the form back with an error', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: /continue with/i }).click();
    await page.getByLabel('Email').fill('not-an-email');
    // Skip the browser's own email check to reach the server's.
    await page.locator('form').evaluate((f) => f.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('Enter a valid email address');
  });

  test('a visitor who opens a shell page is sent to /login', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('logging out ends the session', async ({ page }) => {
    await signInAs(page, 'leaving@example.com', 'Leaving User');
    await expect(page).toHaveURL(/\/onboarding$/);
    const res = await page.request.post('/api/auth/logout', {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(res.status()).toBe(200);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  });
});
