import type { NetworkSetup, NetworkSetupFinding } from '@herald/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { backOfficeRoutes, createBackOffice, operatorSession } from '@/testing/admin-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const x: NetworkSetup = {
  slug: 'x',
  name: 'X',
  mode: 'configured',
  active: true,
  redirectUri: 'https://herald.example.com/api/auth/x/callback',
  scopes: ['tweet.read', 'tweet.write'],
  findings: [
    { level: 'ok', topic: 'credentials', message: 'X_CLIENT_ID and X_CLIENT_SECRET are set.' },
  ],
};
const tiktok: NetworkSetup = {
  slug: 'tiktok',
  name: 'TikTok',
  mode: 'unavailable',
  active: true,
  redirectUri: 'https://herald.example.com/api/auth/tiktok/callback',
  scopes: ['user.info.basic'],
  findings: [
    {
      level: 'problem',
      topic: 'credentials',
      message: 'Set TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET.',
    },
  ],
};

function renderSetup(deployment: NetworkSetupFinding[] = []) {
  const asked: string[] = [];
  mockServer({
    me: operatorSession(),
    routes: {
      ...backOfficeRoutes(createBackOffice()),
      'GET /admin/network-setup': (request) => {
        const live = request.query.get('live') === 'true';
        asked.push(live ? 'live' : 'static');
        const probe = {
          level: 'problem' as const,
          topic: 'live' as const,
          message: 'Check X_CLIENT_ID and X_CLIENT_SECRET: X does not accept them.',
        };
        return {
          status: 200,
          body: {
            status: 'success',
            data: {
              apiPublicUrl: 'https://herald.example.com/api',
              live,
              networks: [live ? { ...x, findings: [...x.findings, probe] } : x, tiktok],
              deployment,
            },
          },
        };
      },
    },
  });
  return { ...renderApp('/admin/network-setup'), asked };
}

describe('/admin/network-setup', () => {
  it('is linked from the back-office navigation and shows each network’s redirect URI, scopes and findings', async () => {
    renderSetup();
    await screen.findByRole('heading', { name: 'Network setup', level: 1 });
    const nav = screen.getByRole('navigation', { name: 'Back-office' });
    expect(within(nav).getByRole('link', { name: 'Network setup' })).toHaveAttribute(
      'href',
      '/admin/network-setup',
    );
    const card = await screen.findByRole('region', { name: 'X' });
    expect(
      within(card).getByText('https://herald.example.com/api/auth/x/callback'),
    ).toBeInTheDocument();
    expect(within(card).getByText('tweet.read tweet.write')).toBeInTheDocument();
    expect(within(card).getByText('Real credentials')).toBeInTheDocument();
    const tiktokFindings = within(screen.getByRole('region', { name: 'TikTok' })).getByRole(
      'list',
      { name: 'TikTok findings' },
    );
    expect(tiktokFindings).toHaveTextContent(
      'Problem: Set TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('1 problem(s) and 0 warning(s)');
  });

  it('asks the networks only when the operator presses the button', async () => {
    const { user, asked } = renderSetup();
    await screen.findByRole('region', { name: 'X' });
    expect(asked).toEqual(['static']);
    await user.click(screen.getByRole('button', { name: 'Check with the networks' }));
    const xFindings = await screen.findByText(/X does not accept them/);
    expect(xFindings).toBeInTheDocument();
    expect(asked).toEqual(['static', 'live']);
    expect(screen.getByRole('status')).toHaveTextContent('the token endpoints were asked');
  });

  it('shows the processes serving the database when their media is not shared', async () => {
    renderSetup([
      {
        level: 'problem',
        topic: 'storage',
        message:
          'Media is stored in local folders that the processes serving this database do not share: api-1 (/srv/a), api-2 (/srv/b).',
      },
    ]);
    const card = await screen.findByRole('region', { name: 'Processes serving the database' });
    expect(within(card).getByRole('list', { name: 'Processes findings' })).toHaveTextContent(
      'Problem: Media is stored in local folders that the processes serving this database do not share: api-1 (/srv/a), api-2 (/srv/b).',
    );
    expect(screen.getByRole('status')).toHaveTextContent('2 problem(s) and 0 warning(s)');
  });
});
