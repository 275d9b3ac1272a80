import { describe, expect, it } from 'vitest';
import { pkcePair, startSandboxHarness } from '../../test/sandbox-harness.js';
import type { StoredAccount } from '../types.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const stored = (a: { externalId: string; tokens: StoredAccount['tokens'] }): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: {},
  secrets: {},
});

describe('X adapter against the X sandbox', () => {
  it('asks for PKCE S256 and the publishing scopes with offline.access', () => {
    const url = new URL(
      h.adapter.authorizeUrl({ redirectUri: h.redirectUri, state: 's', codeChallenge: 'c' }),
    );
    expect(url.pathname).toBe('/api/sandbox/x/i/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'herald-sandbox',
      redirect_uri: h.redirectUri,
      state: 's',
      code_challenge: 'c',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining([
        'tweet.read',
        'tweet.write',
        'users.read',
        'media.write',
        'offline.access',
      ]),
    );
    expect(url.search).toContain('scope=tweet.read%20tweet.write');
  });

  it('connects the approved account with its profile and rotating tokens', async () => {
    const before = Date.now();
    const { account, accounts } = await h.connectAs('Ada Lovelace');
    expect(accounts).toHaveLength(1);
    expect(account).toMatchObject({ username: 'ada_lovelace', name: 'Ada Lovelace' });
    expect(account.externalId).toMatch(/^\d{19}$/);
    expect(account.pictureUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(account.tokens.refreshToken).toEqual(expect.any(String));
    expect(account.tokens.scopes).toContain('tweet.write');
    const lifetime = account.tokens.accessTokenExpiresAt!.getTime() - before;
    expect(lifetime).toBeGreaterThan(7190_000);
    expect(lifetime).toBeLessThanOrEqual(7200_000 + 5_000);

    // The same person approving again is the same X account.
    const again = await h.connectAs('ada_lovelace');
    expect(again.account.externalId).toBe(account.externalId);
  });

  it('exchanges the code as a confidential client and never lets a secret into the call log', async () => {
    const { account, code } = await h.connectAs('logcheck');
    const calls = await h.calls('/2/oauth2/token');
    const exchange = calls.at(-1)!;
    expect(exchange).toMatchObject({ method: 'POST', auth: 'basic', status: 200 });
    expect(exchange.body).toMatchObject({
      grant_type: 'authorization_code',
      code_verifier: '[redacted]',
    });
    const everything = JSON.stringify(await h.calls());
    for (const secret of [
      code,
      account.tokens.accessToken,
      account.tokens.refreshToken!,
      h.settings.clientSecret,
    ])
      expect(everything).not.toContain(secret);
  });

  it('refreshes with rotation: only the newest refresh token works', async () => {
    const { account } = await h.connectAs('rotator');
    const fresh = await h.adapter.refresh!(stored(account));
    expect(fresh.accessToken).not.toBe(account.tokens.accessToken);
    expect(fresh.refreshToken).toEqual(expect.any(String));
    expect(fresh.refreshToken).not.toBe(account.tokens.refreshToken);
    expect(fresh.scopes).toEqual(account.tokens.scopes);

    const old = await expectPlatformError(h.adapter.refresh!(stored(account)));
    expect(old.kind).toBe('reauth');
    expect(old.message).toBe('X said: Value passed for the token was invalid.');

    const next = await h.adapter.refresh!(stored({ ...account, tokens: fresh }));
    expect(next.refreshToken).not.toBe(fresh.refreshToken);
  });

  it('returns access_denied with the state when the person denies', async () => {
    const landed = await h.authorize({ decision: 'deny', state: 'deny-me' });
    expect(landed.origin + landed.pathname).toBe(h.redirectUri);
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('deny-me');
    expect(landed.searchParams.has('code')).toBe(false);
  });

  it('refuses a wrong PKCE verifier, a reused code and an expired code', async () => {
    const { challenge } = pkcePair();
    let code = (await h.authorize({ codeChallenge: challenge })).searchParams.get('code')!;
    const wrong = await expectPlatformError(
      h.adapter.connect({
        code,
        redirectUri: h.redirectUri,
        codeVerifier: pkcePair().verifier,
      }),
    );
    expect(wrong).toMatchObject({
      kind: 'bad_request',
      details: { status: 400, code: 'invalid_grant' },
    });
    expect(wrong.message).toContain('code verifier');

    const { code: used, verifier } = await h.connectAs('twice');
    const reused = await expectPlatformError(
      h.adapter.connect({ code: used, redirectUri: h.redirectUri, codeVerifier: verifier }),
    );
    expect(reused.kind).toBe('bad_request');

    const pair = pkcePair();
    code = (await h.authorize({ codeChallenge: pair.challenge })).searchParams.get('code')!;
    await h.advanceClock(31);
    const late = await expectPlatformError(
      h.adapter.connect({ code, redirectUri: h.redirectUri, codeVerifier: pair.verifier }),
    );
    expect(late.kind).toBe('bad_request');
    expect(late.message).toBe('X said: Value passed for the authorization code was invalid.');
  });

  it('refuses a redirect_uri different from the authorize one', async () => {
    const pair = pkcePair();
    const code = (await h.authorize({ codeChallenge: pair.challenge })).searchParams.get('code')!;
    const err = await expectPlatformError(
      h.adapter.connect({
        code,
        redirectUri: 'http://localhost:3000/elsewhere',
        codeVerifier: pair.verifier,
      }),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('redirect uri');
  });

  it('treats wrong client credentials as a configuration error, not a reconnect', async () => {
    const { account } = await h.connectAs('creds');
    const err = await expectPlatformError(
      h.adapterWith({ clientSecret: 'not-the-secret' }).refresh!(stored(account)),
    );
    expect(err).toMatchObject({
      kind: 'bad_request',
      details: { status: 401, code: 'unauthorized_client' },
    });
  });

  it('maps token_revoked to reauth on the profile and on refresh', async () => {
    const { account } = await h.connectAs('revoked_user');
    await h.setKnob('revoked_user', 'token_revoked');
    const refresh = await expectPlatformError(h.adapter.refresh!(stored(account)));
    expect(refresh.kind).toBe('reauth');

    const pair = pkcePair();
    const code = (
      await h.authorize({ account: 'revoked_user', codeChallenge: pair.challenge })
    ).searchParams.get('code')!;
    const profile = await expectPlatformError(
      h.adapter.connect({ code, redirectUri: h.redirectUri, codeVerifier: pair.verifier }),
    );
    expect(profile).toMatchObject({ kind: 'reauth', details: { status: 401 } });
    expect(profile.message).toBe('X said: Unauthorized');

    await h.setKnob('revoked_user', 'token_revoked', false);
    expect((await h.connectAs('revoked_user')).account.username).toBe('revoked_user');
  });

  it('still refreshes an expired access token, but not when refresh_fails', async () => {
    const { account } = await h.connectAs('expiring');
    await h.setKnob('expiring', 'token_expired');
    const fresh = await h.adapter.refresh!(stored(account));
    const me = await fetch(`${h.base}/2/users/me`, {
      headers: { authorization: `Bearer ${fresh.accessToken}` },
    });
    expect(me.status).toBe(200);
    const old = await fetch(`${h.base}/2/users/me`, {
      headers: { authorization: `Bearer ${account.tokens.accessToken}` },
    });
    expect(old.status).toBe(401);

    await h.setKnob('expiring', 'refresh_fails');
    expect(
      (await expectPlatformError(h.adapter.refresh!(stored({ ...account, tokens: fresh })))).kind,
    ).toBe('reauth');
  });

  it('reports rate limits with the wait and outages as transient', async () => {
    await h.connectAs('busy');
    await h.setKnob('busy', 'rate_limit_once');
    const limited = await expectPlatformError(h.connectAs('busy'));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.details.retryAfterSeconds).toBeGreaterThan(800);

    await h.setKnob('busy', 'http_500_once');
    expect((await expectPlatformError(h.connectAs('busy'))).kind).toBe('transient');
    expect((await h.connectAs('busy')).account.username).toBe('busy');
  });

  it('revoke makes both tokens unusable', async () => {
    const { account } = await h.connectAs('leaver');
    await h.adapter.revoke!(stored(account));
    const me = await fetch(`${h.base}/2/users/me`, {
      headers: { authorization: `Bearer ${account.tokens.accessToken}` },
    });
    expect(me.status).toBe(401);
    expect((await expectPlatformError(h.adapter.refresh!(stored(account)))).kind).toBe('reauth');
  });

  it('keeps its state across a restart', async () => {
    const { account } = await h.connectAs('durable');
    await h.restart();
    const fresh = await h.adapter.refresh!(stored(account));
    expect(fresh.refreshToken).not.toBe(account.tokens.refreshToken);
  });
});
