import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { useHarness } from '../../test/network-tests.js';

const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 4).toString('base64') }),
);

describe('connecting Instagram through the sandbox', () => {
  it('connects the business account linked to the Page and refreshes its token', async () => {
    const { owner, orgId } = await createOrg(t.app, 'ig.owner@example.com', 'Gram Co');
    const done = await connectThroughSandbox(t.app, owner, 'instagram', orgId, {
      account: 'Ada',
      fields: { pages: 'Ada Coffee, Ada Books', instagram: 'ada.coffee' },
    });
    expect(new URL(done).searchParams.get('connected'), done).toBe('Instagram');
    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      status: 'CONNECTED',
      platform: { name: 'Instagram' },
      sandbox: true,
      metadata: { username: 'ada.coffee', name: 'Ada Coffee' },
    });
    expect(Date.parse(list[0].tokenExpiresAt)).toBeGreaterThan(Date.now() + 59 * 86_400_000);

    const refreshed = await owner.call('GET', `/api/auth/instagram/refresh?orgId=${orgId}`);
    expect(refreshed.status).toBe(200);
  });

  it('explains a login whose Pages have no Instagram account', async () => {
    const { owner, orgId } = await createOrg(t.app, 'ig.none@example.com', 'No Gram');
    const done = await connectThroughSandbox(t.app, owner, 'instagram', orgId, {
      account: 'Plain',
      fields: { pages: 'Plain Page', instagram: '-' },
    });
    expect(new URL(done).searchParams.get('connectError')).toMatch(
      /Instagram professional account/,
    );
  });
});
