import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import {
  businessUseCaseWaitSeconds,
  describeMetaError,
  isMetaTokenRejected,
  metaErrorKind,
} from './errors.js';

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
    for (const code of [4, 17, 32, 613, 341, 80001, 80002])
      expect(metaErrorKind(code)).toBe('rate_limited');
    expect(metaErrorKind(9, 2207042)).toBe('rate_limited');
    expect(metaErrorKind(1)).toBe('transient');
    expect(metaErrorKind(2)).toBe('transient');
    expect(metaErrorKind(9007, 2207027)).toBe('transient');
    // A policy block is a refusal to read, whatever its subcode: retrying on a timer repeats it.
    expect(metaErrorKind(368)).toBe('bad_request');
    expect(metaErrorKind(368, 1390008)).toBe('bad_request');
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

  it('says what a policy block (368) means and what to do, in Meta’s words too', () => {
    const d = describeMetaError(
      graphError(368, undefined, { error_user_msg: 'You are temporarily blocked from posting.' }),
    );
    expect(d.kind).toBe('bad_request');
    expect(d.sentence).toMatch(/^Meta has temporarily blocked this account .* \(code 368\)\./);
    expect(d.sentence).toMatch(/Meta said: You are temporarily blocked from posting\.$/);
  });

  it('reads the wait of a Business Use Case throttle from X-Business-Use-Case-Usage (minutes)', () => {
    const headers = new Headers({
      'x-business-use-case-usage': JSON.stringify({
        '1784': [{ type: 'instagram', call_count: 100, estimated_time_to_regain_access: 3 }],
        '1785': [{ type: 'pages', call_count: 40, estimated_time_to_regain_access: 12 }],
      }),
    });
    expect(businessUseCaseWaitSeconds(headers)).toBe(720);
    expect(describeMetaError(graphError(80002), headers)).toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 720,
    });
    // Nothing to wait for, or no header: the engine's own backoff decides.
    const idle = new Headers({
      'x-business-use-case-usage': JSON.stringify({
        '1': [{ estimated_time_to_regain_access: 0 }],
      }),
    });
    expect(describeMetaError(graphError(4), idle).retryAfterSeconds).toBeUndefined();
    expect(businessUseCaseWaitSeconds(new Headers({ 'x-business-use-case-usage': 'nope' }))).toBe(
      undefined,
    );
    // Only a throttle waits: a bad request with the header is still just refused.
    expect(describeMetaError(graphError(100), headers).retryAfterSeconds).toBeUndefined();
  });
});
