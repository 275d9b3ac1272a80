import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import type { StoredAccount } from '../types.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const DAY = 86_400;
const stored = (a: { externalId: string; tokens: StoredAccount['tokens'] }): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: {},
  secrets: {},
});

const me = (token: string) =>
  fetch(`${h.base}/v1.0/me?fields=id,username&access_token=${encodeURIComponent(token)}`);

describe('Threads adapter against the Threads sandbox', () => {
  it('asks for the Threads scopes as a comma list, without PKCE', () => {
    const url = new URL(
      h.adapter.authorizeUrl({ redirectUri: h.redirectUri, state: 's', codeChallenge: 'c' }),
    );
    expect(url.pathname).toBe('/api/sandbox/threads/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'herald-sandbox',
      redirect_uri: h.redirectUri,
      scope:
        'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_delete,threads_manage_insights,threads_manage_mentions',
      response_type: 'code',
      state: 's',
    });
  });

  it('connects with a long-lived token and the profile', async () => {
    const before = Date.now();
    const { account, accounts } = await h.connectAs('Zuck Fan');
    expect(accounts).toHaveLength(1);
    expect(account).toMatchObject({ username: 'zuck_fan', name: 'Zuck Fan' });
    expect(account.externalId).toMatch(/^\d{15}$/);
    expect(account.pictureUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(account.tokens).toMatchObject({
      accessToken: expect.stringMatching(/^TH/),
      refreshToken: null,
      refreshTokenExpiresAt: null,
      scopes: [
        'threads_basic',
        'threads_content_publish',
        'threads_manage_replies',
        'threads_read_replies',
        'threads_delete',
        'threads_manage_insights',
        'threads_manage_mentions',
      ],
    });
    const lifetime = (account.tokens.accessTokenExpiresAt!.getTime() - before) / 1000;
    expect(lifetime).toBeGreaterThan(59 * DAY);
    expect(lifetime).toBeLessThan(61 * DAY);
    expect((await me(account.tokens.accessToken)).status).toBe(200);
  });

  it('walks code → short-lived → long-lived → /me, with no secret in the call log', async () => {
    const since = (await h.calls()).length;
    const { account, code } = await h.connectAs('walker');
    const calls = (await h.calls())
      .slice(since)
      .filter((c) => !c.path.startsWith('/oauth/authorize'));
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'POST /oauth/access_token 200',
      'GET /access_token 200',
      'GET /v1.0/me 200',
    ]);
    expect(calls[1]!.query).toMatchObject({
      grant_type: 'th_exchange_token',
      client_secret: '[redacted]',
    });
    const everything = JSON.stringify(await h.calls());
    for (const secret of [code, account.tokens.accessToken, h.settings.clientSecret])
      expect(everything).not.toContain(secret);
  });

  it('refreshes only once the token is 24 h old, and the new one lasts 60 days from then', async () => {
    const { account } = await h.connectAs('refresher');
    const young = await expectPlatformError(h.adapter.refresh!(stored(account)));
    expect(young.kind).toBe('bad_request');
    expect(young.message).toContain('24 hours');

    await h.advanceClock(DAY + 60);
    const fresh = await h.adapter.refresh!(stored(account));
    expect(fresh.accessToken).not.toBe(account.tokens.accessToken);
    expect(fresh.refreshToken).toBeNull();
    expect(fresh.scopes).toEqual(account.tokens.scopes);
    expect((await me(fresh.accessToken)).status).toBe(200);
  });

  it('cannot refresh a token left to expire', async () => {
    const { account } = await h.connectAs('forgetful');
    await h.advanceClock(61 * DAY);
    const err = await expectPlatformError(h.adapter.refresh!(stored(account)));
    expect(err).toMatchObject({ kind: 'reauth', details: { code: 190 } });
  });

  it('has no revoke endpoint', () => {
    expect(h.adapter.revoke).toBeUndefined();
  });

  it('returns access_denied with the state when the person denies', async () => {
    const landed = await h.authorize({ decision: 'deny', state: 'no-thanks' });
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('error_reason')).toBe('user_denied');
    expect(landed.searchParams.get('state')).toBe('no-thanks');
  });

  it('refuses a reused code, another redirect_uri and a wrong secret', async () => {
    const { code } = await h.connectAs('twice');
    const reused = await expectPlatformError(
      h.adapter.connect({ code, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(reused).toMatchObject({ kind: 'bad_request', details: { code: 100 } });
    expect(reused.message).toBe('Threads said: This authorization code has been used.');

    const other = (await h.authorize()).searchParams.get('code')!;
    const moved = await expectPlatformError(
      h.adapter.connect({ code: other, redirectUri: 'http://localhost:3000/x', codeVerifier: '' }),
    );
    expect(moved.message).toContain('redirect_uri is identical');

    const third = (await h.authorize()).searchParams.get('code')!;
    const secret = await expectPlatformError(
      h
        .adapterWith({ clientSecret: 'wrong' })
        .connect({ code: third, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(secret).toMatchObject({ kind: 'bad_request', details: { code: 101 } });
  });

  it('maps token_revoked to reauth on refresh and on sign-in', async () => {
    const { account } = await h.connectAs('revoked_user');
    await h.advanceClock(DAY + 60);
    await h.setKnob('revoked_user', 'token_revoked');
    expect((await expectPlatformError(h.adapter.refresh!(stored(account)))).kind).toBe('reauth');
    expect((await expectPlatformError(h.connectAs('revoked_user'))).kind).toBe('reauth');
    await h.setKnob('revoked_user', 'token_revoked', false);
    expect((await h.adapter.refresh!(stored(account))).accessToken).toMatch(/^TH/);
  });

  it('maps refresh_fails and token_expired to reauth', async () => {
    const { account } = await h.connectAs('unlucky');
    await h.advanceClock(DAY + 60);
    await h.setKnob('unlucky', 'refresh_fails');
    expect((await expectPlatformError(h.adapter.refresh!(stored(account)))).kind).toBe('reauth');
    await h.setKnob('unlucky', 'refresh_fails', false);
    await h.setKnob('unlucky', 'token_expired');
    const expired = await expectPlatformError(h.adapter.refresh!(stored(account)));
    expect(expired.kind).toBe('reauth');
    expect(expired.message).toBe(
      'Threads said: Error validating access token: Session has expired.',
    );
  });

  it('reports throttling as rate_limited and outages as transient', async () => {
    await h.connectAs('busy');
    await h.setKnob('busy', 'rate_limit_once');
    expect((await expectPlatformError(h.connectAs('busy'))).kind).toBe('rate_limited');
    await h.setKnob('busy', 'http_500_once');
    expect((await expectPlatformError(h.connectAs('busy'))).kind).toBe('transient');
    expect((await h.connectAs('busy')).account.username).toBe('busy');
  });
});
