import { describe, expect, it } from 'vitest';
import {
  MAX_NETWORK_TEXT,
  pageReachesBefore,
  PlatformError,
  userFacingNetworkText,
} from './errors.js';

describe('what a person reads of a network error', () => {
  it('keeps the network’s own sentence', () => {
    const error = new PlatformError(
      'bad_request',
      'X refused the post: Your Tweet text is too long.',
    );
    expect(error.message).toBe('X refused the post: Your Tweet text is too long.');
  });

  it('never shows SQL or a stack trace', () => {
    expect(
      userFacingNetworkText(
        'Threads refused the post: error: insert into "emu_state" ("key") values ($1) - duplicate key value violates unique constraint "emu_state_pkey"',
      ),
    ).toBe('Threads refused the post: it answered with an internal error instead of a message.');
    const stacked = userFacingNetworkText(
      'TikTok failed: TypeError: x is undefined\n    at handler (/srv/app/routes.js:12:7)\n    at next (/srv/app/x.js:1:1)',
    );
    expect(stacked).not.toMatch(/routes\.js|at handler/);
    expect(stacked).toMatch(/^TikTok failed/);
    expect(userFacingNetworkText('relation "users" does not exist at character 15')).not.toMatch(
      /users/,
    );
  });

  it('fits on one line and in a bounded length', () => {
    const long = userFacingNetworkText(`LinkedIn said: ${'very '.repeat(200)}long\nsecond line`);
    expect(long.length).toBeLessThanOrEqual(MAX_NETWORK_TEXT);
    expect(long).not.toContain('\n');
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('pageReachesBefore', () => {
  const start = Date.parse('2026-12-03T09:00:00Z');
  const at = (iso: string) => Date.parse(`2026-12-03T${iso}Z`);

  it('rules the attempt out on a newest-first page that reaches back past its start', () => {
    expect(pageReachesBefore([at('09:30:00'), at('09:10:00'), at('08:59:00')], start)).toBe(true);
  });

  it('rules nothing out on a page that stops short, is in its own order, or has no times', () => {
    expect(pageReachesBefore([at('09:30:00'), at('09:10:00')], start)).toBe(false);
    expect(pageReachesBefore([at('08:00:00'), at('09:30:00'), at('08:59:00')], start)).toBe(false);
    expect(pageReachesBefore([at('09:30:00'), Number.NaN, at('08:00:00')], start)).toBe(false);
    expect(pageReachesBefore([], start)).toBe(false);
  });
});
