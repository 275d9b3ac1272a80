import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { describeThreadsError } from './errors.js';
import {
  asUnknownOutcome,
  containerFailure,
  graphTimeMs,
  textProblem,
  threadsTextLength,
} from './publish-rules.js';

describe('Threads publishing rules', () => {
  it('counts an emoji as its UTF-8 bytes and everything else as one', () => {
    expect(threadsTextLength('héllo')).toBe(5);
    expect(threadsTextLength('👋')).toBe(4);
    expect(textProblem('a'.repeat(500))).toBeNull();
    expect(textProblem('a'.repeat(497) + '👋')).toContain('501 characters');
  });

  it('turns only unclear publish failures into unknown_outcome', () => {
    const err = (status: number | undefined, code?: number) =>
      new PlatformError('transient', 'x', { status, code });
    expect((asUnknownOutcome(err(undefined)) as PlatformError).kind).toBe('unknown_outcome');
    expect((asUnknownOutcome(err(500)) as PlatformError).kind).toBe('unknown_outcome');
    expect((asUnknownOutcome(err(400, 2)) as PlatformError).kind).toBe('unknown_outcome');
    // "Not ready yet" (9007) is a clear refusal: nothing was published.
    expect((asUnknownOutcome(err(400, 9007)) as PlatformError).kind).toBe('transient');
    const quota = new PlatformError('rate_limited', 'cap', { status: 400, code: 4 });
    expect(asUnknownOutcome(quota)).toBe(quota);
  });

  it('keeps Threads’ own words for a failed container', () => {
    expect(
      containerFailure({ id: '1', status: 'ERROR', error_message: 'INVALID_DURATION' }, 'Item 2'),
    ).toBe(
      'Item 2: Threads does not accept the length of the video. (Threads said: INVALID_DURATION)',
    );
    expect(containerFailure({ id: '1', status: 'EXPIRED' }, 'The media')).toContain('24 hours');
  });

  it('reads Graph timestamps with a +0000 offset', () => {
    expect(graphTimeMs('2026-01-02T03:04:05+0000')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(graphTimeMs(undefined)).toBeNull();
  });

  it('classes the publishing errors of the Graph host', () => {
    const graph = (code: number, subcode?: number) => ({
      error: { message: 'm', code, ...(subcode ? { error_subcode: subcode } : {}) },
    });
    expect(describeThreadsError(graph(9007, 2207027)).kind).toBe('transient');
    expect(describeThreadsError(graph(9004, 2207052)).kind).toBe('bad_request');
    expect(describeThreadsError(graph(4, 2207042)).kind).toBe('rate_limited');
  });
});
