import type { AnalyticsOverview } from '@herald/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok, type FakeReply } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

/** The analytics days are days of the zone that applies, named on the screen. */
const ORG = 'org_1';
const empty = (timezone: string): AnalyticsOverview => {
  const kpi = { value: null, previous: null, change: null };
  return {
    timezone,
    range: { from: '2026-03-01', to: '2026-03-30', previousFrom: '', previousTo: '', days: 30 },
    engagementFormula: '',
    kpis: {
      views: kpi,
      reach: kpi,
      interactions: kpi,
      engagementRate: kpi,
      followersGained: kpi,
      postsPublished: kpi,
    },
    daily: [],
    followers: [],
    networks: [],
    topPosts: [],
    accounts: [],
    status: {
      connectedAccounts: 0,
      publishedTargets: 0,
      hasReadings: false,
      firstCollectionAt: null,
    },
  };
};

const organization = (defaultTimeZone: string | null) =>
  ok({
    organization: {
      id: ORG,
      name: 'Acme Studio',
      defaultTimeZone,
      requirePostApproval: false,
      postApprovalRoleIds: [],
      ownerUserId: null,
      branding: { logoUrl: null, color: null },
      createdAt: '2026-01-10T09:00:00.000Z',
    },
  });

async function renderAnalytics(userZone: string, routes: Record<string, FakeReply> = {}) {
  const server = mockServer({
    me: createMe({ user: { timezone: userZone } }),
    routes: {
      [`GET /organizations/${ORG}/integrations`]: ok({ platforms: [] }),
      [`GET /organizations/${ORG}/analytics/settings`]: ok({
        xEnabled: false,
        xMonthlyReadBudget: 1000,
        month: '2026-03',
        xReadsUsed: 0,
        xCostPerReadUsd: 0.005,
      }),
      [`GET /organizations/${ORG}/analytics/overview`]: (request) =>
        ok(empty(request.query.get('timezone') ?? 'UTC')),
      ...routes,
    },
  });
  renderApp('/analytics');
  await screen.findByRole('heading', { name: 'Analytics', level: 1 });
  return server;
}

/** Today as the clocks in `zone` show it, "YYYY-MM-DD". */
const todayIn = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

const overviewQuery = async (server: Awaited<ReturnType<typeof renderAnalytics>>) => {
  await waitFor(() =>
    expect(server.requests.some((r) => r.path.endsWith('/analytics/overview'))).toBe(true),
  );
  return server.requests.filter((r) => r.path.endsWith('/analytics/overview')).at(-1)!.query;
};

describe('/analytics days in a time zone', () => {
  it("counts the organization's days when it has a zone, and names it", async () => {
    const server = await renderAnalytics('Pacific/Kiritimati', {
      [`GET /organizations/${ORG}`]: organization('Pacific/Pago_Pago'),
    });
    expect(
      await screen.findByText(/Days in Pacific\/Pago_Pago \(the organization's time zone\)\./),
    ).toBeInTheDocument();
    const query = await overviewQuery(server);
    expect(query.get('timezone')).toBe('Pacific/Pago_Pago');
    // Kiritimati (UTC+14) and Pago Pago (UTC−11) are never on the same day: today is Pago Pago's.
    expect(query.get('to')).toBe(todayIn('Pacific/Pago_Pago'));
    expect(server.requests.every((r) => r.query.get('timezone') !== 'Pacific/Kiritimati')).toBe(
      true,
    );
  });

  it("counts the member's own days when the organization has none, and says so", async () => {
    const server = await renderAnalytics('Pacific/Kiritimati');
    expect(
      await screen.findByText(
        /Days in Pacific\/Kiritimati \(your time zone; the organization has none set\)\./,
      ),
    ).toBeInTheDocument();
    const query = await overviewQuery(server);
    expect(query.get('timezone')).toBe('Pacific/Kiritimati');
    expect(query.get('to')).toBe(todayIn('Pacific/Kiritimati'));
  });
});
