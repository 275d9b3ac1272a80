import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const account = (slots: Array<{ weekday: number; time: string }>, queuedCount = 2) => ({
  integrationId: '11111111-1111-4111-8111-111111111111',
  platformName: 'X',
  name: 'Acme',
  username: 'acme',
  slots,
  queuedCount,
});

async function renderQueue(session = createMe()) {
  let saved = account([{ weekday: 0, time: '09:00' }]);
  const server = mockServer({
    me: session,
    routes: {
      ...integrationRoutes(),
      'GET /organizations/org_1/queue': () => ok({ timeZone: 'Europe/Paris', accounts: [saved] }),
      [`PUT /organizations/org_1/queue/${saved.integrationId}`]: (request) => {
        saved = account((request.body as { slots: typeof saved.slots }).slots);
        return ok({ account: saved });
      },
      [`POST /organizations/org_1/queue/${saved.integrationId}/reshuffle`]: ok({
        moved: 2,
        queued: 2,
      }),
    },
  });
  const app = renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Posting queue' }, { timeout: 10_000 });
  return { ...app, server, card };
}

describe('/settings Posting queue', () => {
  it('adds a time, copies Monday to the weekdays and saves the week', async () => {
    const { user, server, card } = await renderQueue();
    expect(
      await within(card).findByText(/Europe\/Paris/, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(card).getByText('09:00')).toBeInTheDocument();
    await user.type(within(card).getByLabelText('New time on Monday'), '12:30');
    await user.click(within(card).getByRole('button', { name: 'Add the time on Monday' }));
    await user.click(
      within(card).getByRole('button', { name: "Copy Monday's times to every weekday" }),
    );
    await user.click(within(card).getByRole('button', { name: 'Save slots' }));
    expect(
      await screen.findByText('Posting queue saved. Scheduled posts stay where they are.'),
    ).toBeInTheDocument();
    const put = server.requests.find((r) => r.method === 'PUT');
    const slots = (put?.body as { slots: Array<{ weekday: number; time: string }> }).slots;
    expect(slots).toHaveLength(10);
    expect(slots.filter((s) => s.weekday === 4).map((s) => s.time)).toEqual(['09:00', '12:30']);
    expect(slots.some((s) => s.weekday > 4)).toBe(false);
  });

  it('removes a slot, and re-shuffles after a confirmation', async () => {
    const { user, server, card } = await renderQueue();
    await user.click(await within(card).findByRole('button', { name: 'Re-shuffle queue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-shuffle this queue?' });
    await user.click(within(dialog).getByRole('button', { name: 'Re-shuffle' }));
    expect(await screen.findByText('2 queued posts moved into the new slots.')).toBeInTheDocument();
    expect(
      server.count(
        'POST /organizations/org_1/queue/11111111-1111-4111-8111-111111111111/reshuffle',
      ),
    ).toBe(1);
    await user.click(within(card).getByRole('button', { name: 'Remove Monday 09:00' }));
    expect(within(card).getAllByText('No slots')).toHaveLength(7);
    // Unsaved changes first: re-shuffle works on saved slots only.
    expect(within(card).getByRole('button', { name: 'Re-shuffle queue' })).toBeDisabled();
  });

  it('shows the slots read-only to a member who may not manage the organization', async () => {
    const { card } = await renderQueue(
      createMe({ role: { id: 'role_cc', name: 'ContentCreator' }, permissions: ['post:create'] }),
    );
    await waitFor(() => expect(within(card).getByText('09:00')).toBeInTheDocument());
    expect(within(card).queryByRole('button', { name: 'Save slots' })).toBeNull();
    expect(within(card).queryByLabelText('New time on Monday')).toBeNull();
  });
});
