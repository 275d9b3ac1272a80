import { describe, expect, it } from 'vitest';
import { derivePostStatus, type TargetState } from './post-status.js';

const now = new Date('2026-03-10T12:00:00Z');
const tomorrow = new Date('2026-03-11T09:00:00Z');
const dayAfter = new Date('2026-03-12T09:00:00Z');
const earlier = new Date('2026-03-10T11:00:00Z');
const out = (at = earlier): TargetState => ({ status: 'PUBLISHED', dueAt: null, publishedAt: at });
const queued = (dueAt: Date | null): TargetState => ({
  status: 'QUEUED',
  dueAt,
  publishedAt: null,
});
const of = (status: TargetState['status']): TargetState => ({
  status,
  dueAt: null,
  publishedAt: null,
});

describe('derivePostStatus (docs/product.md#post-statuses)', () => {
  it('reads published when every network has it, at the last publication', () => {
    const last = new Date('2026-03-10T11:30:00Z');
    expect(derivePostStatus([out(), out(last)], now)).toEqual({
      status: 'published',
      publishedAt: last,
      nextAt: null,
    });
  });

  it('reads partially published with the next time when others wait for later', () => {
    expect(derivePostStatus([out(), queued(dayAfter), queued(tomorrow)], now)).toEqual({
      status: 'partially_published',
      publishedAt: null,
      nextAt: tomorrow,
    });
  });

  it('reads partially published, out at its publication, when the rest failed or needs a check', () => {
    expect(derivePostStatus([out(), of('FAILED')], now)).toMatchObject({
      status: 'partially_published',
      publishedAt: earlier,
    });
    expect(derivePostStatus([out(), of('UNCERTAIN')], now).status).toBe('partially_published');
  });

  it('reads publishing while any target is worked on, or queued and already due', () => {
    for (const busy of ['PREPARING', 'READY', 'PUBLISHING'] as const) {
      expect(derivePostStatus([out(), of(busy), queued(tomorrow)], now).status).toBe('publishing');
    }
    expect(derivePostStatus([out(), queued(earlier)], now).status).toBe('publishing');
  });

  it('reads scheduled while nothing is out and something waits; failed when all failed', () => {
    expect(derivePostStatus([of('FAILED'), queued(tomorrow)], now)).toMatchObject({
      status: 'scheduled',
      nextAt: tomorrow,
    });
    expect(derivePostStatus([of('FAILED'), of('UNCERTAIN')], now).status).toBe('failed');
    expect(derivePostStatus([of('FAILED'), queued(null)], now).status).toBe('draft');
  });
});
