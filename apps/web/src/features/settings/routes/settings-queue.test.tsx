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

/** The queue's zone as the server names it: the organization's. */
const PARIS = {
  timeZone: 'Europe/Paris',
  timeZoneSource: 'organization',
  timeZoneSetBy: null,
} as const;

async function renderQueue(
  session = createMe(),
  zone: {
    timeZone: string;
    timeZoneSource: 'organization' | 'queue' | 'member' | 'default';
    timeZoneSetBy: { id: string; name: string } | null;
  } = PARIS,
) {
  let saved = account([{ weekday: 0, time: '09:00' }]);
  const server = mockServer({
    me: session,
    routes: {
      ...integrationRoutes(),
      'GET /organizations/org_1/queue': () => ok({ ...zone, accounts: [saved] }),
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

describe('/settings Posting queue across accounts', () => {
  const X_ID = '11111111-1111-4111-8111-111111111111';
  const THREADS_ID = '22222222-2222-4222-8222-222222222222';
  const LINKEDIN_ID = '33333333-3333-4333-8333-333333333333';

  async function renderAccounts() {
    let accounts = [
      account([{ weekday: 0, time: '09:00' }]),
      { ...account([]), integrationId: THREADS_ID, platformName: 'Threads', name: 'Acme Threads' },
      { ...account([]), integrationId: LINKEDIN_ID, platformName: 'LinkedIn', name: 'Acme Page' },
    ];
    const server = mockServer({
      me: createMe(),
      routes: {
        ...integrationRoutes(),
        'GET /organizations/org_1/queue': () => ok({ ...PARIS, accounts }),
        [`POST /organizations/org_1/queue/${X_ID}/copy`]: (request) => {
          const ids = (request.body as { integrationIds: string[] }).integrationIds;
          accounts = accounts.map((a) =>
            ids.includes(a.integrationId) ? { ...a, slots: accounts[0]!.slots } : a,
          );
          return ok({ accounts: accounts.filter((a) => ids.includes(a.integrationId)) });
        },
      },
    });
    const app = renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'Posting queue' }, { timeout: 10_000 });
    await within(card).findByText('09:00', {}, { timeout: 10_000 });
    return { ...app, server, card };
  }

  it("copies an account's saved times to the other accounts chosen", async () => {
    const { user, server, card } = await renderAccounts();

    await user.click(within(card).getByRole('button', { name: 'Copy to other accounts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy times to other accounts' });
    expect(
      within(dialog).getByRole('checkbox', { name: /Acme Threads \(Threads\)/ }),
    ).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: /Acme Page \(LinkedIn\)/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy times' }));

    expect(
      await screen.findByText(
        'Times copied to 1 account. Their scheduled posts stay where they are.',
      ),
    ).toBeInTheDocument();
    const copy = server.requests.find((r) => r.path.endsWith('/copy'));
    expect(copy?.body).toEqual({ integrationIds: [THREADS_ID] });

    await user.selectOptions(within(card).getByLabelText('Account'), THREADS_ID);
    expect(await within(card).findByText('09:00')).toBeInTheDocument();
  });

  it('offers an empty week suggested times, kept only once saved', async () => {
    const { user, server, card } = await renderAccounts();
    await user.selectOptions(within(card).getByLabelText('Account'), LINKEDIN_ID);
    expect(await within(card).findAllByText('No slots')).toHaveLength(7);
    // Nothing saved to copy yet.
    expect(within(card).getByRole('button', { name: 'Copy to other accounts' })).toBeDisabled();

    await user.click(within(card).getByRole('button', { name: 'Start with suggested times' }));
    expect(within(card).getAllByText('12:00')).toHaveLength(5);
    expect(within(card).getAllByText('No slots')).toHaveLength(2);
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);
    expect(within(card).getByRole('button', { name: 'Save slots' })).toBeEnabled();
  });
});

describe("/settings Posting queue's time zone", () => {
  const sentence = async (zone: Parameters<typeof renderQueue>[1], me = createMe()) => {
    const { card } = await renderQueue(me, zone);
    return (await within(card).findByText(/^Times are in /, {}, { timeout: 10_000 })).textContent;
  };

  it("names the organization's zone", async () => {
    expect(await sentence(PARIS)).toBe("Times are in Europe/Paris (the organization's time zone).");
  });

  it('names whose zone the queue kept when the organization has none', async () => {
    expect(
      await sentence({
        timeZone: 'America/New_York',
        timeZoneSource: 'queue',
        timeZoneSetBy: { id: 'usr_other', name: 'Nina York' },
      }),
    ).toBe(
      'Times are in America/New_York (the time zone of Nina York, who first set queue times; the organization has none set). To use another zone, set the organization’s time zone.',
    );
  });

  it("says it is the reader's own zone until times are saved", async () => {
    expect(
      await sentence({
        timeZone: 'America/New_York',
        timeZoneSource: 'member',
        timeZoneSetBy: null,
      }),
    ).toBe(
      "Times are in America/New_York (your time zone; the organization has none set). Saving times keeps this zone for the whole organization's queue. To use another zone, set the organization’s time zone.",
    );
  });

  it('says so when the zone is the one the reader first saved the times in', async () => {
    const me = createMe();
    expect(
      await sentence(
        {
          timeZone: 'Asia/Tokyo',
          timeZoneSource: 'queue',
          timeZoneSetBy: { id: me.user.id, name: 'Ada Lovelace' },
        },
        me,
      ),
    ).toMatch(
      /^Times are in Asia\/Tokyo \(your time zone when you first set queue times; the organization has none set\)\./,
    );
  });
});
