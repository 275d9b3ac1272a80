/**
 * A small in-memory cache whose entries live at most `ttlMs`, for answers that every request
 * asks again (who is behind this access token, what may this member do). `clear()` forgets
 * everything at once and also voids the loads in flight when it is called, so an answer read
 * before a change cannot be stored after it.
 *
 * Callers that miss the same key at the same time share one load: when an entry expired under
 * load, each of the ten requests in flight used to read it again, one after the other on the
 * embedded database, which made a periodic 60–80 ms stall of every request (issue 20).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  private readonly loading = new Map<K, Loading<V>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached value of `key`, else `load()`'s, kept when it is not null and no `clear()` came
   * in between. `until(value)` (a time on the cache's clock) may shorten the entry's life, e.g.
   * to the expiry of the token it was read for.
   *
   * A load of `key` already in flight is awaited instead of starting another, if it was started
   * after the last `clear()` with the same `scope`. A caller inside a database transaction
   * passes its transaction as the scope: a load outside the transaction may be waiting for it to
   * end (the embedded database runs one statement at a time), and awaiting that load in the
   * transaction would never end.
   */
  async get(
    key: K,
    load: () => Promise<V | null>,
    { until = () => Infinity, scope }: { until?: (value: V) => number; scope?: unknown } = {},
  ): Promise<V | null> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.entries.delete(key);
    const pending = this.loading.get(key);
    if (pending && pending.generation === this.generation && pending.scope === scope)
      return pending.value;
    const generation = this.generation;
    const loading: Loading<V> = {
      generation,
      scope,
      value: load().then((value) => {
        if (value !== null && generation === this.generation) this.store(key, value, now, until);
        return value;
      }),
    };
    this.loading.set(key, loading);
    try {
      return await loading.value;
    } finally {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    }
  }

  private store(key: K, value: V, now: number, until: (value: V) => number) {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: Math.min(now + this.ttlMs, until(value)) });
  }

  /**
   * Forgets one entry; the next `get` loads it again rather than awaiting a load in flight (which
   * may still store its value).
   */
  delete(key: K): void {
    this.entries.delete(key);
    this.loading.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}

interface Loading<V> {
  generation: number;
  scope: unknown;
  value: Promise<V | null>;
}
