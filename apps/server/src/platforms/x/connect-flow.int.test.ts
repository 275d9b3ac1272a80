import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { emuInject, useHarness } from '../../test/network-tests.js';

const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') }),
);

const emuCalls = async (path: string) =>
  (await emuInject(t, 'x', 'GET', `calls?path=${path}`)).json().calls as any[];

describe('connecting X through Herald and the X sandbox', () => {
  it('connects, refreshes, disconnects with a revoke, and reports a denial', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.flow@example.com');
    const done = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'Flow Tester' });
    expect(done).toBe(`${TEST_PUBLIC_URL}/settings?connected=X`);
    const [integration] = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body
      .data.platforms;
    expect(integration).toMatchObject({
      status: 'CONNECTED',
      sandbox: true,
      platform: { name: 'X' },
      platformAccountId: expect.stringMatching(/^\d{19}$/),
      metadata: {
        username: 'flow_tester',
        name: 'Flow Tester',
        // The sandbox's picture is a data: URL; Herald keeps only web (http/https) addresses.
        pictureUrl: null,
      },
    });
    // The code exchange carried the PKCE verifier Herald derived for this sign-in.
    const [exchange] = await emuCalls('/2/oauth2/token');
    expect(exchange).toMatchObject({
      status: 200,
      auth: 'basic',
      body: { code_verifier: '[redacted]' },
    });

    expect((await owner.call('GET', `/api/auth/x/refresh?orgId=${orgId}`)).status).toBe(200);
    expect((await owner.call('POST', `/api/x/disconnect/${orgId}`)).status).toBe(200);
    expect((await emuCalls('/2/oauth2/revoke')).map((c) => c.status)).toEqual([200, 200]);
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data.platforms,
    ).toEqual([]);

    const denied = new URL(
      await connectThroughSandbox(t.app, owner, 'x', orgId, { decision: 'deny' }),
    );
    expect(denied.searchParams.get('connectError')).toBe(
      'You did not allow Herald to use your X account. Connect again and approve access to continue.',
    );
  });
});
