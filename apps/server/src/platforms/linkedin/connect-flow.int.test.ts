import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { useHarness } from '../../test/network-tests.js';

const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64') }),
);

describe('connecting LinkedIn through the sandbox', () => {
  it('connects a member, lists them, refreshes and disconnects', async () => {
    const { owner, orgId } = await createOrg(t.app, 'li.owner@example.com', 'Link Co');
    const done = await connectThroughSandbox(t.app, owner, 'linkedin', orgId, {
      account: 'Ada Lovelace',
      fields: { organizations: '' },
    });
    expect(new URL(done).searchParams.get('connected'), done).toBe('LinkedIn');
    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      status: 'CONNECTED',
      platform: { name: 'LinkedIn' },
      sandbox: true,
      metadata: { name: 'Ada Lovelace' },
    });
    expect(list[0].platformAccountId).toMatch(/^urn:li:person:/);

    const refreshed = await owner.call('GET', `/api/auth/linkedin/refresh?orgId=${orgId}`);
    expect(refreshed.status).toBe(200);
    expect((await owner.call('POST', `/api/linkedin/disconnect/${orgId}`)).status).toBe(200);
  });

  it('offers the member and the organizations they administer to pick from', async () => {
    const { owner, orgId } = await createOrg(t.app, 'li.admin@example.com', 'Org Co');
    const done = await connectThroughSandbox(t.app, owner, 'linkedin', orgId, {
      account: 'Grace Hopper',
      fields: { organizations: 'Compiler Works' },
    });
    const pick = new URL(done).searchParams.get('pick');
    expect(pick, done).toBeTruthy();
    const pending = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
    );
    const offered = pending.body.data.accounts as Array<{ externalId: string; name: string }>;
    expect(offered.map((a) => a.name)).toEqual(['Grace Hopper', 'Compiler Works']);
    expect(offered[1]!.externalId).toMatch(/^urn:li:organization:\d+$/);
  });
});
