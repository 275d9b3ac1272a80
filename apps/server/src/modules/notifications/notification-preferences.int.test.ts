import { DEFAULT_NOTIFICATION_PREFERENCES } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { recordNotification } from './notifications.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('notification preferences', () => {
  it('starts at the defaults, saves what is sent, keeps the rest, and says email is off without SMTP', async () => {
    const { owner, orgId } = await createOrg(t.app, 'prefs.owner@example.com', 'Prefs Co');
    const path = `/api/organizations/${orgId}/notification-preferences`;
    const first = await owner.call('GET', path);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      preferences: DEFAULT_NOTIFICATION_PREFERENCES,
      emailAvailable: false,
    });
    expect(first.body.data.preferences.PUBLISHING_FAILED).toEqual({
      inApp: true,
      email: true,
      digest: false,
    });

    const saved = await owner.call('PUT', path, {
      preferences: { PUBLISHING_SUCCEEDED: { inApp: false, email: false, digest: true } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.preferences.PUBLISHING_SUCCEEDED).toEqual({
      inApp: false,
      email: false,
      digest: true,
    });
    expect(saved.body.data.preferences.APPROVALS).toEqual(
      DEFAULT_NOTIFICATION_PREFERENCES.APPROVALS,
    );
    expect((await owner.call('GET', path)).body.data.preferences.PUBLISHING_SUCCEEDED.inApp).toBe(
      false,
    );
  });

  it('refuses an unknown kind with a sentence', async () => {
    const { owner, orgId } = await createOrg(t.app, 'prefs.bad@example.com', 'Bad Prefs Co');
    const res = await owner.call('PUT', `/api/organizations/${orgId}/notification-preferences`, {
      preferences: { SOMETHING: { inApp: false, email: false, digest: false } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Choose a kind of notification Herald knows.');
  });

  it('records no in-app notification of a kind the member turned off in the app', async () => {
    const { owner, orgId } = await createOrg(t.app, 'prefs.quiet@example.com', 'Quiet Co');
    await owner.call('PUT', `/api/organizations/${orgId}/notification-preferences`, {
      preferences: { PUBLISHING_SUCCEEDED: { inApp: false, email: false, digest: false } },
    });
    const list = async () =>
      (await owner.call('GET', `/api/notifications?organizationId=${orgId}`)).body.map(
        (n: { message: string }) => n.message,
      );
    const before = await list();
    await recordNotification(
      t.database.db,
      orgId,
      { admins: true },
      { type: 'POST_PUBLISHED', priority: 'LOW', message: 'Went out.' },
    );
    await recordNotification(
      t.database.db,
      orgId,
      { admins: true },
      { type: 'POST_FAILED', priority: 'HIGH', message: 'Did not go out.' },
    );
    expect(await list()).toEqual(['Did not go out.', ...before]);
  });
});
