import { DEFAULT_NOTIFICATION_PREFERENCES } from '@herald/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const PATH = '/organizations/org_1/notification-preferences';

async function renderSettings(emailAvailable: boolean) {
  const server = mockServer({
    me: createMe(),
    routes: {
      ...integrationRoutes(),
      [`GET ${PATH}`]: ok({ preferences: DEFAULT_NOTIFICATION_PREFERENCES, emailAvailable }),
      [`PUT ${PATH}`]: ({ body }: { body: unknown }) => ok({ ...(body as object), emailAvailable }),
    },
  });
  const app = renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Notifications' });
  await within(card).findByRole('table');
  return { ...app, server, card };
}

describe('/settings notification preferences', () => {
  it('shows the defaults: everything in the app, failures and approvals by email, no digest', async () => {
    const { card } = await renderSettings(true);
    const box = (name: string) => within(card).getByRole('checkbox', { name });
    expect(box('Publishing failures: In app')).toBeChecked();
    expect(box('Publishing failures: Email')).toBeChecked();
    expect(box('Approvals: Email')).toBeChecked();
    expect(box('Published posts: Email')).not.toBeChecked();
    expect(box('Mentions: Daily digest')).not.toBeChecked();
    expect(within(card).queryByText(/does not send email/)).not.toBeInTheDocument();
  });

  it('saves the changed choices and says so', async () => {
    const { user, server, card } = await renderSettings(true);
    await user.click(within(card).getByRole('checkbox', { name: 'Published posts: In app' }));
    await user.click(within(card).getByRole('checkbox', { name: 'Published posts: Daily digest' }));
    await user.click(within(card).getByRole('button', { name: 'Save Notification Preferences' }));
    expect(await screen.findByText('Notification preferences saved.')).toBeInTheDocument();
    const sent = server.requests.find((r) => r.method === 'PUT' && r.path === PATH)?.body as {
      preferences: typeof DEFAULT_NOTIFICATION_PREFERENCES;
    };
    expect(sent.preferences.PUBLISHING_SUCCEEDED).toEqual({
      inApp: false,
      email: false,
      digest: true,
    });
    expect(sent.preferences.PUBLISHING_FAILED).toEqual(
      DEFAULT_NOTIFICATION_PREFERENCES.PUBLISHING_FAILED,
    );
  });

  it('says when this server sends no email', async () => {
    const { card } = await renderSettings(false);
    expect(within(card).getByText(/does not send email yet/)).toBeInTheDocument();
  });
});
