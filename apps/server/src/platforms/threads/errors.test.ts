import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import { describeThreadsError } from './errors.js';

const graph = (code: number, extra: Record<string, unknown> = {}) => ({
  error: { message: `error ${code}`, type: 'OAuthException', code, fbtrace_id: 'A1', ...extra },
});

describe('Threads (Graph) errors', () => {
  it.each([
    [190, 'reauth'],
    [102, 'reauth'],
    [10, 'reauth'],
    [200, 'reauth'],
    [299, 'reauth'],
    [4, 'rate_limited'],
    [17, 'rate_limited'],
    [613, 'rate_limited'],
    [1, 'transient'],
    [2, 'transient'],
    [3, 'bad_request'],
    [100, 'bad_request'],
    [101, 'bad_request'],
    [506, 'bad_request'],
  ])('code %i → %s', (code, kind) => {
    expect(describeThreadsError(graph(code))).toEqual({ message: `error ${code}`, kind, code });
  });

  it('refuses a policy block (368) with a sentence instead of waiting it out', () => {
    const d = describeThreadsError(graph(368));
    expect(d.kind).toBe('bad_request');
    expect(d.sentence).toMatch(/\(code 368\)\. Herald does not retry it/);
  });

  it('lets a subcode or is_transient decide when they say more', () => {
    expect(describeThreadsError(graph(9, { error_subcode: 2207042 })).kind).toBe('rate_limited');
    expect(describeThreadsError(graph(999, { is_transient: true })).kind).toBe('transient');
    expect(describeThreadsError(graph(999)).kind).toBeUndefined();
  });

  it('prefers the message written for users', () => {
    expect(
      describeThreadsError(graph(100, { error_user_msg: 'The text is too long.' })).message,
    ).toBe('The text is too long.');
  });

  it('reads the flat OAuth body', () => {
    expect(
      describeThreadsError({
        error_type: 'OAuthException',
        code: 400,
        error_message: 'Invalid authorization code',
      }),
    ).toEqual({ message: 'Invalid authorization code', kind: undefined, code: 'OAuthException' });
  });

  it('quotes Threads and falls back to the HTTP status', async () => {
    const call = (status: number, body: unknown) =>
      requestJson(
        async () => new Response(JSON.stringify(body), { status }),
        'Threads',
        'https://graph.threads.net/v1.0/me',
        {},
        describeThreadsError,
      ).catch((e: unknown) => e as PlatformError);
    const expired = await call(
      400,
      graph(190, {
        message: 'Error validating access token: Session has expired.',
        error_subcode: 463,
      }),
    );
    expect(expired).toBeInstanceOf(PlatformError);
    expect(expired).toMatchObject({
      kind: 'reauth',
      message: 'Threads said: Error validating access token: Session has expired.',
      details: { status: 400, code: 190 },
    });
    expect(await call(503, graph(999))).toMatchObject({ kind: 'transient' });
    expect(await call(429, 'slow down')).toMatchObject({
      kind: 'rate_limited',
      message: 'Threads said: slow down',
    });
  });
});
