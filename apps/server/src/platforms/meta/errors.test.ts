import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import { describeMetaError, isMetaTokenRejected, metaErrorKind } from './errors.js';

const graphError = (code: number, subcode?: number, extra: Record<string, unknown> = {}) => ({
  error: {
    message: `(#${code}) something`,
    type: 'OAuthException',
    code,
    error_subcode: subcode,
    fbtrace_id: 'A1',
    ...extra,
  },
});

describe('Meta Graph error mapping', () => {
  it('maps dead tokens and missing permissions to reauth', () => {
    expect(metaErrorKind(190)).toBe('reauth');
    expect(metaErrorKind(190, 463)).toBe('reauth');
    expect(metaErrorKind(190, 460)).toBe('reauth');
    expect(metaErrorKind(102)).toBe('reauth');
    expect(metaErrorKind(10)).toBe('reauth');
    expect(metaErrorKind(200)).toBe('reauth');
  });

  it('maps throttling to rate_limited, 1/2 to transient and the rest to bad_request', () => {
    for (const code of [4, 17, 32, 613, 341, 368]) expect(metaErrorKind(code)).toBe('rate_limited');
    expect(metaErrorKind(9, 2207042)).toBe('rate_limited');
    expect(metaErrorKind(1)).toBe('transient');
    expect(metaErrorKind(2)).toBe('transient');
    expect(metaErrorKind(9007, 2207027)).toBe('transient');
    expect(metaErrorKind(368, 1390008)).toBe('rate_limited');
    for (const code of [100, 506, 3, 9004]) expect(metaErrorKind(code)).toBe('bad_request');
  });

  it('treats Instagram’s “try again” subcodes and any is_transient error as transient', () => {
    expect(describeMetaError(graphError(-1, 2207001)).kind).toBe('transient');
    expect(describeMetaError(graphError(-2, 2207003)).kind).toBe('transient');
    expect(describeMetaError(graphError(-1, 2207032)).kind).toBe('transient');
    expect(describeMetaError(graphError(-1, 2207053)).kind).toBe('transient');
    expect(describeMetaError(graphError(36000, 999, { is_transient: true })).kind).toBe(
      'transient',
    );
    // A container that expired needs a new one: trying the same call again cannot work.
    expect(describeMetaError(graphError(-2, 2207020)).kind).toBe('bad_request');
    expect(describeMetaError(graphError(36000, 2207004, { is_transient: false })).kind).toBe(
      'bad_request',
    );
  });

  it('keeps Meta’s words, preferring the user-facing message', () => {
    expect(
      describeMetaError(graphError(506, undefined, { error_user_msg: 'Duplicate status message' })),
    ).toEqual({
      message: 'Duplicate status message',
      kind: 'bad_request',
      code: 506,
    });
    expect(describeMetaError(graphError(4))).toMatchObject({
      kind: 'rate_limited',
      message: '(#4) something',
    });
    expect(describeMetaError({ nope: true })).toEqual({});
    expect(describeMetaError(null)).toEqual({});
  });

  it('becomes a PlatformError through requestJson', async () => {
    const http = async () => new Response(JSON.stringify(graphError(190, 463)), { status: 400 });
    const err = await requestJson(
      http,
      'Facebook',
      'https://graph.facebook.com/v24.0/me',
      {},
      describeMetaError,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({
      kind: 'reauth',
      message: 'Facebook said: (#190) something',
      details: { status: 400, code: 190 },
    });
    expect(isMetaTokenRejected(err)).toBe(true);
    const throttled = await requestJson<never>(
      async () => new Response(JSON.stringify(graphError(613)), { status: 400 }),
      'Instagram',
      'https://graph.facebook.com/v24.0/me',
      {},
      describeMetaError,
    ).catch((e: PlatformError) => e);
    expect(throttled.kind).toBe('rate_limited');
    expect(isMetaTokenRejected(throttled)).toBe(false);
  });
});
