import type { ReportSchedule } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { createIntegration, integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { formatPeriod } from '../components/report-schedules-card';

const IG = '11111111-1111-4111-8111-111111111111';
const SCHEDULE = '99999999-9999-4999-8999-999999999999';
const path = '/organizations/org_1/report-schedules';

const schedule = (changes: Partial<ReportSchedule> = {}): ReportSchedule => ({
  id: SCHEDULE,
  name: 'Weekly report for Acme',
  integrationIds: [],
  cadence: 'weekly',
  recipients: ['client@acme.test'],
  sendHour: 8,
  nextPeriod: { from: '2026-03-09', to: '2026-03-15' },
  nextSendAt: '2026-03-16T07:00:00.000Z',
  lastDelivery: {
    from: '2026-03-02',
    to: '2026-03-08',
    status: 'failed',
    at: '2026-03-09T07:05:00.000Z',
    error: 'The mail server refused the report: 550 mailbox unavailable',
  },
  createdAt: '2026-03-04T10:00:00.000Z',
  ...changes,
});

async function renderReports({
  schedules = [] as ReportSchedule[],
  email = { available: true, reason: null as string | null },
} = {}) {
  let list = schedules;
  const server = mockServer({
    me: createMe(),
    routes: {
      ...integrationRoutes({
        integrations: [
          createIntegration({
            id: IG,
            platform: { id: 'plt_ig', name: 'Instagram' },
            metadata: { name: 'Studio IG' },
          }),
        ],
      }),
      [`GET ${path}`]: () => ok({ schedules: list, timeZone: 'Europe/Paris', email }),
      [`POST ${path}`]: (request) => {
        const body = request.body as Partial<ReportSchedule>;
        const created = schedule({
          ...body,
          id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
          lastDelivery: null,
        });
        list = [...list, created];
        return { status: 201, body: { status: 'success', data: { schedule: created } } };
      },
      [`POST ${path}/${SCHEDULE}/send`]: ok({
        period: { from: '2026-03-02', to: '2026-03-08' },
        recipients: ['client@acme.test'],
        message: 'The report for 2 Mar 2026 – 8 Mar 2026 was sent to client@acme.test.',
      }),
      [`DELETE ${path}/${SCHEDULE}`]: () => {
        list = list.filter((s) => s.id !== SCHEDULE);
        return ok(null);
      },
    },
  });
  renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Report emails' });
  return { server, card, user: userEvent.setup() };
}

describe('Settings → Report emails', () => {
  it('lists a schedule with its next email and why the last one failed', async () => {
    const { card } = await renderReports({ schedules: [schedule()] });
    const item = await within(card).findByText('Weekly report for Acme');
    const row = item.closest('li')!;
    expect(row).toHaveTextContent(
      'Weekly, every Monday at 08:00 (Europe/Paris): the previous Monday–Sunday.',
    );
    expect(row).toHaveTextContent('To client@acme.test');
    expect(row).toHaveTextContent('Covers All accounts');
    // 07:00 UTC is 08:00 in Paris in March (UTC+1).
    expect(row).toHaveTextContent('Next: the 9–15 Mar 2026 report, on 16 Mar at 08:00.');
    expect(row).toHaveTextContent(
      'The 2–8 Mar 2026 report could not be sent: The mail server refused the report: 550 mailbox unavailable',
    );
  });

  it('writes periods as people do, and says when the last one went out', async () => {
    expect(formatPeriod({ from: '2026-11-30', to: '2026-12-06' })).toBe('30 Nov – 6 Dec 2026');
    expect(formatPeriod({ from: '2026-12-28', to: '2027-01-03' })).toBe('28 Dec 2026 – 3 Jan 2027');
    const { card } = await renderReports({
      schedules: [
        schedule({
          lastDelivery: {
            from: '2026-03-02',
            to: '2026-03-08',
            status: 'sent',
            at: '2026-03-09T07:03:00.000Z',
            error: null,
          },
        }),
      ],
    });
    expect(await within(card).findByText(/^Last sent/)).toHaveTextContent(
      'Last sent on 9 Mar at 08:03: the 2–8 Mar 2026 report.',
    );
  });

  it('says why emails cannot be sent on a server without SMTP, and does not offer "Send now"', async () => {
    const reason = 'This Herald server sends no email: SMTP_URL is not set.';
    const { card } = await renderReports({
      schedules: [schedule()],
      email: { available: false, reason },
    });
    const notice = (await within(card).findByText('Report emails cannot be sent.')).closest('p');
    expect(notice).toHaveTextContent(`Report emails cannot be sent. ${reason}`);
    expect(within(card).getByRole('button', { name: 'Send now' })).toBeDisabled();
  });

  it('creates one, refusing a bad address before sending', async () => {
    const { server, card, user } = await renderReports();
    await within(card).findByText(/No report email yet/);
    await user.click(within(card).getByRole('button', { name: 'New report email' }));
    const dialog = await screen.findByRole('dialog', { name: 'New report email' });
    await user.type(within(dialog).getByLabelText('Name'), 'Monthly for Acme');
    await user.selectOptions(within(dialog).getByLabelText('How often'), 'monthly');
    await user.selectOptions(within(dialog).getByLabelText('Sent at'), '9');
    await user.type(within(dialog).getByLabelText('Send to'), 'client@acme.test, bob@');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Studio IG (Instagram)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create report email' }));
    expect(
      within(dialog).getByText('“bob@” is not an email address: write it like name@example.com.'),
    ).toBeInTheDocument();
    expect(server.count(`POST ${path}`)).toBe(0);

    const field = within(dialog).getByLabelText('Send to');
    await user.clear(field);
    await user.type(field, 'client@acme.test\nBoss@Acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Create report email' }));
    await waitFor(() => expect(server.count(`POST ${path}`)).toBe(1));
    expect(server.requests.find((r) => r.method === 'POST' && r.path === path)?.body).toEqual({
      name: 'Monthly for Acme',
      cadence: 'monthly',
      sendHour: 9,
      recipients: ['client@acme.test', 'boss@acme.test'],
      integrationIds: [IG],
    });
    expect(await within(card).findByText('Monthly for Acme')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the server’s sentence when it refuses the schedule', async () => {
    const { server, card, user } = await renderReports();
    server.on(
      `POST ${path}`,
      fail(
        400,
        'VALIDATION_FAILED',
        'Choose accounts of this organization: one of the chosen accounts does not exist.',
      ),
    );
    await user.click(await within(card).findByRole('button', { name: 'New report email' }));
    const dialog = await screen.findByRole('dialog', { name: 'New report email' });
    await user.type(within(dialog).getByLabelText('Name'), 'Weekly');
    await user.type(within(dialog).getByLabelText('Send to'), 'client@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Create report email' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Choose accounts of this organization: one of the chosen accounts does not exist.',
    );
  });

  it('sends one now and deletes one after asking', async () => {
    const { server, card, user } = await renderReports({ schedules: [schedule()] });
    await user.click(await within(card).findByRole('button', { name: 'Send now' }));
    expect(
      await screen.findByText(
        'The report for 2 Mar 2026 – 8 Mar 2026 was sent to client@acme.test.',
      ),
    ).toBeInTheDocument();
    expect(server.count(`POST ${path}/${SCHEDULE}/send`)).toBe(1);

    await user.click(within(card).getByRole('button', { name: 'Delete Weekly report for Acme' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this report email?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(card).findByText(/No report email yet/)).toBeInTheDocument();
    expect(server.count(`DELETE ${path}/${SCHEDULE}`)).toBe(1);
  });
});
