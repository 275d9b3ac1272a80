import { describe, expect, it } from 'vitest';
import { parseRange } from './http-range.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    [' bytes=5-5 ', { start: 5, end: 5 }],
  ])('reads %j against a 1000-byte file', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it.each(['bytes=1000-', 'bytes=1000-1200', 'bytes=-0'])(
    'calls %j unsatisfiable for a 1000-byte file',
    (header) => {
      expect(parseRange(header, 1000)).toBe('unsatisfiable');
    },
  );

  it.each([undefined, '', 'bytes=-', 'items=0-5', 'bytes=0-5,10-15', 'bytes=50-10', 'bytes=a-b'])(
    'ignores %j and serves the whole file',
    (header) => {
      expect(parseRange(header, 1000)).toBeNull();
    },
  );
});
