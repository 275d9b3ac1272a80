import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, type FakeRequest } from '@/testing/fake-server';
import { account, renderComposer, tile } from './create-post.fixtures';

const BEST_TIMES = 'GET /organizations/org_1/analytics/best-times';
const x = account('X', { name: 'Acme', username: 'acme' });

describe('/create-post best-time hint', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("names the weekday and hour the organization's posts did best, and picks the next one", async () => {
    // A Wednesday morning in London (the test user's zone; UTC in December).
    vi.useFakeTimers({ now: new Date('2026-12-02T10:30:00Z'), toFake: ['Date'] });
    const { user, server } = await renderComposer({
      integrations: [x],
      routes: {
        [BEST_TIMES]: ok({
          timezone: 'UTC',
          posts: 7,
          engagementFormula: 'interactions ÷ views',
          cells: [
            { weekday: 4, hour: 18, posts: 4, engagementRate: 0.042, interactionsPerPost: 12 },
            { weekday: 0, hour: 9, posts: 3, engagementRate: 0.01, interactionsPerPost: 2 },
          ],
        }),
      },
    });
    await user.click(await tile('X'));

    expect(await screen.findByText('Fridays around 18:00')).toBeInTheDocument();
    expect(screen.getByText(/4\.2% engagement over 4 posts, last 90 days/)).toBeInTheDocument();
    // Read for the chosen accounts, in the member's zone.
    const asked = server.requests.filter(
      (r: FakeRequest) => `${r.method} ${r.path}` === BEST_TIMES,
    );
    expect(asked.at(-1)?.query.get('integrationIds')).toBe(x.id);
    expect(asked.at(-1)?.query.get('timezone')).toBe('Europe/London');

    await user.click(screen.getByRole('button', { name: /^Use Dec 4, 2026 6:00 PM$/ }));
    expect(screen.getByLabelText('Publish Date & Time')).toHaveValue('2026-12-04T18:00');
    expect(screen.getByRole('radio', { name: 'Schedule' })).toBeChecked();
  });

  it('says nothing when no slot has enough posts', async () => {
    const { user, server } = await renderComposer({
      integrations: [x],
      routes: {
        [BEST_TIMES]: ok({
          timezone: 'UTC',
          posts: 1,
          engagementFormula: '',
          cells: [{ weekday: 1, hour: 8, posts: 1, engagementRate: 0.5, interactionsPerPost: 3 }],
        }),
      },
    });
    await user.click(await tile('X'));
    await waitFor(() => expect(server.count(BEST_TIMES)).toBeGreaterThan(0));
    expect(screen.queryByText(/did best on/)).not.toBeInTheDocument();
  });
});
