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

  it('connects Pages through the Page sign-in, offering those the member may post to', async () => {
    const { owner, orgId } = await createOrg(t.app, 'li.admin@example.com', 'Org Co');
    const done = await connectThroughSandbox(t.app, owner, 'linkedin', orgId, {
      account: 'Grace Hopper',
      fields: { organizations: 'Compiler Works, Cobol Corp (CONTENT_ADMINISTRATOR)' },
      kind: 'organization',
    });
    const pick = new URL(done).searchParams.get('pick');
    expect(pick, done).toBeTruthy();
    const pending = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
    );
    const offered = pending.body.data.accounts as Array<{ externalId: string; name: string }>;
    expect(offered.map((a) => a.name)).toEqual(['Compiler Works', 'Cobol Corp']);
    expect(offered[1]!.externalId).toMatch(/^urn:li:organization:\d+$/);
    const chosen = await owner.call(
      'POST',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
      { externalIds: [offered[1]!.externalId] },
    );
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.platforms).toEqual([
      expect.objectContaining({
        platform: expect.objectContaining({ name: 'LinkedIn' }),
        sandbox: true,
      }),
    ]);
  });

  it('offers two LinkedIn connect options, each saying which LinkedIn product it needs', async () => {
    const { owner } = await createOrg(t.app, 'li.kinds@example.com', 'Kinds Co');
    const { body } = await owner.call('GET', '/api/platforms/supported');
    const linkedin = body.data.platforms.find((p: { name: string }) => p.name === 'LinkedIn');
    expect(linkedin.connectKinds).toEqual([
      expect.objectContaining({ kind: 'person', label: 'LinkedIn profile', sandbox: true }),
      expect.objectContaining({ kind: 'organization', label: 'LinkedIn Page', sandbox: true }),
    ]);
    expect(linkedin.connectKinds[0].requirement).toMatch(/Share on LinkedIn/);
    expect(linkedin.connectKinds[1].requirement).toMatch(/Community Management API/);
    // Members read what each kind posts as; the app's products are for operators.
    for (const kind of linkedin.connectKinds) expect(kind.description).not.toMatch(/app|API/);
    const x = body.data.platforms.find((p: { name: string }) => p.name === 'X');
    expect(x.connectKinds).toBeUndefined();
  });

  it('refuses a connect kind LinkedIn does not have', async () => {
    const { owner, orgId } = await createOrg(t.app, 'li.badkind@example.com', 'Bad Kind Co');
    const res = await owner.call('GET', `/api/auth/linkedin?orgId=${orgId}&kind=company`);
    expect(res.status).toBe(302);
    expect(new URL(res.location!).searchParams.get('connectError')).toMatch(
      /LinkedIn profile, LinkedIn Page/,
    );
  });
});
