import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { emuInject, useHarness } from '../../test/network-tests.js';

const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64') }),
);

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'tiktok', method, path, payload)).json();

describe('connecting TikTok through Herald and the TikTok sandbox', () => {
  it('connects, refreshes, marks a revoked account for reconnection, and revokes on disconnect', async () => {
    const { owner, orgId } = await createOrg(t.app, 'tiktok.flow@example.com');
    const done = await connectThroughSandbox(t.app, owner, 'tiktok', orgId, {
      account: 'Clip Maker',
    });
    expect(done).toBe(`${TEST_PUBLIC_URL}/settings?connected=TikTok`);
    const list = async () =>
      (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data.platforms;
    expect((await list())[0]).toMatchObject({
      status: 'CONNECTED',
      sandbox: true,
      platform: { name: 'TikTok' },
      platformAccountId: expect.stringMatching(/^-000/),
      metadata: { username: 'clip_maker', name: 'Clip Maker' },
    });

    expect((await owner.call('GET', `/api/auth/tiktok/refresh?orgId=${orgId}`)).status).toBe(200);

    await emu('POST', 'scenario', { account: 'clip_maker', knob: 'token_revoked', on: true });
    const refused = await owner.call('GET', `/api/auth/tiktok/refresh?orgId=${orgId}`);
    expect(refused.status).toBe(409);
    expect((await list())[0]).toMatchObject({
      status: 'REFRESH_FAILED',
      lastError: 'TikTok said: Refresh token is invalid or expired.',
    });
    await emu('POST', 'scenario', { account: 'clip_maker', knob: 'token_revoked', on: false });

    expect(
      await connectThroughSandbox(t.app, owner, 'tiktok', orgId, { account: 'clip_maker' }),
    ).toBe(`${TEST_PUBLIC_URL}/settings?connected=TikTok`);
    expect((await list())[0].status).toBe('CONNECTED');
    expect((await owner.call('POST', `/api/tiktok/disconnect/${orgId}`)).status).toBe(200);
    const revokes = (await emu('GET', 'calls?path=/v2/oauth/revoke/')).calls;
    expect(revokes).toHaveLength(1);
    expect(revokes[0]).toMatchObject({
      status: 200,
      body: { client_key: 'herald-sandbox', token: '[redacted]' },
    });
  });
});
