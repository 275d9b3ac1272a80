import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

/** A load the test settles by hand, counting how often it was started. */
function manualLoads<V>() {
  const started: Array<(value: V | null) => void> = [];
  return {
    started,
    load: () => new Promise<V | null>((resolve) => started.push(resolve)),
  };
}

describe('TtlCache', () => {
  it('keeps an answer for its time, then loads it again', async () => {
    let now = 0;
    const cache = new TtlCache<string, number>(1000, 10, () => now);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    now = 400;
    expect(await cache.get('a', load)).toBe(1);
    expect(loads).toBe(1);
    // Not asked in the second half of its life: it expires, and the next caller loads it.
    now = 1000;
    expect(await cache.get('a', load)).toBe(2);
    // `until` shortens an entry's life.
    expect(await cache.get('b', load, { until: () => now + 10 })).toBe(3);
    now = 1010;
    expect(await cache.get('b', load)).toBe(4);
  });

  it('reads an entry again in the background in the second half of its life, answering it meanwhile', async () => {
    let now = 0;
    const cache = new TtlCache<string, string>(1000, 10, () => now);
    const loads = manualLoads<string>();
    const first = cache.get('k', loads.load);
    loads.started[0]!('first');
    expect(await first).toBe('first');

    now = 600;
    // Answered at once, and read again once however many ask meanwhile.
    expect(await cache.get('k', loads.load)).toBe('first');
    expect(await cache.get('k', loads.load)).toBe('first');
    expect(loads.started).toHaveLength(2);
    loads.started[1]!('second');
    await Promise.resolve();
    await Promise.resolve();
    // The new answer lives from when it was read (600): at 1,500 the first would have expired.
    now = 1500;
    expect(await cache.get('k', loads.load)).toBe('second');

    // That was in the second half of its life too. A background read that answers null (a
    // revoked session) removes the entry.
    expect(loads.started).toHaveLength(3);
    loads.started[2]!(null);
    await Promise.resolve();
    await Promise.resolve();
    const after = cache.get('k', loads.load);
    expect(loads.started).toHaveLength(4);
    loads.started[3]!('fourth');
    expect(await after).toBe('fourth');
  });

  it('keeps an entry whose background read failed until it expires', async () => {
    let now = 0;
    const cache = new TtlCache<string, string>(1000, 10, () => now);
    expect(await cache.get('k', async () => 'kept')).toBe('kept');
    now = 700;
    let failures = 0;
    const failing = () => {
      failures++;
      return Promise.reject(new Error('database unavailable'));
    };
    expect(await cache.get('k', failing)).toBe('kept');
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toBe(1);
    now = 999;
    expect(await cache.get('k', failing)).toBe('kept');
    await new Promise((resolve) => setImmediate(resolve));
    now = 1000;
    await expect(cache.get('k', failing)).rejects.toThrow('database unavailable');
  });

  it('gives callers that miss together one load', async () => {
    const cache = new TtlCache<string, string>(1000, 10);
    const loads = manualLoads<string>();
    const answers = Promise.all([1, 2, 3].map(() => cache.get('k', loads.load)));
    expect(loads.started).toHaveLength(1);
    loads.started[0]!('value');
    expect(await answers).toEqual(['value', 'value', 'value']);
    // Stored once loaded: the next caller does not load.
    expect(await cache.get('k', loads.load)).toBe('value');
    expect(loads.started).toHaveLength(1);
  });

  it('shares a failed load with the callers waiting for it, and keeps nothing', async () => {
    const cache = new TtlCache<string, string>(1000, 10);
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('database unavailable'));
    };
    const results = await Promise.allSettled([cache.get('k', failing), cache.get('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    expect(await cache.get('k', async () => 'later')).toBe('later');
  });

  it('does not hand a caller after clear() a load started before it, nor store that load', async () => {
    const cache = new TtlCache<string, string>(1000, 10);
    const before = manualLoads<string>();
    const first = cache.get('k', before.load);
    cache.clear();
    const after = manualLoads<string>();
    const second = cache.get('k', after.load);
    expect(after.started).toHaveLength(1);
    // The read from before the change answers last: it must not replace the newer one.
    after.started[0]!('read after the change');
    expect(await second).toBe('read after the change');
    before.started[0]!('read before the change');
    expect(await first).toBe('read before the change');
    expect(await cache.get('k', async () => 'not asked')).toBe('read after the change');
  });

  it('loads again after delete() instead of waiting for the load in flight', async () => {
    const cache = new TtlCache<string, string>(1000, 10);
    const loads = manualLoads<string>();
    const first = cache.get('k', loads.load);
    cache.delete('k');
    const second = cache.get('k', loads.load);
    expect(loads.started).toHaveLength(2);
    // The load from before delete() answers its caller, last, and is not kept.
    loads.started[1]!('new');
    expect(await second).toBe('new');
    loads.started[0]!('old');
    expect(await first).toBe('old');
    expect(await cache.get('k', async () => 'not asked')).toBe('new');
  });

  it('counts an answer from when its read started, not from when it came', async () => {
    let now = 600;
    const cache = new TtlCache<string, string>(1000, 10, () => now);
    const loads = manualLoads<string>();
    const answer = cache.get('k', loads.load);
    now = 900;
    loads.started[0]!('read at 600');
    expect(await answer).toBe('read at 600');
    now = 1000;
    expect(await cache.get('k', async () => 'not asked')).toBe('read at 600');
    // Read at 600, it expires at 1,600 (were it counted from 900, it would still be answered).
    now = 1600;
    expect(await cache.get('k', async () => 'read at 1600')).toBe('read at 1600');
  });

  it('does not share a load between scopes (a transaction and the rest)', async () => {
    const cache = new TtlCache<string, string>(1000, 10);
    const outside = manualLoads<string>();
    const inside = manualLoads<string>();
    const tx = {};
    const fromOutside = cache.get('k', outside.load, { scope: 'db' });
    // The transaction's caller loads for itself, and answers before the load outside it settles.
    const fromInside = cache.get('k', inside.load, { scope: tx });
    expect(inside.started).toHaveLength(1);
    inside.started[0]!('inside');
    expect(await fromInside).toBe('inside');
    outside.started[0]!('outside');
    expect(await fromOutside).toBe('outside');
    // A caller in a transaction never reads in the background: the transaction may have ended.
    let now = 0;
    const timed = new TtlCache<string, string>(1000, 10, () => now);
    expect(await timed.get('k', async () => 'stored')).toBe('stored');
    now = 800;
    let reads = 0;
    const read = async () => {
      reads++;
      return 'again';
    };
    expect(await timed.get('k', read, { scope: tx })).toBe('stored');
    expect(reads).toBe(0);
    expect(await timed.get('k', read)).toBe('stored');
    expect(reads).toBe(1);

    // A caller of the same scope as a load in flight waits for it.
    const shared = manualLoads<string>();
    cache.delete('k');
    const a = cache.get('k', shared.load, { scope: 'db' });
    const b = cache.get('k', shared.load, { scope: 'db' });
    expect(shared.started).toHaveLength(1);
    shared.started[0]!('once');
    expect([await a, await b]).toEqual(['once', 'once']);
  });

  it('stores nothing for a null answer', async () => {
    const cache = new TtlCache<string, string>(1000, 10);
    let loads = 0;
    const load = async () => {
      loads++;
      return null;
    };
    expect(await cache.get('k', load)).toBeNull();
    expect(await cache.get('k', load)).toBeNull();
    expect(loads).toBe(2);
  });

  it('makes room by forgetting the expired entries, else the one read longest ago', async () => {
    let now = 0;
    const cache = new TtlCache<string, string>(1000, 2, () => now);
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    await cache.get('c', async () => 'c');
    expect(await cache.get('a', async () => 'a again')).toBe('a again');
    expect(await cache.get('c', async () => 'not asked')).toBe('c');

    // 'c' is asked for all the time and read again in the background; 'a' is not. A new key
    // makes room by forgetting 'a', not the busy one.
    now = 600;
    expect(await cache.get('c', async () => 'c again')).toBe('c');
    await new Promise((resolve) => setImmediate(resolve));
    now = 700;
    await cache.get('d', async () => 'd');
    expect(await cache.get('c', async () => 'not asked')).toBe('c again');

    // Expired entries go first, whatever their age.
    now = 1650;
    await cache.get('e', async () => 'e');
    expect(await cache.get('d', async () => 'not asked')).toBe('d');
  });
});
