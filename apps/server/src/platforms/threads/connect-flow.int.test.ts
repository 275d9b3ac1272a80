import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sandboxRecords } from '../../db/schema.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { emuInject } from '../../test/network-tests.js';

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
    await emuInject(t, 'threads', 'POST', 'clock', { advance_seconds: 90_000 });
    expect((await owner.call('GET', `/api/auth/threads/refresh?orgId=${orgId}`)).status).toBe(200);
    expect((await list())[0].status).toBe('CONNECTED');

    expect((await owner.call('POST', `/api/threads/disconnect/${orgId}`)).status).toBe(200);
    const denied = new URL(
      await connectThroughSandbox(t.app, owner, 'threads', orgId, { decision: 'deny' }),
    );
    expect(denied.searchParams.get('connectError')).toBe(
      'You did not allow Herald to use your Threads account. Connect again and approve access to continue.',
    );

    // Threads takes tokens and the client secret in query strings; none reach Herald's log.
    expect(logLines.length).toBeGreaterThan(0);
    const log = logLines.join('');
    expect(log).not.toMatch(/access_token=|client_secret=/);
    // Nor does any secret the sandbox holds (codes and tokens it issued), whatever its shape.
    const held = await t.database.db
      .select()
      .from(sandboxRecords)
      .where(eq(sandboxRecords.network, 'threads'));
    const secrets = held
      .flatMap((r) => [
        r.id,
        ...Object.values(r.data).filter((v): v is string => typeof v === 'string'),
      ])
      .filter((v) => v.length >= 20);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
