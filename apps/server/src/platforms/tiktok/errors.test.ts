import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { createTikTokApi } from './api.js';
import { describeTikTokError } from './errors.js';

const envelope = (code: string, message = `${code} message`) => ({
  data: {},
  error: { code, message, log_id: 'L1' },
});

describe('TikTok API errors', () => {
  it.each([
    ['access_token_invalid', 'reauth'],
    ['scope_not_authorized', 'reauth'],
    ['scope_permission_missed', 'reauth'],
    ['rate_limit_exceeded', 'rate_limited'],
    ['reached_active_user_cap', 'rate_limited'],
    ['spam_risk_user_banned_from_posting', 'bad_request'],
    ['unaudited_client_can_only_post_to_private_accounts', 'bad_request'],
    ['url_ownership_unverified', 'bad_request'],
    ['privacy_level_option_mismatch', 'bad_request'],
    ['invalid_params', 'bad_request'],
    ['internal_error', 'transient'],
  ])('%s → %s', (code, kind) => {
    expect(describeTikTokError('api')(envelope(code))).toEqual({
      code,
      kind,
      message: `${code} message`,
    });
  });

  it('spam_risk_too_many_posts waits a day, and says so', () => {
    const d = describeTikTokError('api')(envelope('spam_risk_too_many_posts'));
    expect(d).toMatchObject({
      kind: 'rate_limited',
      code: 'spam_risk_too_many_posts',
      retryAfterSeconds: 24 * 3600,
    });
    expect(d.sentence).toMatch(/daily limit of posts through apps .* in 24 hours/);
  });

  it('leaves unknown codes to the HTTP status', () => {
    expect(describeTikTokError('api')(envelope('something_new')).kind).toBeUndefined();
  });
});

describe('TikTok OAuth errors', () => {
  const body = {
    error: 'invalid_grant',
    error_description: 'Refresh token is invalid or expired.',
    log_id: 'L',
  };
  it('makes a refused refresh a reconnect and a refused code a failed sign-in', () => {
    expect(describeTikTokError('refresh')(body)).toEqual({
      kind: 'reauth',
      code: 'invalid_grant',
      message: 'Refresh token is invalid or expired.',
    });
    expect(describeTikTokError('code')(body).kind).toBe('bad_request');
  });
  it('blames Herald’s credentials and outages, not the account', () => {
    expect(describeTikTokError('refresh')({ error: 'invalid_client' }).kind).toBe('bad_request');
    expect(describeTikTokError('refresh')({ error: 'server_error' }).kind).toBe('transient');
  });
});

describe('TikTok errors that arrive with HTTP 200', () => {
  const api = (body: unknown, status = 200) =>
    createTikTokApi({
      clientId: 'key',
      clientSecret: 'secret',
      urls: { authorizeUrl: 'https://tiktok.test/auth', apiBase: 'https://open.tiktok.test' },
      http: async () => new Response(JSON.stringify(body), { status }),
    });

  it('still fails the call, with TikTok’s words', async () => {
    const err = await api(envelope('access_token_invalid', 'The access token is invalid.'))
      .getUser('t', ['open_id'])
      .catch((e: unknown) => e as PlatformError);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({
      kind: 'reauth',
      message: 'TikTok said: The access token is invalid.',
      details: { status: 200, code: 'access_token_invalid' },
    });
  });

  it('catches an OAuth error in a 200 token answer', async () => {
    const err = await api({
      error: 'invalid_grant',
      error_description: 'Authorization code is expired.',
    })
      .exchangeCode({ code: 'c', redirectUri: 'https://herald.test/cb' })
      .catch((e: unknown) => e as PlatformError);
    expect(err).toMatchObject({
      kind: 'bad_request',
      message: 'TikTok said: Authorization code is expired.',
    });
  });

  it('passes a success envelope through', async () => {
    const user = await api({
      data: { user: { open_id: 'o1', display_name: 'D' } },
      error: { code: 'ok', message: '' },
    }).getUser('t', ['open_id']);
    expect(user).toEqual({ open_id: 'o1', display_name: 'D' });
  });

  it('maps HTTP failures with the envelope too', async () => {
    const err = await api(envelope('rate_limit_exceeded', 'Too many requests.'), 429)
      .getUser('t', ['open_id'])
      .catch((e: unknown) => e as PlatformError);
    expect(err).toMatchObject({ kind: 'rate_limited', details: { status: 429 } });
  });
});
