import { FACEBOOK_PUBLISH_CAPS } from '../../platforms/facebook/limits.js';
import { INSTAGRAM_PUBLISH_CAPS } from '../../platforms/instagram/limits.js';
import { LINKEDIN_PUBLISH_LIMITS } from '../../platforms/linkedin/limits.js';
import { THREADS_POST_CAP } from '../../platforms/threads/limits.js';
import { X_PUBLISH_LIMITS } from '../../platforms/x/limits.js';

export interface PublishCaps {
  /** Publications of this network in flight at once, across every process sharing the database. */
  concurrency: number;
  /** Publications of one account at once, where the network needs it (quota read before publish). */
  perAccount?: number;
  /** Publications per account per rolling 24 hours. */
  perDay?: number;
}

/**
 * How hard Herald may push each network, read from each network's own limits.ts so the numbers
 * live in one place (docs/networks.md#at-a-glance).
 */
const CAPS: Record<string, PublishCaps> = {
  x: { concurrency: X_PUBLISH_LIMITS.concurrency },
  instagram: {
    concurrency: 4,
    perAccount: INSTAGRAM_PUBLISH_CAPS.concurrentPerAccount,
    perDay: INSTAGRAM_PUBLISH_CAPS.postsPer24h,
  },
  facebook: { concurrency: 4, perAccount: FACEBOOK_PUBLISH_CAPS.concurrentPerAccount },
  threads: { concurrency: 4, perDay: THREADS_POST_CAP.posts },
  tiktok: { concurrency: 2 },
  linkedin: {
    concurrency: LINKEDIN_PUBLISH_LIMITS.concurrency,
    perDay: LINKEDIN_PUBLISH_LIMITS.postsPerDay,
  },
};

export function capsOf(slug: string): PublishCaps {
  return CAPS[slug] ?? { concurrency: 4 };
}

/**
 * Slots of the caps above, taken by the publisher around a run: at most `limit` holders of one
 * key at a time. Resolves with the slot's release, or null when `signal` aborts the wait (the
 * worker is stopping: nothing was started, the run hands its target back).
 */
export interface PublishSlots {
  acquire(key: string, limit: number, signal?: AbortSignal): Promise<(() => void) | null>;
  /** Gives back whatever is still held (the process is stopping). */
  close(): Promise<void>;
}

/**
 * Per-key counting semaphores within this process. Enough on its own where one process publishes
 * (the embedded PGlite database belongs to one); shared-slots.ts builds the cluster-wide slots of
 * PostgreSQL on it.
 */
export class Semaphores implements PublishSlots {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  async acquire(key: string, limit: number, signal?: AbortSignal): Promise<(() => void) | null> {
    if ((this.held.get(key) ?? 0) >= limit) {
      const granted = await new Promise<boolean>((resolve) => {
        const grant = () => {
          signal?.removeEventListener('abort', abort);
          resolve(true);
        };
        const abort = () => {
          const queue = this.waiting.get(key) ?? [];
          const at = queue.indexOf(grant);
          // Already granted: the slot is this waiter's and is given back below.
          if (at >= 0) queue.splice(at, 1);
          resolve(at < 0);
        };
        if (signal?.aborted) return resolve(false);
        this.waiting.set(key, [...(this.waiting.get(key) ?? []), grant]);
        signal?.addEventListener('abort', abort, { once: true });
      });
      if (!granted) return null;
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

  async close() {}
}
