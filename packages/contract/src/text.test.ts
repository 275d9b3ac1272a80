import { describe, expect, it } from 'vitest';
import { containsNul } from './text.js';

describe('containsNul', () => {
  it('finds NUL in any string of a JSON value, keys included', () => {
    expect(containsNul({ a: ['ok', { b: 'x\u0000y' }] })).toBe(true);
    expect(containsNul({ 'k\u0000': 1 })).toBe(true);
    expect(containsNul({ a: ['ok', { b: 'xy' }], n: 1, z: null })).toBe(false);
  });

  it('leaves bytes alone: a raw body or a file is not text', () => {
    expect(containsNul(Buffer.from([0x7b, 0x00, 0x7d]))).toBe(false);
    expect(containsNul(new Uint8Array([0, 0, 0]))).toBe(false);
  });
});
