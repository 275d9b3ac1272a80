/**
 * A small in-memory cache whose entries live at most `ttlMs`, for answers that every request
 * asks again (who is behind this access token, what may this member do). `clear()` forgets
 * everything at once and also voids the loads in flight when it is called, so an answer read
 * before a change cannot be stored after it.
 *
 * Callers that miss the same key at the same time share one load, and an entry asked for in the
 * second half of its life is read again in the background while it is still answered: under load
 * an entry then never expires with requests waiting for it. (When one expired, each of the ten
 * requests in flight read it again, one after the other on the embedded database; after that,
 * they all waited for the one read, queued behind the others' statements. Either was a periodic
 * stall of every request.) No answer is older than `ttlMs`.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number; refreshAt: number }>();
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
   * to the expiry of the token it was read for. A value asked for in the second half of its life
   * is answered, and `load(true)` reads it again in the background (a null answer then removes
   * it; a failed one leaves it to expire). A caller waits only for `load(false)`.
   *
   * A load of `key` already in flight is awaited instead of starting another, if it was started
   * after the last `clear()` with the same `scope`. A caller inside a database transaction
   * passes its transaction as the scope (`transactionOf`): a load outside the transaction may be
   * waiting for it to end (the embedded database runs one statement at a time), and awaiting
   * that load in the transaction would never end. Such a caller never reads in the background
   * either: the transaction may have ended by then.
   */
  async get(
    key: K,
    load: (inBackground: boolean) => Promise<V | null>,
    { until = () => Infinity, scope }: { until?: (value: V) => number; scope?: unknown } = {},
  ): Promise<V | null> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) {
      if (scope === undefined && hit.refreshAt <= now && !this.inFlight(key)) {
        this.start(key, () => load(true), until, scope).value.catch(() => {});
      }
      return hit.value;
    }
    if (hit) this.entries.delete(key);
    const pending = this.inFlight(key);
    if (pending && pending.scope === scope) return pending.value;
    return this.start(key, () => load(false), until, scope).value;
  }

  /** The load of `key` in flight since the last `clear()`, if any. */
  private inFlight(key: K): Loading<V> | undefined {
    const pending = this.loading.get(key);
    return pending && pending.generation === this.generation ? pending : undefined;
  }

  private start(
    key: K,
    load: () => Promise<V | null>,
    until: (value: V) => number,
    scope: unknown,
  ): Loading<V> {
    const now = this.now();
    const generation = this.generation;
    const loading: Loading<V> = {
      generation,
      scope,
      voided: false,
      value: load().then(
        (value) => {
          this.settled(key, loading);
          if (generation !== this.generation || loading.voided) return value;
          if (value === null) this.entries.delete(key);
          else this.store(key, value, now, until);
          return value;
        },
        (err: unknown) => {
          this.settled(key, loading);
          throw err;
        },
      ),
    };
    this.loading.set(key, loading);
    return loading;
  }

  private settled(key: K, loading: Loading<V>) {
    if (this.loading.get(key) === loading) this.loading.delete(key);
  }

  private store(key: K, value: V, now: number, until: (value: V) => number) {
    // Deleted and set again, a key read again is the newest: a Map iterates in insertion order.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.evict();
    this.entries.set(key, {
      value,
      until: Math.min(now + this.ttlMs, until(value)),
      refreshAt: now + this.ttlMs / 2,
    });
  }

  /** Makes room: every expired entry, else the oldest one. */
  private evict() {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    if (this.entries.size < this.maxEntries) return;
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }

  /**
   * Forgets one entry; the next `get` loads it again rather than awaiting the load in flight,
   * whose answer is not kept.
   */
  delete(key: K): void {
    this.entries.delete(key);
    const pending = this.loading.get(key);
    if (pending) pending.voided = true;
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
  /** Set by `delete()`: the answer is handed to its callers but not kept. */
  voided: boolean;
  value: Promise<V | null>;
}
