import { describe, expect, it } from 'vitest';
import { nextWaitSeconds, RETRY_DELAYS_SECONDS, retryAfterSeconds } from './delivery.js';

const now = new Date('2026-12-02T12:00:00Z');

describe('the wait after a failed webhook attempt', () => {
  it('draws each scheduled wait within ±20 % of it', () => {
    expect(nextWaitSeconds(1, { statusCode: 500 }, now, () => 0)).toBe(4);
    expect(nextWaitSeconds(1, { statusCode: 500 }, now, () => 0.5)).toBe(5);
    expect(nextWaitSeconds(2, { statusCode: 500 }, now, () => 0.999999)).toBeCloseTo(360, 2);
    // Two receivers failing together come back apart.
    const a = nextWaitSeconds(3, { statusCode: null }, now, () => 0.1)!;
    const b = nextWaitSeconds(3, { statusCode: null }, now, () => 0.9)!;
    expect(b - a).toBeCloseTo(0.8 * 0.4 * 30 * 60, 5);
  });

  it('gives up after the schedule’s last wait', () => {
    expect(nextWaitSeconds(RETRY_DELAYS_SECONDS.length + 1, { statusCode: 500 }, now)).toBe(
      undefined,
    );
    // A receiver asking for more time does not add attempts.
    const last = RETRY_DELAYS_SECONDS.length + 1;
    expect(nextWaitSeconds(last, { statusCode: 429, retryAfter: '60' }, now)).toBe(undefined);
  });

  it('reads Retry-After as seconds or as an HTTP date, and nothing else', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 7 ', now)).toBe(7);
    expect(retryAfterSeconds('Wed, 02 Dec 2026 12:10:00 GMT', now)).toBe(600);
    // A date already past asks for no wait.
    expect(retryAfterSeconds('Wed, 02 Dec 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds('-5', now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
  });
});
