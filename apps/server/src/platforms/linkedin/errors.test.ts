import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import { describeLinkedInError, linkedInErrorKind } from './errors.js';

const answer = (status: number, body: unknown) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('LinkedIn error mapping', () => {
  it('classifies by status: 401 reauth, 429 rate_limited, 5xx transient, 422/426 bad_request', () => {
    expect(
      linkedInErrorKind(401, {
        message: 'Invalid access token',
        serviceErrorCode: 65600,
        status: 401,
      }),
    ).toBe('reauth');
    expect(linkedInErrorKind(429, { message: 'Too many requests', status: 429 })).toBe(
      'rate_limited',
    );
    expect(linkedInErrorKind(500, null)).toBe('transient');
    expect(linkedInErrorKind(503, null)).toBe('transient');
    expect(linkedInErrorKind(422, { message: 'duplicate', status: 422 })).toBe('bad_request');
    expect(linkedInErrorKind(426, { code: 'NONEXISTENT_VERSION', status: 426 })).toBe(
      'bad_request',
    );
    expect(linkedInErrorKind(400, { error: 'invalid_grant' })).toBe('reauth');
    expect(linkedInErrorKind(400, { error: 'invalid_request' })).toBe('bad_request');
  });

  it('keeps LinkedIn’s words and code', () => {
    expect(
      describeLinkedInError({
        message: 'Empty oauth2_access_token',
        serviceErrorCode: 401,
        status: 401,
      }),
    ).toEqual({
      message: 'Empty oauth2_access_token',
      code: 401,
    });
    expect(describeLinkedInError({ error: 'invalid_grant', error_description: 'gone' })).toEqual({
      message: 'gone',
      code: 'invalid_grant',
      kind: 'reauth',
    });
    expect(describeLinkedInError('not json')).toEqual({});
  });

  it('becomes a PlatformError through requestJson, honouring Retry-After', async () => {
    const http = async () =>
      new Response(JSON.stringify({ message: 'Resource level throttle', status: 429 }), {
        status: 429,
        headers: { 'retry-after': '30' },
      });
    const err = await requestJson(
      http,
      'LinkedIn',
      'https://api.linkedin.com/rest/posts',
      {},
      describeLinkedInError,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({
      kind: 'rate_limited',
      message: 'LinkedIn said: Resource level throttle',
      details: { retryAfterSeconds: 30 },
    });
    const revoked = await requestJson(
      answer(401, {
        message: 'The token used in the request has been revoked by the user',
        serviceErrorCode: 65601,
        status: 401,
      }),
      'LinkedIn',
      'https://api.linkedin.com/v2/userinfo',
      {},
      describeLinkedInError,
    ).catch((e) => e);
    expect(revoked).toMatchObject({ kind: 'reauth', details: { code: 65601, status: 401 } });
  });
});
