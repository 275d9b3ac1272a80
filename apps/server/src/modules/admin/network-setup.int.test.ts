import { NetworkSetupResponseSchema } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTokenEndpoint } from '../../platforms/preflight/probe.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { signIn, type Actor } from '../../test/factories.js';

let t: TestApp;
let ops: Actor;
let someone: Actor;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' });
  ops = await signIn(t.app, 'ops@example.com', 'Olga Ops');
  someone = await signIn(t.app, 'someone@example.com', 'Sam Someone');
});
afterAll(() => t.close());

describe('GET /admin/network-setup', () => {
  it('is for platform operators only: 401 anonymous, 403 for a normal user', async () => {
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/api/admin/network-setup',
      headers: { origin: TEST_PUBLIC_URL },
    });
    expect(anonymous.statusCode).toBe(401);
    const res = await someone.call('GET', '/api/admin/network-setup');
    expect(res.status).toBe(403);
    expect(res.body.data).toBeUndefined();
  });

  it('answers every network with its redirect URI, scopes and findings, and which are offered', async () => {
    const res = await ops.call('GET', '/api/admin/network-setup');
    expect(res.status).toBe(200);
    const report = NetworkSetupResponseSchema.parse(res.body).data;
    expect(report.live).toBe(false);
    // What the YouTube API project has left today, for operators.
    expect(report.deployment.find((f) => f.topic === 'quota')?.message).toMatch(
      /^YouTube quota today \(\d{4}-\d{2}-\d{2}, Pacific time\): 10,000 of 10,000 units and 100 of 100 uploads left/,
    );
    expect(report.apiPublicUrl).toBe(`${TEST_PUBLIC_URL}/api`);
    expect(report.networks.map((n) => n.name)).toEqual([
      'X',
      'Facebook',
      'Instagram',
      'LinkedIn profile',
      'LinkedIn Page',
      'Threads',
      'TikTok',
      'Mastodon',
      'Bluesky',
      'YouTube',
      'Google Business Profile',
      'Pinterest',
    ]);
    const x = report.networks[0]!;
    expect(x).toMatchObject({
      mode: 'sandbox',
      active: true,
      redirectUri: `${TEST_PUBLIC_URL}/api/auth/x/callback`,
    });
    expect(x.scopes).toContain('offline.access');
    expect(report.networks.flatMap((n) => n.findings).every((f) => f.level === 'ok')).toBe(true);
  });

  it('with live=true probes each token endpoint, here the sandboxes, which know Herald’s client', async () => {
    const res = await ops.call('GET', '/api/admin/network-setup?live=true');
    expect(res.status).toBe(200);
    const report = NetworkSetupResponseSchema.parse(res.body).data;
    expect(report.live).toBe(true);
    for (const network of report.networks) {
      const live = network.findings.filter((f) => f.topic === 'live');
      expect(live, network.name).toHaveLength(1);
      expect(live[0]!.level, `${network.name}: ${live[0]!.message}`).toBe('ok');
      expect(live[0]!.message).toMatch(
        network.name === 'Mastodon'
          ? /^Nothing to probe: Herald registers itself on each Mastodon server/
          : network.name === 'Bluesky'
            ? /^Nothing to probe: Bluesky accounts sign in with their own app passwords/
            : /accepts the client id and secret: it refused only the test code/,
      );
    }
  });

  it('refuses a bad live value', async () => {
    const res = await ops.call('GET', '/api/admin/network-setup?live=maybe');
    expect(res.status).toBe(400);
  });
});

describe('the live probe against the sandboxes', () => {
  it('tells a wrong client secret (or id) from a right one on every network', async () => {
    // Mastodon has no shared app: each server's is registered at the first connect there.
    // Bluesky has none at all: accounts sign in with their own app passwords.
    for (const network of [...t.networks.values()].filter(
      (n) => n.slug !== 'mastodon' && n.slug !== 'bluesky',
    )) {
      const target = {
        slug: network.slug,
        name: network.name,
        urls: network.urls,
        redirectUri: `${TEST_PUBLIC_URL}/api/auth/${network.slug}/callback`,
      };
      const right = await probeTokenEndpoint({ ...target, ...network.client }, t.runtime.http);
      expect(right.level, `${network.name}: ${right.message}`).toBe('ok');
      const wrongSecret = await probeTokenEndpoint(
        { ...target, clientId: network.client.clientId, clientSecret: 'not-the-secret' },
        t.runtime.http,
      );
      expect(wrongSecret.level, `${network.name}: ${wrongSecret.message}`).toBe('problem');
      expect(wrongSecret.message).toMatch(/^Check \w+ and \w+: [\w ]+ does not accept them/);
      const wrongId = await probeTokenEndpoint(
        { ...target, clientId: 'someone-else', clientSecret: network.client.clientSecret },
        t.runtime.http,
      );
      expect(wrongId.level, `${network.name}: ${wrongId.message}`).toBe('problem');
    }
  });

  it("names the variables of the connect kind's own app", async () => {
    const linkedin = t.networks.get('linkedin')!;
    const target = {
      slug: 'linkedin',
      name: 'LinkedIn',
      urls: linkedin.urls,
      redirectUri: `${TEST_PUBLIC_URL}/api/auth/linkedin/callback`,
      clientId: linkedin.client.clientId,
      clientSecret: 'not-the-secret',
    };
    const page = await probeTokenEndpoint({ ...target, kind: 'organization' }, t.runtime.http);
    expect(page.message).toMatch(/^Check LINKEDIN_PAGE_CLIENT_ID and LINKEDIN_PAGE_CLIENT_SECRET:/);
    const profile = await probeTokenEndpoint(target, t.runtime.http);
    expect(profile.message).toMatch(/^Check LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET:/);
  });

  it('says when the token endpoint cannot be reached', async () => {
    const finding = await probeTokenEndpoint(
      {
        slug: 'x',
        name: 'X',
        urls: { apiBase: 'https://api.x.example' },
        clientId: 'a',
        clientSecret: 'b',
        redirectUri: 'https://h.example/api/auth/x/callback',
      },
      () => Promise.reject(new Error('getaddrinfo ENOTFOUND api.x.example')),
    );
    expect(finding).toEqual({
      level: 'warning',
      topic: 'live',
      message:
        "Check this server's outgoing connection: X's token endpoint could not be reached (getaddrinfo ENOTFOUND api.x.example).",
    });
  });
});
