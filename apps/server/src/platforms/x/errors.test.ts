import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import { withRateLimitReset } from './api.js';
import { describeXApiError, describeXTokenError } from './errors.js';

const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

async function failure(status: number, body: unknown, headers: Record<string, string> = {}) {
  const err = await requestJson(
    withRateLimitReset(answer(status, body, headers)),
    'X',
    'https://api.x.com/2/tweets',
    {},
    describeXApiError,
  ).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

describe('X API errors', () => {
  it('sends a 401 problem to reauth, quoting X', async () => {
    const err = await failure(401, {
      title: 'Unauthorized',
      type: 'about:blank',
      status: 401,
      detail: 'Unauthorized',
    });
    expect(err).toMatchObject({
      kind: 'reauth',
      message: 'X said: Unauthorized',
      details: { status: 401 },
    });
  });

  it('reads the wait of a 429 from x-rate-limit-reset', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 600);
    const err = await failure(
      429,
      { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      { 'x-rate-limit-reset': reset },
    );
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBeGreaterThanOrEqual(598);
    expect(err.details.retryAfterSeconds).toBeLessThanOrEqual(601);
  });

  it('waits for an exhausted 24-hour cap (user or app), not the 15-minute window', async () => {
    const now = Math.floor(Date.now() / 1000);
    const body = { title: 'Too Many Requests', detail: 'Too Many Requests', status: 429 };
    const window = { 'x-rate-limit-remaining': '40', 'x-rate-limit-reset': String(now + 600) };
    const user = await failure(429, body, {
      ...window,
      'x-user-limit-24hour-remaining': '0',
      'x-user-limit-24hour-reset': String(now + 20_000),
      'x-app-limit-24hour-remaining': '500',
      'x-app-limit-24hour-reset': String(now + 50_000),
    });
    expect(user.details.retryAfterSeconds).toBeGreaterThanOrEqual(19_998);
    expect(user.details.retryAfterSeconds).toBeLessThanOrEqual(20_001);
    const app = await failure(429, body, {
      ...window,
      'x-app-limit-24hour-remaining': '0',
      'x-app-limit-24hour-reset': String(now + 50_000),
    });
    expect(app.details.retryAfterSeconds).toBeGreaterThanOrEqual(49_998);
  });

  it('treats usage caps as rate limits even without a 429', () => {
    expect(
      describeXApiError({
        title: 'Usage cap exceeded',
        detail: 'Monthly product cap',
        type: 'https://api.x.com/2/problems/usage-capped',
        status: 403,
      }),
    ).toEqual({
      kind: 'rate_limited',
      message: 'Usage cap exceeded: Monthly product cap',
      code: 'usage-capped',
    });
  });

  it('treats a 403 (duplicate, not enrolled, not summoned) as a request to fix, not a reconnect', async () => {
    const duplicate = await failure(403, {
      title: 'Forbidden',
      detail: 'You are not allowed to create a Tweet with duplicate content.',
      type: 'about:blank',
      status: 403,
    });
    expect(duplicate.kind).toBe('bad_request');
    expect(duplicate.message).toContain('duplicate content');
    expect(
      describeXApiError({
        title: 'Client Forbidden',
        type: 'https://api.x.com/2/problems/client-forbidden',
      }).kind,
    ).toBe('bad_request');
  });

  it('reads problems nested in errors[] and older numeric codes', () => {
    expect(
      describeXApiError({
        errors: [
          {
            title: 'Not Found Error',
            detail: 'Could not find user',
            type: 'https://api.x.com/2/problems/resource-not-found',
          },
        ],
      }),
    ).toEqual({
      kind: 'bad_request',
      message: 'Not Found Error: Could not find user',
      code: 'resource-not-found',
    });
    expect(
      describeXApiError({ errors: [{ code: 89, message: 'Invalid or expired token.' }] }),
    ).toMatchObject({
      kind: 'reauth',
      message: 'Invalid or expired token.',
    });
  });

  it('falls back to the status for 5xx and unknown bodies', async () => {
    expect((await failure(503, { title: 'Service Unavailable', status: 503 })).kind).toBe(
      'transient',
    );
    expect((await failure(400, 'bad')).message).toBe('X said: bad');
  });
});

describe('X token endpoint errors', () => {
  const body = {
    error: 'invalid_request',
    error_description: 'Value passed for the token was invalid.',
  };

  it('makes a refused refresh a reconnect', () => {
    expect(describeXTokenError('refresh')(body)).toEqual({
      kind: 'reauth',
      code: 'invalid_request',
      message: 'Value passed for the token was invalid.',
    });
    expect(describeXTokenError('refresh')({ error: 'invalid_grant' }).kind).toBe('reauth');
  });

  it('makes a refused code a failed sign-in to retry', () => {
    expect(describeXTokenError('code')(body).kind).toBe('bad_request');
  });

  it('blames Herald’s credentials, and outages, not the account', () => {
    for (const request of ['code', 'refresh', 'revoke'] as const) {
      expect(describeXTokenError(request)({ error: 'unauthorized_client' }).kind).toBe(
        'bad_request',
      );
      expect(describeXTokenError(request)({ error: 'temporarily_unavailable' }).kind).toBe(
        'transient',
      );
    }
  });
});
