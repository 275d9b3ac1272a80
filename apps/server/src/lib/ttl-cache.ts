/**
 * A small in-memory cache whose entries live at most `ttlMs`, for answers that every request
 * asks again (who is behind this access token, what may this member do). `clear()` forgets
 * everything at once and also voids the loads in flight when it is called, so an answer read
 * before a change cannot be stored after it.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
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
   */
  async get(
    key: K,
    load: () => Promise<V | null>,
    until: (value: V) => number = () => Infinity,
  ): Promise<V | null> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.entries.delete(key);
    const generation = this.generation;
    const value = await load();
    if (value !== null && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        // Oldest first: a Map iterates in insertion order.
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(key, { value, until: Math.min(now + this.ttlMs, until(value)) });
    }
    return value;
  }

  /** Forgets one entry (a load in flight for it may still store its value). */
  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
