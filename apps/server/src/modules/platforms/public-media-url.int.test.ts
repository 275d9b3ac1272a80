import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signIn } from '../../test/factories.js';
import { getPublicMediaUrlFinding } from './platforms.service.js';

/**
 * The back-office copy of the start-up warning about media URLs: operators see it
 * when an active network that fetches media by URL runs with real credentials and
 * API_PUBLIC_URL is not a public https address.
 */

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function appWith(env: Record<string, string>) {
  const t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com', ...env });
  apps.push(t);
  return { t, ops: await signIn(t.app, 'ops@example.com') };
}

describe('GET /platforms/public-media-url', () => {
  it('tells operators which active networks cannot fetch media from a local API_PUBLIC_URL, and what to set', async () => {
    const { t, ops } = await appWith({
      META_APP_ID: 'meta-app',
      META_APP_SECRET: 'meta-secret',
      THREADS_APP_ID: 'threads-app',
      THREADS_APP_SECRET: 'threads-secret',
      X_CLIENT_ID: 'x-app',
      X_CLIENT_SECRET: 'x-secret',
      API_PUBLIC_URL: 'http://localhost:3000/api',
    });
    const res = await ops.call('GET', '/api/platforms/public-media-url');
    expect(res.status).toBe(200);
    expect(res.body.data.finding).toEqual({
      networks: ['Facebook', 'Instagram', 'Threads'],
      apiPublicUrl: 'http://localhost:3000/api',
      problem: 'localhost is not reachable from the internet',
      message:
        "Facebook, Instagram, Threads fetch post media from Herald's media URLs under http://localhost:3000/api, but localhost is not reachable from the internet: posts with images or videos will fail there. Set API_PUBLIC_URL to the public https address of this server's API.",
    });

    // A network operators do not offer is not named.
    const platforms = (await ops.call('GET', '/api/platforms')).body.data.platforms as Array<{
      id: string;
      name: string;
    }>;
    for (const name of ['Facebook', 'Instagram']) {
      const id = platforms.find((p) => p.name === name)!.id;
      expect((await ops.call('PUT', `/api/platforms/${id}/deactivate`)).status).toBe(200);
    }
    const after = await ops.call('GET', '/api/platforms/public-media-url');
    expect(after.body.data.finding.networks).toEqual(['Threads']);

    // Operators only.
    const member = await signIn(t.app, 'member@example.com');
    expect((await member.call('GET', '/api/platforms/public-media-url')).status).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/platforms/public-media-url' })).statusCode,
    ).toBe(401);
  });

  it('says nothing when the media URLs are public https, or only sandboxes pull media', async () => {
    const { t } = await appWith({ META_APP_ID: 'meta-app', META_APP_SECRET: 'meta-secret' });
    expect(
      await getPublicMediaUrlFinding(t.database.db, t.networks, 'https://herald.example.com/api'),
    ).toBeNull();
    expect(
      await getPublicMediaUrlFinding(t.database.db, t.networks, 'http://herald.example.com/api'),
    ).toMatchObject({ networks: ['Facebook', 'Instagram'], problem: 'it is not https' });
    const sandboxes = await appWith({ API_PUBLIC_URL: 'http://localhost:3000/api' });
    expect(
      (await sandboxes.ops.call('GET', '/api/platforms/public-media-url')).body.data.finding,
    ).toBeNull();
  });
});
