import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import type { StoredAccount } from '../types.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const DAY = 86_400_000;
const stored = (a: { externalId: string; tokens: StoredAccount['tokens'] }): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: {},
  secrets: {},
});

const userInfo = (token: string) =>
  fetch(`${h.base}/v2/user/info/?fields=open_id`, {
    headers: { authorization: `Bearer ${token}` },
  });

describe('TikTok adapter against the TikTok sandbox', () => {
  it('names the client client_key and asks for a comma list of scopes', () => {
    const url = new URL(
      h.adapter.authorizeUrl({ redirectUri: h.redirectUri, state: 's', codeChallenge: 'c' }),
    );
    expect(url.pathname).toBe('/api/sandbox/tiktok/v2/auth/authorize/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: 'herald-sandbox',
      scope: 'user.info.basic,video.publish,video.upload,video.list,user.info.stats',
      redirect_uri: h.redirectUri,
      state: 's',
      response_type: 'code',
    });
  });

  it('connects with rotating tokens, the profile, and the handle from creator_info', async () => {
    const before = Date.now();
    const since = (await h.calls()).length;
    const { account, accounts } = await h.connectAs('Dance Floor');
    expect(accounts).toHaveLength(1);
    expect(account).toMatchObject({ username: 'dance_floor', name: 'Dance Floor' });
    expect(account.externalId).toMatch(/^-000/);
    expect(account.pictureUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(account.extra).toEqual({ unionId: expect.any(String) });
    expect(account.tokens).toMatchObject({
      accessToken: expect.stringMatching(/^act\./),
      refreshToken: expect.stringMatching(/^rft\./),
      scopes: ['user.info.basic', 'video.publish', 'video.upload', 'video.list', 'user.info.stats'],
    });
    expect(account.tokens.accessTokenExpiresAt!.getTime() - before).toBeGreaterThan(7190_000);
    expect(account.tokens.refreshTokenExpiresAt!.getTime() - before).toBeGreaterThan(179 * DAY);

    const calls = (await h.calls()).slice(since).filter((c) => !c.path.startsWith('/v2/auth/'));
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'POST /v2/oauth/token/ 200',
      'GET /v2/user/info/ 200',
      'POST /v2/post/publish/creator_info/query/ 200',
    ]);
    expect(calls[0]!.body).toMatchObject({
      client_key: 'herald-sandbox',
      client_secret: '[redacted]',
    });
    expect(calls[1]!.query).toEqual({ fields: 'open_id,union_id,avatar_url,display_name' });
    const everything = JSON.stringify(await h.calls());
    for (const secret of [
      account.tokens.accessToken,
      account.tokens.refreshToken!,
      h.settings.clientSecret,
    ])
      expect(everything).not.toContain(secret);
  });

  it('reads the handle from the profile when user.info.profile is granted', async () => {
    const landed = await h.authorize({
      account: 'profiled',
      alter: (url) =>
        url.searchParams.set('scope', 'user.info.basic,user.info.profile,video.publish'),
    });
    expect(landed.searchParams.get('scopes')).toBe(
      'user.info.basic,user.info.profile,video.publish',
    );
    const since = (await h.calls()).length;
    const [account] = await h.adapter.connect({
      code: landed.searchParams.get('code')!,
      redirectUri: h.redirectUri,
      codeVerifier: '',
    });
    expect(account!.username).toBe('profiled');
    const paths = (await h.calls()).slice(since).map((c) => c.path);
    expect(paths).not.toContain('/v2/post/publish/creator_info/query/');
  });

  it('refreshes with rotation: only the newest refresh token works', async () => {
    const { account } = await h.connectAs('rotator');
    const fresh = await h.adapter.refresh!(stored(account));
    expect(fresh.accessToken).not.toBe(account.tokens.accessToken);
    expect(fresh.refreshToken).toMatch(/^rft\./);
    expect(fresh.refreshToken).not.toBe(account.tokens.refreshToken);
    expect((await userInfo(fresh.accessToken)).status).toBe(200);

    const old = await expectPlatformError(h.adapter.refresh!(stored(account)));
    expect(old).toMatchObject({ kind: 'reauth', details: { code: 'invalid_grant' } });
    expect(old.message).toBe('TikTok said: Refresh token is invalid or expired.');
    expect((await h.adapter.refresh!(stored({ ...account, tokens: fresh }))).refreshToken).not.toBe(
      fresh.refreshToken,
    );
  });

  it('returns access_denied with the state when the person denies', async () => {
    const landed = await h.authorize({ decision: 'deny', state: 'nope' });
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('nope');
    expect(landed.searchParams.has('code')).toBe(false);
  });

  it('refuses a reused code, another redirect_uri and a wrong secret', async () => {
    const { code } = await h.connectAs('twice');
    const reused = await expectPlatformError(
      h.adapter.connect({ code, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(reused).toMatchObject({
      kind: 'bad_request',
      details: { status: 400, code: 'invalid_grant' },
    });

    const other = (await h.authorize()).searchParams.get('code')!;
    const moved = await expectPlatformError(
      h.adapter.connect({ code: other, redirectUri: 'http://localhost:3000/x', codeVerifier: '' }),
    );
    expect(moved.message).toContain('redirect_uri');

    const third = (await h.authorize()).searchParams.get('code')!;
    const secret = await expectPlatformError(
      h
        .adapterWith({ clientSecret: 'wrong' })
        .connect({ code: third, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(secret).toMatchObject({
      kind: 'bad_request',
      details: { status: 401, code: 'invalid_client' },
    });
  });

  it('shows an error page when the client is sent as client_id', async () => {
    const landed = fetch(
      h.adapter
        .authorizeUrl({ redirectUri: h.redirectUri, state: 's', codeChallenge: '' })
        .replace('client_key=', 'client_id='),
      { redirect: 'manual' },
    );
    const res = await landed;
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('client_key');
  });

  it('maps token_revoked and refresh_fails to reauth', async () => {
    const { account } = await h.connectAs('revoked_user');
    await h.setKnob('revoked_user', 'token_revoked');
    expect((await expectPlatformError(h.adapter.refresh!(stored(account)))).kind).toBe('reauth');
    const profile = await expectPlatformError(h.connectAs('revoked_user'));
    expect(profile).toMatchObject({
      kind: 'reauth',
      details: { status: 401, code: 'access_token_invalid' },
    });
    await h.setKnob('revoked_user', 'token_revoked', false);

    await h.setKnob('revoked_user', 'refresh_fails');
    expect((await expectPlatformError(h.adapter.refresh!(stored(account)))).kind).toBe('reauth');
  });

  it('reports rate limits and outages by TikTok’s codes', async () => {
    await h.connectAs('busy');
    await h.setKnob('busy', 'rate_limit_once');
    expect(await expectPlatformError(h.connectAs('busy'))).toMatchObject({
      kind: 'rate_limited',
      details: { code: 'rate_limit_exceeded' },
    });
    await h.setKnob('busy', 'http_500_once');
    expect((await expectPlatformError(h.connectAs('busy'))).kind).toBe('transient');
  });

  it('revoke makes the tokens unusable', async () => {
    const { account } = await h.connectAs('leaver');
    await h.adapter.revoke!(stored(account));
    expect((await userInfo(account.tokens.accessToken)).status).toBe(401);
    expect((await expectPlatformError(h.adapter.refresh!(stored(account)))).kind).toBe('reauth');
  });
});
