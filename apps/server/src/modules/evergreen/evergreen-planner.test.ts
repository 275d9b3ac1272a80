import { describe, expect, it } from 'vitest';
import { hasEnded, planFills, type PlannerCollection } from './evergreen-planner.js';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.parse('2030-01-07T00:00:00Z');
/** 09:00 and 17:00 for `days` days from T0. */
const slots = (days: number) =>
  Array.from({ length: days }, (_, d) => [T0 + d * D + 9 * H, T0 + d * D + 17 * H]).flat();

const collection = (over: Partial<PlannerCollection> & { id: string }): PlannerCollection => ({
  name: over.id,
  integrationIds: ['a'],
  minDaysBetween: 1,
  endAfterCycles: null,
  endAt: null,
  createdAt: 0,
  posts: [],
  ...over,
});
const post = (postId: string, position: number, publishedAt: number | null = null) => ({
  postId,
  position,
  label: postId,
  publishedAt,
});

describe('planFills', () => {
  it('takes turns between collections on the same accounts, the one filled longest ago first', () => {
    const plan = planFills({
      collections: [
        collection({ id: 'c1', createdAt: 1, posts: [post('p1', 0), post('p2', 1)] }),
        collection({ id: 'c2', createdAt: 2, posts: [post('q1', 0)] }),
      ],
      fills: [],
      slotTimes: new Map([['a', slots(2)]]),
      occupied: new Map([['a', new Set([T0 + 17 * H])]]),
    });
    expect(plan.map((f) => [(f.at - T0) / H, f.postId])).toEqual([
      [9, 'p1'],
      // 17:00 on the first day is taken by another post.
      [33, 'q1'],
      [41, 'p2'],
    ]);
  });

  it('uses only slots every account of the collection has, and none after its end date', () => {
    const plan = planFills({
      collections: [
        collection({
          id: 'c',
          integrationIds: ['a', 'b'],
          minDaysBetween: 1,
          endAt: T0 + D + 10 * H,
          posts: [post('p', 0), post('r', 1)],
        }),
      ],
      fills: [],
      slotTimes: new Map([
        ['a', slots(3)],
        ['b', [T0 + 9 * H, T0 + D + 9 * H, T0 + 2 * D + 9 * H]],
      ]),
      occupied: new Map(),
    });
    expect(plan.map((f) => [(f.at - T0) / H, f.postId])).toEqual([
      [9, 'p'],
      [33, 'r'],
    ]);
  });

  it('keeps a post N days from its own publication and from earlier copies, and skips what it is told to', () => {
    const plan = planFills({
      collections: [
        collection({
          id: 'c',
          minDaysBetween: 2,
          posts: [post('old', 0, T0 - D), post('used', 1), post('skipped', 2)],
        }),
      ],
      fills: [{ collectionId: 'c', sourcePostId: 'used', slotAt: T0 - 12 * H }],
      slotTimes: new Map([['a', slots(2)]]),
      occupied: new Map(),
      skip: new Set(['c:skipped']),
    });
    // "old" went out a day before T0 and "used" 12 hours before: each waits until 2 days passed.
    expect(plan.map((f) => [(f.at - T0) / H, f.postId])).toEqual([
      [33, 'old'],
      [41, 'used'],
    ]);
  });

  it('says a collection has ended once every post went out endAfterCycles times', () => {
    const c = collection({ id: 'c', endAfterCycles: 1, posts: [post('p', 0), post('q', 1)] });
    const one = [{ collectionId: 'c', sourcePostId: 'p', slotAt: T0 }];
    expect(hasEnded(c, one, T0)).toBe(false);
    expect(
      hasEnded(c, [...one, { collectionId: 'c', sourcePostId: 'q', slotAt: T0 + H }], T0),
    ).toBe(true);
    expect(hasEnded({ ...c, endAfterCycles: null, endAt: T0 }, [], T0 + 1)).toBe(true);
  });
});
