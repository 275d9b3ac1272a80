/**
 * How hard Herald may push each network (platform-apis.md §0.2 and each network's limits):
 * concurrent publications per worker process, and publications per account per 24 hours.
 */
const CAPS: Record<string, { concurrency: number; perDay?: number }> = {
  // X limits posts per account per window (the publisher's RETRY_LATER on 429), not concurrent
  // calls; 32 keeps a burst of due posts from waiting on slots (bench/scheduler.mjs).
  x: { concurrency: 32 },
  instagram: { concurrency: 4, perDay: 50 },
  facebook: { concurrency: 4 },
  threads: { concurrency: 4, perDay: 250 },
  tiktok: { concurrency: 2 },
  linkedin: { concurrency: 4 },
};

export function capsOf(slug: string) {
  return CAPS[slug] ?? { concurrency: 4 };
}

/** Per-key counting semaphores: at most `limit` holders of one key at a time. */
export class Semaphores {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  async acquire(key: string, limit: number): Promise<() => void> {
    if ((this.held.get(key) ?? 0) >= limit) {
      await new Promise<void>((resolve) => {
        this.waiting.set(key, [...(this.waiting.get(key) ?? []), resolve]);
      });
    } else {
      this.held.set(key, (this.held.get(key) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.waiting.get(key) ?? [];
      const next = queue.shift();
      // The slot passes straight to the next waiter; otherwise it is given back.
      if (next) next();
      else this.held.set(key, (this.held.get(key) ?? 1) - 1);
    };
  }
}
