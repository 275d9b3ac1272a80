import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildNetworks } from './runtime.js';
import type { PlatformHttp } from './types.js';

/** Records every call and answers the token endpoint with a token, any other call as LinkedIn refuses a sunset version. */
function recordingHttp() {
  const calls: Array<{ url: string; headers: Headers }> = [];
  const http: PlatformHttp = async (url, init) => {
    calls.push({ url: String(url), headers: new Headers(init?.headers) });
    if (String(url).endsWith('/oauth/v2/accessToken'))
      return Response.json({ access_token: 'token', expires_in: 5_184_000, scope: 'openid' });
    return Response.json(
      {
        status: 426,
        code: 'NONEXISTENT_VERSION',
        message: 'Requested version 20260301 is not active',
      },
      { status: 426 },
    );
  };
  return { http, calls };
}

describe('the configured API versions', () => {
  const env = {
    NODE_ENV: 'development',
    LINKEDIN_PAGE_CLIENT_ID: 'p',
    LINKEDIN_PAGE_CLIENT_SECRET: 's',
    META_APP_ID: 'm',
    META_APP_SECRET: 's',
  };

  it('are what the adapters send, to real networks and sandboxes alike', async () => {
    const { http, calls } = recordingHttp();
    const networks = buildNetworks(
      loadConfig({ ...env, LINKEDIN_API_VERSION: '202603', META_GRAPH_VERSION: 'v25.0' }),
      http,
      'sandbox-secret',
    );
    const dialog = (slug: string) =>
      new URL(
        networks.get(slug)!.adapter.authorizeUrl({
          redirectUri: 'https://herald.example.com/api/auth/cb',
          state: 's',
          codeChallenge: 'c',
        }),
      );
    expect(dialog('facebook').href).toMatch(
      /^https:\/\/www\.facebook\.com\/v25\.0\/dialog\/oauth\?/,
    );
    expect(networks.get('instagram')!.urls.graphVersion).toBe('v25.0');

    const linkedin = networks.get('linkedin')!;
    const err = await linkedin.adapter
      .connect({
        code: 'c',
        redirectUri: 'https://herald.example.com/cb',
        codeVerifier: '',
        kind: 'organization',
      })
      .then(
        () => null,
        (e: Error) => e,
      );
    const rest = calls.find((c) => c.url.startsWith('https://api.linkedin.com/rest/'))!;
    expect(rest.headers.get('linkedin-version')).toBe('202603');
    expect(err?.message).toMatch(
      /^LinkedIn no longer serves API version 202603\. Set LINKEDIN_API_VERSION to \d{6} and restart Herald \(LinkedIn said: Requested version 20260301 is not active\)\.$/,
    );
  });

  it('reach the sandboxes too, which accept the same versions as the networks', () => {
    const networks = buildNetworks(
      loadConfig({
        NODE_ENV: 'development',
        META_GRAPH_VERSION: 'v25.0',
        LINKEDIN_API_VERSION: '202603',
      }),
      recordingHttp().http,
      'sandbox-secret',
    );
    const facebook = networks.get('facebook')!;
    expect(facebook.sandbox).toBe(true);
    expect(
      facebook.adapter.authorizeUrl({ redirectUri: 'http://x/cb', state: 's', codeChallenge: 'c' }),
    ).toMatch(/^http:\/\/localhost:3000\/api\/sandbox\/facebook\/v25\.0\/dialog\/oauth\?/);
    expect(networks.get('linkedin')!.urls.linkedinVersion).toBe('202603');
  });
});
