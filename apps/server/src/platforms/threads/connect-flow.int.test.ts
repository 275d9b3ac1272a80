import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';

let t: TestApp;
const logLines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});
beforeAll(async () => {
  t = await createTestApp(
    { TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 4).toString('base64') },
    { logger: { level: 'info', stream } },
  );
});
afterAll(() => t?.close());

describe('connecting Threads through Herald and the Threads sandbox', () => {
  it('connects with a 60-day token, refreshes it once a day old, and reports a denial', async () => {
    const { owner, orgId } = await createOrg(t.app, 'threads.flow@example.com');
    const done = await connectThroughSandbox(t.app, owner, 'threads', orgId, {
      account: 'Thread Weaver',
    });
    expect(done).toBe(`${TEST_PUBLIC_URL}/settings?connected=Threads`);
    const list = async () =>
      (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data.platforms;
    const [integration] = await list();
    expect(integration).toMatchObject({
      status: 'CONNECTED',
      sandbox: true,
      platform: { name: 'Threads' },
      metadata: { username: 'thread_weaver', name: 'Thread Weaver' },
    });
    const days = (Date.parse(integration.tokenExpiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59);

    // Threads refuses to refresh a token younger than 24 h; Herald passes its words on.
    const young = await owner.call('GET', `/api/auth/threads/refresh?orgId=${orgId}`);
    expect(young.status).toBeGreaterThanOrEqual(400);
    expect(young.body.message).toContain('24 hours');
    await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/threads/_emu/clock',
      payload: { advance_seconds: 90_000 },
    });
    expect((await owner.call('GET', `/api/auth/threads/refresh?orgId=${orgId}`)).status).toBe(200);
    expect((await list())[0].status).toBe('CONNECTED');

    expect((await owner.call('POST', `/api/threads/disconnect/${orgId}`)).status).toBe(200);
    const denied = new URL(
      await connectThroughSandbox(t.app, owner, 'threads', orgId, { decision: 'deny' }),
    );
    expect(denied.searchParams.get('connectError')).toBe('Permissions error');

    // Threads takes tokens and the client secret in query strings; none reach Herald's log.
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toMatch(/access_token=|client_secret=|TH[A-Za-z0-9_-]{20}/);
  });
});
