import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { useHarness } from '../../test/network-tests.js';

const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') }),
);

describe('connecting Facebook Pages through the sandbox', () => {
  it('signs in, lets the person pick Pages, and lists the chosen one', async () => {
    const { owner, orgId } = await createOrg(t.app, 'fb.owner@example.com', 'Coffee Co');
    const done = await connectThroughSandbox(t.app, owner, 'facebook', orgId, {
      account: 'Ada',
      fields: { pages: 'Ada Coffee, Ada Books' },
    });
    const pick = new URL(done).searchParams.get('pick');
    expect(pick, done).toBeTruthy();
    const pending = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
    );
    expect(pending.status).toBe(200);
    const offered = pending.body.data.accounts as Array<{ externalId: string; name: string }>;
    expect(offered.map((a) => a.name)).toEqual(['Ada Coffee', 'Ada Books']);
    expect(JSON.stringify(pending.body)).not.toMatch(/EAA/);

    const chosen = await owner.call(
      'POST',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
      {
        externalIds: [offered[1]!.externalId],
      },
    );
    expect(chosen.status).toBe(200);
    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      status: 'CONNECTED',
      platform: { name: 'Facebook' },
      platformAccountId: offered[1]!.externalId,
      sandbox: true,
      tokenExpiresAt: null,
      metadata: { name: 'Ada Books' },
    });

    const off = await owner.call('POST', `/api/facebook/disconnect/${orgId}`);
    expect(off.status).toBe(200);
  });

  it('shows a Page the person cannot post to with the reason, and refuses to connect it', async () => {
    const { owner, orgId } = await createOrg(t.app, 'fb.tasks@example.com', 'Tasks Co');
    const done = await connectThroughSandbox(t.app, owner, 'facebook', orgId, {
      account: 'Tasks',
      fields: { pages: 'Posting Page', business_pages: 'Watching Page @ Big Group (ANALYZE)' },
    });
    const pick = new URL(done).searchParams.get('pick');
    const pending = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
    );
    const offered = pending.body.data.accounts as Array<{
      externalId: string;
      name: string;
      unavailableReason: string | null;
    }>;
    expect(offered.map((a) => [a.name, Boolean(a.unavailableReason)])).toEqual([
      ['Posting Page', false],
      ['Watching Page', true],
    ]);
    const refused = await owner.call(
      'POST',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
      { externalIds: [offered[1]!.externalId] },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Watching Page does not let you create content/);
  });
});
