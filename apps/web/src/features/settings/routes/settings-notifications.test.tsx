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

  it('says when the digest goes out: 07:00 in the zone that applies to the member', async () => {
    const { card } = await renderSettings(true);
    expect(card).toHaveTextContent(
      'once a day in a digest, sent at 7:00 AM Europe/London (your time zone; the organization has none set).',
    );
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

describe('/settings team channel webhook', () => {
  const HOOK = '/organizations/org_1/notification-webhook';

  it('saves a URL, shows only its hint, sends a test and says how it went', async () => {
    let webhook = { configured: false, urlHint: null as string | null };
    let delivered = true;
    const server = mockServer({
      me: createMe(),
      routes: {
        ...integrationRoutes(),
        [`GET ${PATH}`]: ok({
          preferences: DEFAULT_NOTIFICATION_PREFERENCES,
          emailAvailable: true,
        }),
        [`GET ${HOOK}`]: () => ok({ webhook }),
        [`PUT ${HOOK}`]: () => {
          webhook = { configured: true, urlHint: 'https://hooks.slack.com/…a1b2' };
          return ok({ webhook });
        },
        [`POST ${HOOK}/test`]: () =>
          ok(
            delivered
              ? { delivered: true, message: 'The webhook accepted the test message.' }
              : { delivered: false, message: 'The webhook URL answered with HTTP 404.' },
          ),
      },
    });
    const { user } = renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'Team channel (webhook)' });
    await user.click(await within(card).findByRole('button', { name: 'Save Webhook' }));
    expect(
      within(card).getByText('Paste the webhook URL from Slack or Teams.'),
    ).toBeInTheDocument();

    await user.type(
      within(card).getByRole('textbox', { name: 'Webhook URL' }),
      'https://hooks.slack.com/services/T0/B0/secreta1b2',
    );
    await user.click(within(card).getByRole('button', { name: 'Save Webhook' }));
    expect(await within(card).findByText('https://hooks.slack.com/…a1b2')).toBeInTheDocument();
    expect(within(card).queryByText(/secret/)).not.toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT' && r.path === HOOK)?.body).toEqual({
      url: 'https://hooks.slack.com/services/T0/B0/secreta1b2',
    });

    await user.click(within(card).getByRole('button', { name: 'Send test' }));
    expect(await within(card).findByRole('status')).toHaveTextContent(
      'The webhook accepted the test message.',
    );
    delivered = false;
    await user.click(within(card).getByRole('button', { name: 'Send test' }));
    expect(
      await within(card).findByText('The webhook URL answered with HTTP 404.'),
    ).toBeInTheDocument();
  });
});
